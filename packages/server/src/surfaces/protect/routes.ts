// Protect over HTTP: `/api/v1/policy_templates` (the static catalogue), `/api/v1/policies`, `/api/v1/data_requests`,
// `/api/v1/data_licenses`, `/api/v1/data_offers`, `/api/v1/portability_transfers`. API tokens act for the
// organisation (`read` to look, `write` to change); a person's access token acts for the person on what is theirs
// (their policies, requests, offers and transfers); publishable keys, agent tokens and delegates are refused.
// Another account's resource, or another person's, is a 404 as if it did not exist.
import {
  completeDataRequestRequest,
  confirmPortabilityTransferRequest,
  createDataLicenseRequest,
  createDataOfferRequest,
  createDsarRequest,
  createPolicyRequest,
  createPortabilityTransferRequest,
  dataLicenseAccessEnvelope,
  dataLicenseAccessList,
  dataLicenseEnvelope,
  dataLicenseList,
  dataLicenseListQuery,
  dataOfferEnvelope,
  dataOfferList,
  dataOfferListQuery,
  dataOfferTermsRequest,
  dataRequestEnvelope,
  dataRequestList,
  dataRequestListQuery,
  declineDataOfferRequest,
  extendDataRequestRequest,
  listQuery,
  markPortabilityTransferReadyRequest,
  policyEnvelope,
  policyList,
  policyListQuery,
  policyTemplateEnvelope,
  policyTemplateList,
  portabilityTransferEnvelope,
  portabilityTransferList,
  portabilityTransferListQuery,
  recordDataLicenseAccessRequest,
  rejectDataRequestRequest,
} from '@svc/client/schemas';
import type { Context } from 'hono';
import { routes } from '../../infra/http/route.js';
import { assertHomedHere } from '../../infra/cells/routing.js';
import { requires } from '../../infra/auth.js';
import type { Env, ServerContext } from '../../infra/context.js';
import { notFound } from '../../infra/errors.js';
import type { Operation } from '../../infra/operations.js';
import { decodeCursor, DEFAULT_LIMIT, toPage } from '../../infra/pagination.js';
import { readJson, readQuery } from '../../infra/validate.js';
import { callerOf, personOnly, readOptionalJson } from './common.js';
import { createDataLicense, findDataLicense, listAccesses, listDataLicenses, recordAccess, revokeDataLicense, toDataLicense } from './data-licenses.js';
import { createDataOffer, findDataOffer, listDataOffers, moveDataOffer, toDataOffer, type DataOfferMove } from './data-offers.js';
import { createDataRequest, findDataRequest, listDataRequests, moveDataRequest, toDataRequest, type DataRequestMove } from './data-requests.js';
import { createPolicy, findPolicy, listPolicies, revokePolicy, toPolicy } from './policies.js';
import { cancelTransfer, confirmTransfer, createTransfer, findTransfer, listTransfers, markReady, toPortabilityTransfer } from './portability.js';
import { findTemplate, POLICY_TEMPLATES } from './templates.js';

const TEMPLATES = '/api/v1/policy_templates';
const POLICIES = '/api/v1/policies';
const REQUESTS = '/api/v1/data_requests';
const LICENSES = '/api/v1/data_licenses';
const OFFERS = '/api/v1/data_offers';
const TRANSFERS = '/api/v1/portability_transfers';

/** Who may call: the organisation (API token) and, on a person's own resources, the person. */
const personToo = { person: true } as const;

type C = Context<Env>;
const caller = (c: C) => callerOf(c.get('principal'));
const idOf = (c: C) => c.req.param('id') ?? '';

/** What a lookup found, or the 404 `No such <what>.` (for a resource that does not exist or is not the caller's). */
function found<T>(row: T | undefined, what: string): T {
  if (!row) throw notFound(`No such ${what}.`);
  return row;
}
const policyOf = (ctx: ServerContext, c: C) => found(findPolicy(ctx, caller(c), idOf(c)), 'policy');
const requestOf = (ctx: ServerContext, c: C) => found(findDataRequest(ctx, caller(c), idOf(c)), 'data request');
const licenseOf = (ctx: ServerContext, c: C) => found(findDataLicense(ctx, c.get('principal').accountId, idOf(c)), 'data license');
const offerOf = (ctx: ServerContext, c: C) => found(findDataOffer(ctx, caller(c), idOf(c)), 'data offer');
const transferOf = (ctx: ServerContext, c: C, id = idOf(c)) => found(findTransfer(ctx, caller(c), id), 'portability transfer');

/** Every Protect route. */
export const protectRoutes = routes((app, ctx) => {
  // ---- policy templates (static)
  app.get(TEMPLATES, requires('read', personToo), (c) => {
    const { limit = DEFAULT_LIMIT, cursor } = readQuery(c, listQuery);
    const start = decodeCursor(cursor);
    const rows = POLICY_TEMPLATES.slice(start, start + limit + 1).map((template, i) => ({ template, position: start + i + 1 }));
    const { items, next_cursor } = toPage(rows, limit, (r) => r.position);
    return c.json({ policy_templates: items.map((r) => r.template), next_cursor });
  });
  app.get(`${TEMPLATES}/:id`, requires('read', personToo), (c) => c.json({ policy_template: found(findTemplate(idOf(c)), 'policy template') }));

  // ---- policies
  app.post(POLICIES, requires('write', personToo), async (c) => {
    const input = await readJson(c, createPolicyRequest);
    const row = createPolicy(ctx, caller(c), input);
    c.header('Location', `${POLICIES}/${row.id}`);
    return c.json({ policy: toPolicy(ctx, row) }, 201);
  });
  app.get(POLICIES, requires('read', personToo), (c) => {
    const { limit = DEFAULT_LIMIT, ...query } = readQuery(c, policyListQuery);
    return c.json(listPolicies(ctx, caller(c), { limit, ...query }));
  });
  app.get(`${POLICIES}/:id`, requires('read', personToo), (c) => c.json({ policy: toPolicy(ctx, policyOf(ctx, c)) }));
  app.post(`${POLICIES}/:id/revoke`, requires('write', personToo), (c) =>
    c.json({ policy: toPolicy(ctx, revokePolicy(ctx, caller(c), policyOf(ctx, c))) }));

  // ---- data requests
  app.post(REQUESTS, requires('write', personToo), async (c) => {
    const person = personOnly(c.get('principal'), 'A data request');
    const input = await readJson(c, createDsarRequest);
    const row = createDataRequest(ctx, person, input);
    c.header('Location', `${REQUESTS}/${row.id}`);
    return c.json({ data_request: toDataRequest(ctx, row) }, 201);
  });
  app.get(REQUESTS, requires('read', personToo), (c) => {
    const { limit = DEFAULT_LIMIT, ...query } = readQuery(c, dataRequestListQuery);
    return c.json(listDataRequests(ctx, caller(c), { limit, ...query }));
  });
  app.get(`${REQUESTS}/:id`, requires('read', personToo), (c) => c.json({ data_request: toDataRequest(ctx, requestOf(ctx, c)) }));
  const moveRequest = (action: DataRequestMove['action']) => async (c: C) => {
    const row = requestOf(ctx, c);
    let move: DataRequestMove;
    if (action === 'extend') move = { action, input: await readJson(c, extendDataRequestRequest) };
    else if (action === 'complete') move = { action, note: (await readOptionalJson(c, completeDataRequestRequest)).note };
    else if (action === 'reject') move = { action, reason: (await readJson(c, rejectDataRequestRequest)).reason };
    else move = { action };
    return c.json({ data_request: toDataRequest(ctx, moveDataRequest(ctx, row, move)) });
  };
  for (const action of ['start', 'extend', 'complete', 'reject'] as const) app.post(`${REQUESTS}/:id/${action}`, requires('write'), moveRequest(action));

  // ---- data licenses (the organisation's)
  app.post(LICENSES, requires('write'), async (c) => {
    const input = await readJson(c, createDataLicenseRequest);
    const row = createDataLicense(ctx, c.get('principal').accountId, input);
    c.header('Location', `${LICENSES}/${row.id}`);
    return c.json({ data_license: toDataLicense(ctx, row) }, 201);
  });
  app.get(LICENSES, requires('read'), (c) => {
    const { limit = DEFAULT_LIMIT, ...query } = readQuery(c, dataLicenseListQuery);
    return c.json(listDataLicenses(ctx, c.get('principal').accountId, { limit, ...query }));
  });
  app.get(`${LICENSES}/:id`, requires('read'), (c) => c.json({ data_license: toDataLicense(ctx, licenseOf(ctx, c)) }));
  app.post(`${LICENSES}/:id/accesses`, requires('write'), async (c) => {
    const license = licenseOf(ctx, c);
    const input = await readOptionalJson(c, recordDataLicenseAccessRequest);
    const { access } = recordAccess(ctx, license, input);
    return c.json({ data_license_access: access }, 201);
  });
  app.get(`${LICENSES}/:id/accesses`, requires('read'), (c) => {
    const { limit = DEFAULT_LIMIT, cursor } = readQuery(c, listQuery);
    return c.json(listAccesses(ctx, licenseOf(ctx, c), { limit, cursor }));
  });
  app.post(`${LICENSES}/:id/revoke`, requires('write'), (c) => c.json({ data_license: toDataLicense(ctx, revokeDataLicense(ctx, licenseOf(ctx, c))) }));

  // ---- data offers (the data deal)
  app.post(OFFERS, requires('write', personToo), async (c) => {
    const person = personOnly(c.get('principal'), 'A data offer');
    const input = await readJson(c, createDataOfferRequest);
    const row = createDataOffer(ctx, person, input);
    c.header('Location', `${OFFERS}/${row.id}`);
    return c.json({ data_offer: toDataOffer(ctx, row) }, 201);
  });
  app.get(OFFERS, requires('read', personToo), (c) => {
    const { limit = DEFAULT_LIMIT, ...query } = readQuery(c, dataOfferListQuery);
    return c.json(listDataOffers(ctx, caller(c), { limit, ...query }));
  });
  app.get(`${OFFERS}/:id`, requires('read', personToo), (c) => c.json({ data_offer: toDataOffer(ctx, offerOf(ctx, c)) }));
  const moveOffer = (action: DataOfferMove['action']) => async (c: C) => {
    if (action === 'offer' || action === 'revise') personOnly(c.get('principal'), action === 'offer' ? 'Sending a data offer' : 'Revising a data offer');
    const row = offerOf(ctx, c);
    let move: DataOfferMove;
    if (action === 'counter' || action === 'revise') move = { action, ...(await readJson(c, dataOfferTermsRequest)) };
    else if (action === 'decline') move = { action, reason: (await readOptionalJson(c, declineDataOfferRequest)).reason };
    else move = { action };
    return c.json({ data_offer: toDataOffer(ctx, moveDataOffer(ctx, caller(c), row, move)) });
  };
  app.post(`${OFFERS}/:id/offer`, requires('write', personToo), moveOffer('offer'));
  app.post(`${OFFERS}/:id/revise`, requires('write', personToo), moveOffer('revise'));
  app.post(`${OFFERS}/:id/counter`, requires('write'), moveOffer('counter'));
  app.post(`${OFFERS}/:id/accept`, requires('write', personToo), moveOffer('accept'));
  app.post(`${OFFERS}/:id/decline`, requires('write', personToo), moveOffer('decline'));

  // ---- portability transfers
  app.post(`${TRANSFERS}/confirm`, requires('write'), async (c) => {
    const input = await readJson(c, confirmPortabilityTransferRequest);
    assertHomedHere(ctx, input.transfer_id);
    return c.json({ portability_transfer: toPortabilityTransfer(ctx, confirmTransfer(ctx, transferOf(ctx, c, input.transfer_id), input)) });
  });
  app.post(TRANSFERS, requires('write', personToo), async (c) => {
    const input = await readJson(c, createPortabilityTransferRequest);
    const row = createTransfer(ctx, caller(c), input);
    c.header('Location', `${TRANSFERS}/${row.id}`);
    return c.json({ portability_transfer: toPortabilityTransfer(ctx, row) }, 201);
  });
  app.get(TRANSFERS, requires('read', personToo), (c) => {
    const { limit = DEFAULT_LIMIT, ...query } = readQuery(c, portabilityTransferListQuery);
    return c.json(listTransfers(ctx, caller(c), { limit, ...query }));
  });
  app.get(`${TRANSFERS}/:id`, requires('read', personToo), (c) => c.json({ portability_transfer: toPortabilityTransfer(ctx, transferOf(ctx, c)) }));
  app.post(`${TRANSFERS}/:id/ready`, requires('write'), async (c) => {
    const row = transferOf(ctx, c);
    const { data_hash } = await readJson(c, markPortabilityTransferReadyRequest);
    return c.json({ portability_transfer: toPortabilityTransfer(ctx, markReady(ctx, row, data_hash)) });
  });
  app.post(`${TRANSFERS}/:id/cancel`, requires('write', personToo), (c) =>
    c.json({ portability_transfer: toPortabilityTransfer(ctx, cancelTransfer(ctx, transferOf(ctx, c))) }));
});

// ---- OpenAPI ------------------------------------------------------------------------------------------------------

const tag = 'Protect';
const both = ['api_token', 'access_token'] as Operation['auth'];
const org = ['api_token'] as Operation['auth'];
const person = ['access_token'] as Operation['auth'];

/** OpenAPI descriptors of the Protect routes. */
export const protectOperations: Operation[] = [
  {
    method: 'get', path: TEMPLATES, summary: 'The built-in policy template catalogue (data_license, data_offer, bounty, broadcast, retention, portability), each with the JSON Schema of its config', tag,
    auth: both, permission: 'read', query: listQuery,
    response: { status: 200, description: 'A page of templates', schema: policyTemplateList }, errors: [400],
  },
  {
    method: 'get', path: `${TEMPLATES}/{id}`, summary: 'One policy template', tag, auth: both, permission: 'read',
    response: { status: 200, description: 'The template', schema: policyTemplateEnvelope }, errors: [404],
  },
  {
    method: 'post', path: POLICIES,
    summary: "Make a policy from a template (CreatePolicyRequest); config must meet the template's schema (422 invalid_config, each path under config.). With a person's access token it is the person's own policy, with an API token the account's",
    tag, auth: both, permission: 'write', body: createPolicyRequest,
    response: { status: 201, description: 'The policy, active', schema: policyEnvelope }, errors: [422],
  },
  {
    method: 'get', path: POLICIES, summary: "List policies, oldest first: the account's (API token) or the person's own (access token); filters template_id, status, owner_type", tag,
    auth: both, permission: 'read', query: policyListQuery,
    response: { status: 200, description: 'A page of policies', schema: policyList }, errors: [400],
  },
  {
    method: 'get', path: `${POLICIES}/{id}`, summary: 'Read a policy; a deal policy carries its acceptance (accepted_at, acceptance)', tag, auth: both, permission: 'read',
    response: { status: 200, description: 'The policy', schema: policyEnvelope }, errors: [404],
  },
  {
    method: 'post', path: `${POLICIES}/{id}/revoke`,
    summary: "Revoke a policy (active -> revoked, final; again 409 illegal_transition). A person's policy only with their access token (an API token is 403 policy_owner_only)",
    tag, auth: both, permission: 'write',
    response: { status: 200, description: 'The policy, revoked', schema: policyEnvelope }, errors: [404, 409],
  },
  {
    method: 'post', path: REQUESTS,
    summary: "File a data request (CreateDsarRequest: access, erasure, portability, rectification) with an application of the account, with the person's access token (an API token is 403 person_token_required); received now, due in 30 days",
    tag, auth: person, body: createDsarRequest,
    response: { status: 201, description: 'The data request, received', schema: dataRequestEnvelope }, errors: [422],
  },
  {
    method: 'get', path: REQUESTS, summary: "List data requests, oldest first: the account's (API token) or the person's own; filters status, dsar_type, application_id", tag,
    auth: both, permission: 'read', query: dataRequestListQuery,
    response: { status: 200, description: 'A page of data requests', schema: dataRequestList }, errors: [400],
  },
  {
    method: 'get', path: `${REQUESTS}/{id}`, summary: 'Read a data request: status, due_date, overdue, extension, and the export of a completed access request', tag,
    auth: both, permission: 'read',
    response: { status: 200, description: 'The data request', schema: dataRequestEnvelope }, errors: [404],
  },
  {
    method: 'post', path: `${REQUESTS}/{id}/start`, summary: 'Start processing a data request (received -> in_progress; otherwise 409 illegal_transition)', tag,
    auth: org, permission: 'write',
    response: { status: 200, description: 'The data request, in progress', schema: dataRequestEnvelope }, errors: [404, 409],
  },
  {
    method: 'post', path: `${REQUESTS}/{id}/extend`,
    summary: 'Extend the due date once, before it passes, by at most 60 days (default 60), with the reason; 409 already_extended, due_date_passed, illegal_transition', tag,
    auth: org, permission: 'write', body: extendDataRequestRequest,
    response: { status: 200, description: 'The data request, extended', schema: dataRequestEnvelope }, errors: [404, 409],
  },
  {
    method: 'post', path: `${REQUESTS}/{id}/complete`,
    summary: "Complete a data request in progress (in_progress -> completed); an access request gets the export of what the service holds about the person. The body ({note}) is optional", tag,
    auth: org, permission: 'write', body: completeDataRequestRequest,
    response: { status: 200, description: 'The data request, completed', schema: dataRequestEnvelope }, errors: [404, 409],
  },
  {
    method: 'post', path: `${REQUESTS}/{id}/reject`, summary: 'Reject a data request with the reason (received | in_progress -> rejected)', tag,
    auth: org, permission: 'write', body: rejectDataRequestRequest,
    response: { status: 200, description: 'The data request, rejected', schema: dataRequestEnvelope }, errors: [404, 409],
  },
  {
    method: 'post', path: LICENSES,
    summary: 'Issue a data license (CreateDataLicenseRequest) under an active agreement of the account (422 agreement_not_found, agreement_not_active; 421 when the agreement is homed in another cell)', tag,
    auth: org, permission: 'write', body: createDataLicenseRequest,
    response: { status: 201, description: 'The data license, active', schema: dataLicenseEnvelope }, errors: [422],
  },
  {
    method: 'get', path: LICENSES, summary: "List the account's data licenses, oldest first; filters status, agreement_id", tag,
    auth: org, permission: 'read', query: dataLicenseListQuery,
    response: { status: 200, description: 'A page of data licenses', schema: dataLicenseList }, errors: [400],
  },
  {
    method: 'get', path: `${LICENSES}/{id}`, summary: 'Read a data license with its access count and remaining accesses', tag, auth: org, permission: 'read',
    response: { status: 200, description: 'The data license', schema: dataLicenseEnvelope }, errors: [404],
  },
  {
    method: 'post', path: `${LICENSES}/{id}/accesses`,
    summary: 'Count one access, atomically: never past max_access_count however requests race (409 max_access_count_reached once every access is used; 409 data_license_revoked). The body ({purpose, accessor}) is optional', tag,
    auth: org, permission: 'write', body: recordDataLicenseAccessRequest,
    response: { status: 201, description: 'The access, with its sequence number and the accesses remaining', schema: dataLicenseAccessEnvelope }, errors: [404, 409],
  },
  {
    method: 'get', path: `${LICENSES}/{id}/accesses`, summary: "A license's accesses in the order they were counted", tag, auth: org, permission: 'read', query: listQuery,
    response: { status: 200, description: 'A page of accesses', schema: dataLicenseAccessList }, errors: [400, 404],
  },
  {
    method: 'post', path: `${LICENSES}/{id}/revoke`, summary: 'Revoke a data license (active | exhausted -> revoked, final; again 409 illegal_transition)', tag,
    auth: org, permission: 'write',
    response: { status: 200, description: 'The data license, revoked', schema: dataLicenseEnvelope }, errors: [404, 409],
  },
  {
    method: 'post', path: OFFERS,
    summary: "Draft a data offer: the person's terms for a deal policy of theirs (data_license, data_offer, bounty, broadcast), to an application of the account; with the person's access token (422 policy_not_found, policy_not_deal, policy_not_active, policy_already_accepted, expires_at_invalid)", tag,
    auth: person, body: createDataOfferRequest,
    response: { status: 201, description: 'The data offer, draft', schema: dataOfferEnvelope }, errors: [422],
  },
  {
    method: 'get', path: OFFERS, summary: "List data offers, oldest first (those past their time expired first): the account's (API token) or the person's own; filters status, policy_id, application_id", tag,
    auth: both, permission: 'read', query: dataOfferListQuery,
    response: { status: 200, description: 'A page of data offers', schema: dataOfferList }, errors: [400],
  },
  {
    method: 'get', path: `${OFFERS}/{id}`, summary: 'Read a data offer: status, whose turn, the terms on the table and every round', tag, auth: both, permission: 'read',
    response: { status: 200, description: 'The data offer', schema: dataOfferEnvelope }, errors: [404],
  },
  {
    method: 'post', path: `${OFFERS}/{id}/offer`, summary: "Send the draft (draft -> offered; the person's access token); it expires at expires_at (default 7 days). Illegal moves are 409 illegal_transition", tag,
    auth: person,
    response: { status: 200, description: 'The data offer, offered', schema: dataOfferEnvelope }, errors: [404, 409],
  },
  {
    method: 'post', path: `${OFFERS}/{id}/counter`, summary: "The organisation's counter-offer with new terms (offered | user_revised -> countered; API token)", tag,
    auth: org, permission: 'write', body: dataOfferTermsRequest,
    response: { status: 200, description: 'The data offer, countered', schema: dataOfferEnvelope }, errors: [404, 409],
  },
  {
    method: 'post', path: `${OFFERS}/{id}/revise`, summary: "The person's revision of a counter-offer (countered -> user_revised; the person's access token)", tag,
    auth: person, body: dataOfferTermsRequest,
    response: { status: 200, description: 'The data offer, user_revised', schema: dataOfferEnvelope }, errors: [404, 409],
  },
  {
    method: 'post', path: `${OFFERS}/{id}/accept`,
    summary: "Accept the other side's terms (the organisation: offered | user_revised -> accepted; the person: countered -> accepted); the acceptance is recorded on the policy (409 policy_already_accepted, policy_not_active)", tag,
    auth: both, permission: 'write',
    response: { status: 200, description: 'The data offer, accepted', schema: dataOfferEnvelope }, errors: [404, 409],
  },
  {
    method: 'post', path: `${OFFERS}/{id}/decline`, summary: "Decline the other side's terms (-> declined, final); the body ({reason}) is optional", tag,
    auth: both, permission: 'write', body: declineDataOfferRequest,
    response: { status: 200, description: 'The data offer, declined', schema: dataOfferEnvelope }, errors: [404, 409],
  },
  {
    method: 'post', path: TRANSFERS,
    summary: "Open a portability transfer (CreatePortabilityTransferRequest) under a person's active portability policy, between two applications of the account, in one of the policy's formats (422 policy_not_found, policy_not_portability, policy_not_personal, same_application, format_not_offered)", tag,
    auth: both, permission: 'write', body: createPortabilityTransferRequest,
    response: { status: 201, description: 'The transfer, pending', schema: portabilityTransferEnvelope }, errors: [422],
  },
  {
    method: 'get', path: TRANSFERS, summary: "List portability transfers, oldest first: the account's (API token) or the person's own; filters status, policy_id", tag,
    auth: both, permission: 'read', query: portabilityTransferListQuery,
    response: { status: 200, description: 'A page of transfers', schema: portabilityTransferList }, errors: [400],
  },
  {
    method: 'get', path: `${TRANSFERS}/{id}`, summary: 'Read a portability transfer', tag, auth: both, permission: 'read',
    response: { status: 200, description: 'The transfer', schema: portabilityTransferEnvelope }, errors: [404],
  },
  {
    method: 'post', path: `${TRANSFERS}/{id}/ready`, summary: 'The source marks the package ready and declares its SHA-256 (pending -> ready)', tag,
    auth: org, permission: 'write', body: markPortabilityTransferReadyRequest,
    response: { status: 200, description: 'The transfer, ready', schema: portabilityTransferEnvelope }, errors: [404, 409],
  },
  {
    method: 'post', path: `${TRANSFERS}/confirm`,
    summary: 'The destination confirms receipt (ConfirmPortabilityTransferRequest) with the digest of what it received, compared in constant time with the declared one (ready -> confirmed; 422 data_hash_required, data_hash_mismatch; 409 illegal_transition)', tag,
    auth: org, permission: 'write', body: confirmPortabilityTransferRequest,
    response: { status: 200, description: 'The transfer, confirmed', schema: portabilityTransferEnvelope }, errors: [404, 409],
  },
  {
    method: 'post', path: `${TRANSFERS}/{id}/cancel`, summary: 'Cancel a transfer (pending | ready -> cancelled, final)', tag, auth: both, permission: 'write',
    response: { status: 200, description: 'The transfer, cancelled', schema: portabilityTransferEnvelope }, errors: [404, 409],
  },
];
