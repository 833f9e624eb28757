import {
  createFlowRequest,
  type FlowConfig,
  flowEnvelope,
  flowList,
  flowVersionEnvelope,
  flowVersionList,
  listQuery,
  updateFlowRequest,
} from '@svc/client/schemas';
import type { Context } from 'hono';
import type { RouteModule } from '../../app.js';
import { defaultApplication, getApplication } from '../application-store.js';
import { requires } from '../../infra/auth.js';
import type { Env, ServerContext } from '../../infra/context.js';
import { notFound, unprocessable } from '../../infra/errors.js';
import type { Operation } from '../../infra/operations.js';
import { DEFAULT_LIMIT } from '../../infra/pagination.js';
import { readJson, readQuery } from '../../infra/validate.js';
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
  if (errors.length) throw unprocessable('flow.config.agents names agents that are not agent identities of this account.', 'validation_failed', errors);
}

async function revise(c: Context<Env>, ctx: ServerContext) {
  const { flow: changes } = await readJson(c, updateFlowRequest);
  assertDisclosedAgents(ctx, c.get('principal').accountId, changes.config);
  const flow = reviseFlow(ctx, c.get('principal').accountId, c.req.param('id')!, changes);
  if (!flow) throw noSuchFlow();
  return c.json({ flow });
}

/**
 * `GET|POST /api/v1/flows`, `GET|PATCH /api/v1/flows/{id}`, `POST /api/v1/flows/{id}/activate`,
 * `GET|POST /api/v1/flows/{id}/versions`, `GET /api/v1/flows/{id}/versions/{version}`.
 */
export const flowRoutes: RouteModule = (app, ctx) => {
  app.get('/api/v1/flows', requires('read'), (c) => {
    const { limit = DEFAULT_LIMIT, cursor } = readQuery(c, listQuery);
    return c.json(listFlows(ctx, c.get('principal').accountId, { limit, cursor }));
  });

  app.post('/api/v1/flows', requires('write'), async (c) => {
    const accountId = c.get('principal').accountId;
    const { flow: input } = await readJson(c, createFlowRequest);
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
  });

  app.get('/api/v1/flows/:id', requires('read'), (c) => {
    const flow = getFlow(ctx, c.get('principal').accountId, c.req.param('id'));
    if (!flow) throw noSuchFlow();
    return c.json({ flow });
  });

  app.patch('/api/v1/flows/:id', requires('write'), (c) => revise(c, ctx));

  app.post('/api/v1/flows/:id/activate', requires('write'), (c) => {
    const flow = activateFlow(ctx, c.get('principal').accountId, c.req.param('id'));
    if (!flow) throw noSuchFlow();
    return c.json({ flow });
  });

  app.post('/api/v1/flows/:id/versions', requires('write'), (c) => revise(c, ctx));

  app.get('/api/v1/flows/:id/versions', requires('read'), (c) => {
    const { limit = DEFAULT_LIMIT, cursor } = readQuery(c, listQuery);
    const page = listFlowVersions(ctx, c.get('principal').accountId, c.req.param('id'), { limit, cursor });
    if (!page) throw noSuchFlow();
    return c.json(page);
  });

  app.get('/api/v1/flows/:id/versions/:version', requires('read'), (c) => {
    const flow = getFlow(ctx, c.get('principal').accountId, c.req.param('id'));
    const version = c.req.param('version');
    const record = flow && /^[1-9]\d{0,8}$/.test(version) ? getFlowVersion(ctx, flow.id, Number(version)) : undefined;
    if (!record) throw notFound('No such flow version.');
    return c.json({ flow_version: toWireVersion(record) });
  });
};

const tag = 'Flows';

/** OpenAPI descriptors of the flow routes. */
export const flowOperations: Operation[] = [
  {
    method: 'get', path: '/api/v1/flows', summary: "List the account's flows", tag,
    auth: ['api_token'], permission: 'read', query: listQuery,
    response: { status: 200, description: 'A page of flows, oldest first', schema: flowList }, errors: [400],
  },
  {
    method: 'post', path: '/api/v1/flows', summary: 'Create a draft flow', tag,
    auth: ['api_token'], permission: 'write', body: createFlowRequest,
    response: { status: 201, description: 'The draft flow (version 1)', schema: flowEnvelope }, errors: [400, 422],
  },
  {
    method: 'get', path: '/api/v1/flows/{id}', summary: 'Read a flow (its newest version)', tag,
    auth: ['api_token'], permission: 'read',
    response: { status: 200, description: 'The flow', schema: flowEnvelope }, errors: [404],
  },
  {
    method: 'patch', path: '/api/v1/flows/{id}', summary: 'Change a flow: edits a draft in place, publishes a new version of an active flow', tag,
    auth: ['api_token'], permission: 'write', body: updateFlowRequest,
    response: { status: 200, description: 'The flow', schema: flowEnvelope }, errors: [400, 404, 422],
  },
  {
    method: 'post', path: '/api/v1/flows/{id}/activate', summary: 'Activate a draft flow, freezing its terms', tag,
    auth: ['api_token'], permission: 'write',
    response: { status: 200, description: 'The active flow', schema: flowEnvelope }, errors: [404, 422],
  },
  {
    method: 'post', path: '/api/v1/flows/{id}/versions', summary: 'Publish a new version of the terms (edits a draft in place)', tag,
    auth: ['api_token'], permission: 'write', body: updateFlowRequest,
    response: { status: 200, description: 'The flow at its new version', schema: flowEnvelope }, errors: [400, 404, 422],
  },
  {
    method: 'get', path: '/api/v1/flows/{id}/versions', summary: "List a flow's versions", tag,
    auth: ['api_token'], permission: 'read', query: listQuery,
    response: { status: 200, description: 'A page of versions, oldest first', schema: flowVersionList }, errors: [400, 404],
  },
  {
    method: 'get', path: '/api/v1/flows/{id}/versions/{version}', summary: 'Read one version of a flow', tag,
    auth: ['api_token'], permission: 'read',
    response: { status: 200, description: 'The version', schema: flowVersionEnvelope }, errors: [404],
  },
];
