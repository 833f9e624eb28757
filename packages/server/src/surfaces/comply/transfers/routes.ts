// `/api/v1/transfer_register`: the account's cross-border transfers with lawful basis and adequacy verdict (API tokens
// holding `read`), and its signed evidence package. The register is organisation-level and replicated to every cell,
// so every cell answers the same list.
import {
  EVIDENCE_FORMAT_TYPES,
  evidencePackage,
  transferRegisterEvidenceRequest,
  transferRegisterList,
  transferRegisterQuery,
} from '@svc/client/schemas';
import { routes } from '../../../infra/http/route.js';
import { requires } from '../../../infra/auth.js';
import type { Operation } from '../../../infra/operations.js';
import { DEFAULT_LIMIT } from '../../../infra/pagination.js';
import { readQuery } from '../../../infra/validate.js';
import { signEvidencePackage } from '../evidence/package.js';
import { readOptionalJson } from '../evidence/read-body.js';
import { listTransfers, transferRegisterSnapshot } from './register.js';

const BASE = '/api/v1/transfer_register';

/** `GET /api/v1/transfer_register`, `POST /api/v1/transfer_register/evidence_package`. */
export const transferRegisterRoutes = routes((app, ctx) => {
  app.get(BASE, requires('read'), (c) => {
    const { limit = DEFAULT_LIMIT, cursor, application_id } = readQuery(c, transferRegisterQuery);
    return c.json(listTransfers(ctx, c.get('principal').accountId, { limit, cursor, application_id }));
  });

  app.post(`${BASE}/evidence_package`, requires('read'), async (c) => {
    const { application_id } = await readOptionalJson(c, transferRegisterEvidenceRequest);
    const accountId = c.get('principal').accountId;
    const transfer_register = transferRegisterSnapshot(ctx, accountId, application_id);
    return c.json(await signEvidencePackage(ctx, EVIDENCE_FORMAT_TYPES.transferRegister, { transfer_register }, { accountId }), 201);
  });
});

const tag = 'Cross-border';

/** OpenAPI descriptors of the transfer register routes. */
export const transferRegisterOperations: Operation[] = [
  {
    method: 'get', path: BASE, summary: "List the account's cross-border transfers with lawful basis and adequacy verdict, oldest first", tag,
    auth: ['api_token'], permission: 'read', query: transferRegisterQuery,
    response: { status: 200, description: 'A page of the transfer register (no personal data)', schema: transferRegisterList }, errors: [400],
  },
  {
    method: 'post', path: `${BASE}/evidence_package`,
    summary: 'Draw a signed, independently verifiable evidence package of the register (optionally one application\'s): route totals, the entries and the audit chain heads it was drawn against',
    tag, auth: ['api_token'], permission: 'read', body: transferRegisterEvidenceRequest,
    response: {
      status: 201,
      description: `The package: a compact JWS (ES256, typ svc-evidence+jwt, kid in /.well-known/jwks.json), format_type ${EVIDENCE_FORMAT_TYPES.transferRegister}`,
      schema: evidencePackage,
    },
    errors: [400, 422],
  },
];
