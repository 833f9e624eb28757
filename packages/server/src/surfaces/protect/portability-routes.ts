// Protect's portability transfers: opened under a person's portability policy between two applications of the
// account; the source marks the package ready, the destination confirms what it received (API tokens).
import {
  confirmPortabilityTransferRequest,
  createPortabilityTransferRequest,
  markPortabilityTransferReadyRequest,
  portabilityTransferEnvelope,
  portabilityTransferList,
  portabilityTransferListQuery,
} from '@svc/schemas';
import { assertHomedHere } from '../../infra/cells/routing.js';
import { route, routes } from '../../infra/http/route.js';
import { DEFAULT_LIMIT } from '../../infra/pagination.js';
import { type C, caller, found, idOf, personToo, tag } from './http.js';
import {
  cancelTransfer,
  confirmTransfer,
  createTransfer,
  findTransfer,
  listTransfers,
  markReady,
  toPortabilityTransfer,
} from './portability.js';

const TRANSFERS = '/api/v1/portability_transfers';

export const portabilityRoutes = routes((app, ctx) => {
  const transferOf = (c: C, id = idOf(c)) => found(findTransfer(ctx, caller(c), id), 'portability transfer');
  const envelope = (row: ReturnType<typeof transferOf>) => ({ portability_transfer: toPortabilityTransfer(ctx, row) });

  route(
    app,
    {
      method: 'post',
      path: `${TRANSFERS}/confirm`,
      summary:
        'The destination confirms receipt (ConfirmPortabilityTransferRequest) with the digest of what it received, compared in constant time with the declared one (ready -> confirmed; 422 data_hash_required, data_hash_mismatch; 409 illegal_transition)',
      tag,
      permission: 'write',
      body: confirmPortabilityTransferRequest,
      response: { status: 200, description: 'The transfer, confirmed', schema: portabilityTransferEnvelope },
      errors: [404, 409],
    },
    (c, { body }) => {
      assertHomedHere(ctx, body.transfer_id);
      return c.json(envelope(confirmTransfer(ctx, transferOf(c, body.transfer_id), body)));
    },
  );

  route(
    app,
    {
      method: 'post',
      path: TRANSFERS,
      summary:
        "Open a portability transfer (CreatePortabilityTransferRequest) under a person's active portability policy, between two applications of the account, in one of the policy's formats (422 policy_not_found, policy_not_portability, policy_not_personal, same_application, format_not_offered)",
      tag,
      permission: 'write',
      access: personToo,
      body: createPortabilityTransferRequest,
      response: { status: 201, description: 'The transfer, pending', schema: portabilityTransferEnvelope },
      errors: [422],
    },
    (c, { body }) => {
      const row = createTransfer(ctx, caller(c), body);
      c.header('Location', `${TRANSFERS}/${row.id}`);
      return c.json(envelope(row), 201);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: TRANSFERS,
      summary: "List portability transfers, oldest first: the account's (API token) or the person's own; filters status, policy_id",
      tag,
      permission: 'read',
      access: personToo,
      query: portabilityTransferListQuery,
      response: { status: 200, description: 'A page of transfers', schema: portabilityTransferList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, ...query } }) => c.json(listTransfers(ctx, caller(c), { limit, ...query })),
  );

  route(
    app,
    {
      method: 'get',
      path: `${TRANSFERS}/{id}`,
      summary: 'Read a portability transfer',
      tag,
      permission: 'read',
      access: personToo,
      response: { status: 200, description: 'The transfer', schema: portabilityTransferEnvelope },
      errors: [404],
    },
    (c) => c.json(envelope(transferOf(c))),
  );

  route(
    app,
    {
      method: 'post',
      path: `${TRANSFERS}/{id}/ready`,
      summary: 'The source marks the package ready and declares its SHA-256 (pending -> ready)',
      tag,
      permission: 'write',
      body: markPortabilityTransferReadyRequest,
      response: { status: 200, description: 'The transfer, ready', schema: portabilityTransferEnvelope },
      errors: [404, 409],
    },
    (c, { body }) => c.json(envelope(markReady(ctx, transferOf(c), body.data_hash))),
  );

  route(
    app,
    {
      method: 'post',
      path: `${TRANSFERS}/{id}/cancel`,
      summary: 'Cancel a transfer (pending | ready -> cancelled, final)',
      tag,
      permission: 'write',
      access: personToo,
      response: { status: 200, description: 'The transfer, cancelled', schema: portabilityTransferEnvelope },
      errors: [404, 409],
    },
    (c) => c.json(envelope(cancelTransfer(ctx, transferOf(c)))),
  );
});
