// Protect's policies: the static template catalogue (`/api/v1/policy_templates`) and the policies made from it
// (`/api/v1/policies`), the account's with an API token or the person's own with their access token.
import {
  createPolicyRequest,
  listQuery,
  policyEnvelope,
  policyList,
  policyListQuery,
  policyTemplateEnvelope,
  policyTemplateList,
} from '@svc/schemas';
import { route, routes } from '../../infra/http/route.js';
import { decodeCursor, DEFAULT_LIMIT, toPage } from '../../infra/pagination.js';
import { createPolicy, findPolicy, listPolicies, revokePolicy, toPolicy } from './policies.js';
import { findTemplate, POLICY_TEMPLATES } from './templates.js';
import { type C, caller, found, idOf, personToo, tag } from './http.js';

const TEMPLATES = '/api/v1/policy_templates';
const POLICIES = '/api/v1/policies';

export const policyRoutes = routes((app, ctx) => {
  route(
    app,
    {
      method: 'get',
      path: TEMPLATES,
      summary:
        'The built-in policy template catalogue (data_license, data_offer, bounty, broadcast, retention, portability), each with the JSON Schema of its config',
      tag,
      permission: 'read',
      access: personToo,
      query: listQuery,
      response: { status: 200, description: 'A page of templates', schema: policyTemplateList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor } }) => {
      const start = decodeCursor(cursor);
      const rows = POLICY_TEMPLATES.slice(start, start + limit + 1).map((template, i) => ({ template, position: start + i + 1 }));
      const { items, next_cursor } = toPage(rows, limit, (r) => r.position);
      return c.json({ policy_templates: items.map((r) => r.template), next_cursor });
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${TEMPLATES}/{id}`,
      summary: 'One policy template',
      tag,
      permission: 'read',
      access: personToo,
      response: { status: 200, description: 'The template', schema: policyTemplateEnvelope },
      errors: [404],
    },
    (c) => c.json({ policy_template: found(findTemplate(idOf(c)), 'policy template') }),
  );

  route(
    app,
    {
      method: 'post',
      path: POLICIES,
      summary:
        "Make a policy from a template (CreatePolicyRequest); config must meet the template's schema (422 invalid_config, each path under config.). With a person's access token it is the person's own policy, with an API token the account's",
      tag,
      permission: 'write',
      access: personToo,
      body: createPolicyRequest,
      response: { status: 201, description: 'The policy, active', schema: policyEnvelope },
      errors: [422],
    },
    (c, { body }) => {
      const row = createPolicy(ctx, caller(c), body);
      c.header('Location', `${POLICIES}/${row.id}`);
      return c.json({ policy: toPolicy(ctx, row) }, 201);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: POLICIES,
      summary:
        "List policies, oldest first: the account's (API token) or the person's own (access token); filters template_id, status, owner_type",
      tag,
      permission: 'read',
      access: personToo,
      query: policyListQuery,
      response: { status: 200, description: 'A page of policies', schema: policyList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, ...query } }) => c.json(listPolicies(ctx, caller(c), { limit, ...query })),
  );

  const policyOf = (c: C) => found(findPolicy(ctx, caller(c), idOf(c)), 'policy');

  route(
    app,
    {
      method: 'get',
      path: `${POLICIES}/{id}`,
      summary: 'Read a policy; a deal policy carries its acceptance (accepted_at, acceptance)',
      tag,
      permission: 'read',
      access: personToo,
      response: { status: 200, description: 'The policy', schema: policyEnvelope },
      errors: [404],
    },
    (c) => c.json({ policy: toPolicy(ctx, policyOf(c)) }),
  );

  route(
    app,
    {
      method: 'post',
      path: `${POLICIES}/{id}/revoke`,
      summary:
        "Revoke a policy (active -> revoked, final; again 409 illegal_transition). A person's policy only with their access token (an API token is 403 policy_owner_only)",
      tag,
      permission: 'write',
      access: personToo,
      response: { status: 200, description: 'The policy, revoked', schema: policyEnvelope },
      errors: [404, 409],
    },
    (c) => c.json({ policy: toPolicy(ctx, revokePolicy(ctx, caller(c), policyOf(c))) }),
  );
});
