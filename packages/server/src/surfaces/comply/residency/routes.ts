// `/api/v1/residency_posture`: where the account's subjects' data is stored, per country cell, with an assurance
// status (API tokens holding `read`), and its signed evidence package.
import { EVIDENCE_FORMAT_TYPES, evidencePackage, residencyPostureEnvelope, residencyPostureEvidenceRequest } from '@svc/schemas';
import { type Answer, route, routes } from '../../../infra/http/route.js';
import { auditAnchorOf, signEvidencePackage } from '../evidence/package.js';
import { residencyPosture } from './posture.js';

const BASE = '/api/v1/residency_posture';
const tag = 'Cross-border';

/** `GET /api/v1/residency_posture`, `POST /api/v1/residency_posture/evidence_package`. */
export const residencyRoutes = routes((app, ctx) => {
  route(
    app,
    {
      method: 'get',
      path: BASE,
      summary:
        "Where the account's subjects' data is stored per country (counts only), each country verified when every personal row it stores is homed there",
      tag,
      permission: 'read',
      response: { status: 200, description: 'The residency posture', schema: residencyPostureEnvelope },
    },
    (c) => c.json({ residency_posture: residencyPosture(ctx, c.get('principal').accountId) }),
  );

  const draw: Answer<unknown> = async (c) => {
    const accountId = c.get('principal').accountId;
    const posture = residencyPosture(ctx, accountId);
    // Each country's audit chain heads (hashes and positions), beside the signing cell's own `audit_anchor`.
    const cells = ctx.cells
      .list()
      .map((cell) => cell.context)
      .filter((cell) => cell.db.open);
    const audit_anchors = (cells.length > 0 ? cells : [ctx]).map((cell) => auditAnchorOf(cell, accountId));
    return c.json(
      await signEvidencePackage(
        ctx,
        EVIDENCE_FORMAT_TYPES.residencyPosture,
        { drawn_at: posture.drawn_at, residency_posture: posture, audit_anchors },
        { accountId },
      ),
      201,
    );
  };
  // The body is optional: an empty one reads as `{}`.
  route(
    app,
    {
      method: 'post',
      path: `${BASE}/evidence_package`,
      summary: "Draw a signed proof of residency: the posture and each country's audit chain heads",
      tag,
      permission: 'read',
      optionalBody: true,
      body: residencyPostureEvidenceRequest,
      response: {
        status: 201,
        description: `The package: a compact JWS (ES256, typ svc-evidence+jwt, kid in /.well-known/jwks.json), format_type ${EVIDENCE_FORMAT_TYPES.residencyPosture}`,
        schema: evidencePackage,
      },
      errors: [400, 422],
    },
    (c, { body }) => draw(c, body),
  );
});
