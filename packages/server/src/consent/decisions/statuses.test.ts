// The spec names nine consent token statuses. Where an answer can carry more (a decision's declined or cancelled, a
// verification's invalid), the OpenAPI document names each addition, so a client switching on the nine is never
// surprised; the deprecated Consent session shape answers the nine and nothing else.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../testing.js';

const NINE = ['pending', 'authenticating', 'verifying', 'reviewing', 'informed', 'evidenced', 'fulfilled', 'expired', 'revoked'];

type Schema = {
  enum?: string[];
  description?: string;
  properties?: Record<string, Schema>;
  anyOf?: Schema[];
  'x-svc-consent-token-statuses'?: string[];
};
type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>> };

describe('consent token statuses in the OpenAPI document', () => {
  let server: TestServer;
  let doc: Doc;
  const answer = (path: string, method: string, status: string) =>
    doc.paths[path]![method]!.responses[status]!.content!['application/json']!.schema;

  before(async () => {
    server = await startTestServer();
    doc = (await (await fetch(`${server.url}/.well-known/openapi`)).json()) as Doc;
  });
  after(() => server.dispose());

  it("a decision's status lists the nine and names every addition (declined, cancelled and the other kinds')", () => {
    const status = answer('/api/v1/decisions/{session_token}', 'get', '200').properties!.decision!.properties!.status!;
    assert.deepEqual(status['x-svc-consent-token-statuses'], NINE);
    for (const value of NINE) assert.ok(status.enum!.includes(value), value);
    const additions = status.enum!.filter((value) => !NINE.includes(value));
    assert.deepEqual(additions.sort(), ['approved', 'cancelled', 'countered', 'declined', 'denied', 'signed']);
    for (const value of additions) assert.match(status.description ?? '', new RegExp(`\\b${value}\\b`), `${value} is documented`);
  });

  it('the deprecated Consent session answers the nine statuses, nothing more', () => {
    const shapes = answer('/api/v1/consent_sessions/{session_token}', 'get', '200').anyOf!;
    const session = shapes.find((s) => s.properties?.consent_session)!.properties!.consent_session!;
    assert.deepEqual(session.properties!.status!.enum, NINE);
    assert.deepEqual(session.properties!.outcome!.anyOf?.find((s) => s.enum)?.enum, ['granted', 'declined', 'cancelled']);
  });

  it("a verification's status is of the nine but for invalid, which is documented", () => {
    const status = answer('/api/v1/consent_tokens/verify', 'post', '200').properties!.status!;
    assert.deepEqual(
      status.enum!.filter((value) => !NINE.includes(value)),
      ['invalid'],
    );
    assert.match(status.description ?? '', /\binvalid\b/);
  });
});
