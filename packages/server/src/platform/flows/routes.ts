import {
  createFlowRequest,
  type FlowConfig,
  flowEnvelope,
  flowList,
  flowVersionEnvelope,
  flowVersionList,
  listQuery,
  updateFlowRequest,
} from '@svc/schemas';
import type { Context } from 'hono';
import type { z } from 'zod/mini';
import { route, routes } from '../../infra/http/route.js';
import { defaultApplication, getApplication } from '../application-store.js';
import type { Env, ServerContext } from '../../infra/context.js';
import { notFound, unprocessable } from '../../infra/errors.js';
import { DEFAULT_LIMIT } from '../../infra/pagination.js';
import { unknownDisclosedAgents } from '../../authority/disclosures/agents.js';
import {
  EMPTY_FLOW_CONFIG,
  activateFlow,
  createFlow,
  getFlow,
  getFlowVersion,
  listFlowVersions,
  listFlows,
  reviseFlow,
  toWireVersion,
} from './store.js';

const noSuchFlow = () => notFound('No such flow.');

/** A flow may only disclose agent identities of its own account: anything else is 422 naming each entry. */
function assertDisclosedAgents(ctx: ServerContext, accountId: string, config: FlowConfig | undefined): void {
  const errors = unknownDisclosedAgents(ctx, accountId, config);
  if (errors.length)
    throw unprocessable('flow.config.agents names agents that are not agent identities of this account.', 'validation_failed', errors);
}

const tag = 'Flows';
const withId = (c: Context<Env>) => ({ accountId: c.get('principal').accountId, id: c.req.param('id')! });

function revise(ctx: ServerContext, c: Context<Env>, changes: z.output<typeof updateFlowRequest>['flow']) {
  const { accountId, id } = withId(c);
  assertDisclosedAgents(ctx, accountId, changes.config);
  const flow = reviseFlow(ctx, accountId, id, changes);
  if (!flow) throw noSuchFlow();
  return c.json({ flow });
}

/** The flow API: a flow's terms, drafted, activated and versioned. */
export const flowRoutes = routes((app, ctx) => {
  route(
    app,
    {
      method: 'get',
      path: '/api/v1/flows',
      summary: "List the account's flows",
      tag,
      permission: 'read',
      query: listQuery,
      response: { status: 200, description: 'A page of flows, oldest first', schema: flowList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor } }) => c.json(listFlows(ctx, c.get('principal').accountId, { limit, cursor })),
  );

  route(
    app,
    {
      method: 'post',
      path: '/api/v1/flows',
      summary: 'Create a draft flow',
      tag,
      permission: 'write',
      body: createFlowRequest,
      response: { status: 201, description: 'The draft flow (version 1)', schema: flowEnvelope },
      errors: [400, 422],
    },
    (c, { body: { flow: input } }) => {
      const accountId = c.get('principal').accountId;
      assertDisclosedAgents(ctx, accountId, input.config);
      // Without application_id a flow joins the account's oldest application (the sandbox application in the sandbox).
      const application = input.application_id ? getApplication(ctx, accountId, input.application_id) : defaultApplication(ctx, accountId);
      if (!application) {
        throw unprocessable('flow.application_id names no application of this account.', 'validation_failed', [
          { path: 'flow.application_id', code: 'not_found', message: 'no such application' },
        ]);
      }
      const flow = createFlow(ctx, {
        accountId,
        applicationId: application.id,
        pattern: input.pattern,
        title: input.title,
        description: input.description ?? null,
        config: input.config ?? EMPTY_FLOW_CONFIG,
      });
      return c.json({ flow }, 201);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: '/api/v1/flows/{id}',
      summary: 'Read a flow (its newest version)',
      tag,
      permission: 'read',
      response: { status: 200, description: 'The flow', schema: flowEnvelope },
      errors: [404],
    },
    (c) => {
      const { accountId, id } = withId(c);
      const flow = getFlow(ctx, accountId, id);
      if (!flow) throw noSuchFlow();
      return c.json({ flow });
    },
  );

  route(
    app,
    {
      method: 'patch',
      path: '/api/v1/flows/{id}',
      summary: 'Change a flow: edits a draft in place, publishes a new version of an active flow',
      tag,
      permission: 'write',
      body: updateFlowRequest,
      response: { status: 200, description: 'The flow', schema: flowEnvelope },
      errors: [400, 404, 422],
    },
    (c, { body }) => revise(ctx, c, body.flow),
  );

  route(
    app,
    {
      method: 'post',
      path: '/api/v1/flows/{id}/activate',
      summary: 'Activate a draft flow, freezing its terms',
      tag,
      permission: 'write',
      response: { status: 200, description: 'The active flow', schema: flowEnvelope },
      errors: [404, 422],
    },
    (c) => {
      const { accountId, id } = withId(c);
      const flow = activateFlow(ctx, accountId, id);
      if (!flow) throw noSuchFlow();
      return c.json({ flow });
    },
  );

  route(
    app,
    {
      method: 'post',
      path: '/api/v1/flows/{id}/versions',
      summary: 'Publish a new version of the terms (edits a draft in place)',
      tag,
      permission: 'write',
      body: updateFlowRequest,
      response: { status: 200, description: 'The flow at its new version', schema: flowEnvelope },
      errors: [400, 404, 422],
    },
    (c, { body }) => revise(ctx, c, body.flow),
  );

  route(
    app,
    {
      method: 'get',
      path: '/api/v1/flows/{id}/versions',
      summary: "List a flow's versions",
      tag,
      permission: 'read',
      query: listQuery,
      response: { status: 200, description: 'A page of versions, oldest first', schema: flowVersionList },
      errors: [400, 404],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor } }) => {
      const { accountId, id } = withId(c);
      const page = listFlowVersions(ctx, accountId, id, { limit, cursor });
      if (!page) throw noSuchFlow();
      return c.json(page);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: '/api/v1/flows/{id}/versions/{version}',
      summary: 'Read one version of a flow',
      tag,
      permission: 'read',
      response: { status: 200, description: 'The version', schema: flowVersionEnvelope },
      errors: [404],
    },
    (c) => {
      const { accountId, id } = withId(c);
      const flow = getFlow(ctx, accountId, id);
      const version = c.req.param('version')!;
      const record = flow && /^[1-9]\d{0,8}$/.test(version) ? getFlowVersion(ctx, flow.id, Number(version)) : undefined;
      if (!record) throw notFound('No such flow version.');
      return c.json({ flow_version: toWireVersion(record) });
    },
  );
});
