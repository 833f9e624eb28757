// `/api/v1/transfer_register`: the account's cross-border transfers with lawful basis and adequacy verdict (API tokens
// holding `read`), and its signed evidence package. The register is organisation-level, in the control plane every cell
// attaches, so every cell answers the same list.
import {
  EVIDENCE_FORMAT_TYPES,
  evidencePackage,
  transferRegisterEvidenceRequest,
  transferRegisterList,
  transferRegisterQuery,
} from '@svc/schemas';
import type { z } from 'zod/mini';
import { type Answer, route, routes } from '../../../infra/http/route.js';
import { DEFAULT_LIMIT } from '../../../infra/pagination.js';
import { signEvidencePackage } from '../evidence/package.js';
import { listTransfers, transferRegisterSnapshot } from './register.js';

const BASE = '/api/v1/transfer_register';
const tag = 'Cross-border';

/** `GET /api/v1/transfer_register`, `POST /api/v1/transfer_register/evidence_package`. */
export const transferRegisterRoutes = routes((app, ctx) => {
  route(
    app,
    {
      method: 'get',
      path: BASE,
      summary: "List the account's cross-border transfers with lawful basis and adequacy verdict, oldest first",
      tag,
      permission: 'read',
      query: transferRegisterQuery,
      response: { status: 200, description: 'A page of the transfer register (no personal data)', schema: transferRegisterList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor, application_id } }) =>
      c.json(listTransfers(ctx, c.get('principal').accountId, { limit, cursor, application_id })),
  );

  const draw: Answer<z.output<typeof transferRegisterEvidenceRequest>> = async (c, { application_id }) => {
    const accountId = c.get('principal').accountId;
    const transfer_register = transferRegisterSnapshot(ctx, accountId, application_id);
    return c.json(await signEvidencePackage(ctx, EVIDENCE_FORMAT_TYPES.transferRegister, { transfer_register }, { accountId }), 201);
  };
  // The body is optional: an empty one reads as `{}`.
  route(
    app,
    {
      method: 'post',
      path: `${BASE}/evidence_package`,
      summary:
        "Draw a signed, independently verifiable evidence package of the register (optionally one application's): route totals, the entries and the audit chain heads it was drawn against",
      tag,
      permission: 'read',
      optionalBody: true,
      body: transferRegisterEvidenceRequest,
      response: {
        status: 201,
        description: `The package: a compact JWS (ES256, typ svc-evidence+jwt, kid in /.well-known/jwks.json), format_type ${EVIDENCE_FORMAT_TYPES.transferRegister}`,
        schema: evidencePackage,
      },
      errors: [400, 422],
    },
    (c, { body }) => draw(c, body),
  );
});
