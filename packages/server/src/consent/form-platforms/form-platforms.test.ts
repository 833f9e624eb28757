// Form platform connections and the Typeform-compatible signed webhook against a running server: mappings refused
// at mapping time (Errors rule 4), signatures, replays, secret rotation on the test clock, and the records made.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { FormConnection } from '@svc/schemas';
import { startTestServer, type TestServer } from '../../testing.js';
import { createActiveFlow, expectError, recordCount } from '../captures/test-support.js';

const fields = [
  { id: 'f_email', ref: 'email', type: 'email', title: 'Your email', required: true },
  { id: 'f_news', ref: 'newsletter', type: 'yes_no', title: 'Send me the newsletter?' },
  {
    id: 'f_partners',
    ref: 'partners',
    type: 'multiple_choice',
    title: 'Offers from partners?',
    choices: [
      { id: 'c_yes', ref: 'yes', label: 'Yes please' },
      { id: 'c_no', ref: 'no', label: 'No thanks' },
    ],
  },
  { id: 'f_analytics', ref: 'analytics', type: 'legal', title: 'Product analytics (you may object)' },
  { id: 'f_rating', ref: 'rating', type: 'rating', title: 'How do you like us?' },
  { id: 'f_age', ref: 'age', type: 'number', title: 'Age' },
  { id: 'f_comment', ref: 'comment', type: 'long_text', title: 'Anything else?' },
  { id: 'f_terms', ref: 'terms', type: 'yes_no', title: 'I agree', required: true },
];

const mapping = {
  name: 'Signup on Typeform',
  form_id: 'TFORM1',
  fields,
  subject: { email: { field: 'email' }, external_id: { hidden: 'customer_id' } },
  purposes: {
    newsletter: { field: 'newsletter' },
    partners: { field: 'partners', yes_choice: 'Yes please' },
    analytics: { field: 'f_analytics' },
  },
};

/** A Typeform webhook body. */
function submission(
  token: string,
  answers: object[],
  extra: { form_id?: string; hidden?: Record<string, string>; submitted_at?: string } = {},
) {
  return {
    event_id: `ev_${token}`,
    event_type: 'form_response',
    form_response: {
      form_id: extra.form_id ?? 'TFORM1',
      token,
      landed_at: '2026-01-10T10:00:00Z',
      submitted_at: extra.submitted_at ?? '2026-01-10T10:01:00Z',
      hidden: extra.hidden ?? { customer_id: 'cust-7' },
      definition: {
        id: extra.form_id ?? 'TFORM1',
        title: 'Signup',
        fields: fields.map(({ id, ref, type, title }) => ({ id, ref, type, title })),
      },
      answers,
    },
  };
}

const answer = {
  email: (email: string) => ({ type: 'email', email, field: { id: 'f_email', type: 'email', ref: 'email' } }),
  news: (value: boolean) => ({ type: 'boolean', boolean: value, field: { id: 'f_news', type: 'yes_no', ref: 'newsletter' } }),
  partners: (label: string) => ({
    type: 'choice',
    choice: { label },
    field: { id: 'f_partners', type: 'multiple_choice', ref: 'partners' },
  }),
  analytics: (value: boolean) => ({ type: 'boolean', boolean: value, field: { id: 'f_analytics', type: 'legal', ref: 'analytics' } }),
};

const sign = (secret: string, raw: string) => `sha256=${createHmac('sha256', secret).update(raw).digest('base64')}`;

describe('form platform connections', () => {
  let server: TestServer;
  let flowId: string;
  const base = () => `/api/v1/applications/${server.sandbox.application_id}/form_connections`;

  before(async () => {
    server = await startTestServer();
    flowId = await createActiveFlow(server);
  });
  after(() => server.dispose());

  async function connect(overrides: Record<string, unknown> = {}): Promise<FormConnection & { secret: string }> {
    const res = await server.api(base(), { method: 'POST', json: { form_connection: { ...mapping, flow_id: flowId, ...overrides } } });
    const json = (await res.json()) as { form_connection: FormConnection & { secret: string } };
    assert.equal(res.status, 201, JSON.stringify(json));
    return json.form_connection;
  }

  function post(connection: { id: string }, payload: unknown, signature: string | null): Promise<Response> {
    const raw = typeof payload === 'string' ? payload : JSON.stringify(payload);
    return fetch(`${server.url}/hooks/forms/${connection.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(signature ? { 'typeform-signature': signature } : {}) },
      body: raw,
    });
  }

  /** Posts a signed submission; returns the answer. */
  async function deliver(connection: { id: string; secret: string }, payload: unknown): Promise<Response> {
    const raw = JSON.stringify(payload);
    return post(connection, raw, sign(connection.secret, raw));
  }

  describe('the connection resource', () => {
    it('creates a connection and shows its signing secret once', async () => {
      const created = await connect();
      assert.match(created.id, /^fcn_/);
      assert.match(created.secret, /^fcsec_[A-Za-z0-9]{43}$/);
      assert.equal(created.webhook_url, `${server.url}/hooks/forms/${created.id}`);
      assert.equal(created.platform, 'typeform');
      assert.equal(created.flow_id, flowId);
      assert.equal(created.fields.find((f) => f.id === 'f_news')?.required, false, 'required defaults to false');
      const read = (await (await server.api(`${base()}/${created.id}`)).json()) as { form_connection: FormConnection };
      assert.equal(read.form_connection.secret, undefined);
      assert.deepEqual(read.form_connection.purposes, created.purposes);
      const list = (await (await server.api(base())).json()) as { form_connections: FormConnection[]; next_cursor: string | null };
      assert.ok(list.form_connections.some((c) => c.id === created.id));
      assert.ok(list.form_connections.every((c) => c.secret === undefined));
      const stored = server.context.db.prepare('SELECT secret_enc FROM form_connections WHERE id = ?').pluck().get(created.id) as string;
      assert.equal(stored.includes(created.secret), false, 'the secret is stored sealed');
    });

    it('deletes a connection: reads and its hook answer 404', async () => {
      const created = await connect();
      assert.equal((await server.api(`${base()}/${created.id}`, { method: 'DELETE' })).status, 204);
      assert.equal((await server.api(`${base()}/${created.id}`)).status, 404);
      assert.equal((await deliver(created, submission('gone', [answer.email('a@example.com')]))).status, 404);
      assert.equal((await server.api(`${base()}/${created.id}`, { method: 'DELETE' })).status, 404);
    });

    it('answers 404 for an unknown application or connection, 403 for a read token writing', async () => {
      assert.equal((await server.api('/api/v1/applications/tp_dev_nope/form_connections')).status, 404);
      assert.equal((await server.api(`${base()}/fcn_nope`)).status, 404);
      const created = await server.api('/api/v1/api_tokens', {
        method: 'POST',
        json: { api_token: { name: 'reader', permissions: ['read'] } },
      });
      const reader = ((await created.json()) as { api_token: { token: string } }).api_token.token;
      const res = await server.api(base(), {
        method: 'POST',
        headers: { authorization: `Bearer ${reader}` },
        json: { form_connection: { ...mapping, flow_id: flowId } },
      });
      assert.equal(res.status, 403);
    });

    it('refuses a flow that is a draft, not capturable, or unknown', async () => {
      await expectError(
        await server.api(base(), { method: 'POST', json: { form_connection: { ...mapping, flow_id: server.sandbox.flow_id } } }),
        422,
        'flow_not_capturable',
      );
      await expectError(
        await server.api(base(), { method: 'POST', json: { form_connection: { ...mapping, flow_id: 'flw_dev_nope' } } }),
        404,
        'flow_not_found',
      );
    });
  });

  describe('mappings refused at mapping time (Errors rule 4)', () => {
    async function refused(overrides: Record<string, unknown>): Promise<string[]> {
      const res = await server.api(base(), { method: 'POST', json: { form_connection: { ...mapping, flow_id: flowId, ...overrides } } });
      const json = await expectError(res, 422, 'mapping_refused');
      return (json.errors ?? []).map((e) => `${e.path}:${e.code}`);
    }

    it('a consent purpose bound to a required field', async () => {
      assert.deepEqual(await refused({ purposes: { ...mapping.purposes, newsletter: { field: 'terms' } } }), [
        'form_connection.purposes.newsletter.field:consent_field_required',
      ]);
    });

    it('a decision bound to a rating, number or free-text field', async () => {
      assert.deepEqual(await refused({ purposes: { ...mapping.purposes, newsletter: { field: 'rating' } } }), [
        'form_connection.purposes.newsletter.field:field_cannot_carry_decision',
      ]);
      assert.deepEqual(await refused({ purposes: { ...mapping.purposes, newsletter: { field: 'age' } } }), [
        'form_connection.purposes.newsletter.field:field_cannot_carry_decision',
      ]);
      assert.deepEqual(await refused({ purposes: { ...mapping.purposes, analytics: { field: 'comment' } } }), [
        'form_connection.purposes.analytics.field:field_cannot_carry_decision',
      ]);
    });

    it('a choice field without the choice that means yes', async () => {
      assert.deepEqual(await refused({ purposes: { ...mapping.purposes, partners: { field: 'partners' } } }), [
        'form_connection.purposes.partners.yes_choice:yes_choice_missing',
      ]);
      assert.deepEqual(await refused({ purposes: { ...mapping.purposes, partners: { field: 'partners', yes_choice: 'Sure' } } }), [
        'form_connection.purposes.partners.yes_choice:yes_choice_missing',
      ]);
      const noChoices = fields.map((f) => (f.id === 'f_partners' ? { id: f.id, ref: f.ref, type: f.type } : f));
      assert.deepEqual(await refused({ fields: noChoices }), ['form_connection.purposes.partners.yes_choice:yes_choice_missing']);
    });

    it('accepts the yes choice by label, ref or id', async () => {
      for (const yes of ['Yes please', 'yes', 'c_yes'])
        await connect({ purposes: { ...mapping.purposes, partners: { field: 'partners', yes_choice: yes } } });
    });

    it('a purpose the flow does not have, a consent purpose left unmapped, a notice-only purpose bound', async () => {
      assert.deepEqual(await refused({ purposes: { ...mapping.purposes, lottery: { field: 'newsletter' } } }), [
        'form_connection.purposes.lottery:unknown_purpose',
      ]);
      const { partners: _p, ...withoutPartners } = mapping.purposes;
      assert.deepEqual(await refused({ purposes: withoutPartners }), ['form_connection.purposes.partners:purpose_missing']);
      assert.deepEqual(await refused({ purposes: { ...mapping.purposes, service: { field: 'terms' } } }), [
        'form_connection.purposes.service:notice_only_purpose',
      ]);
    });

    it('a field the form does not have, an email from a field that is no email field, duplicate field ids', async () => {
      assert.deepEqual(await refused({ purposes: { ...mapping.purposes, newsletter: { field: 'nope' } } }), [
        'form_connection.purposes.newsletter.field:unknown_field',
      ]);
      assert.deepEqual(await refused({ subject: { email: { field: 'comment' } } }), [
        'form_connection.subject.email.field:field_cannot_carry_email',
      ]);
      assert.deepEqual(await refused({ fields: [...fields, fields[0]] }), [
        'form_connection.fields.8.id:duplicate_field',
        'form_connection.fields.8.ref:duplicate_field',
      ]);
    });

    it('a yes choice on a yes/no field', async () => {
      assert.deepEqual(await refused({ purposes: { ...mapping.purposes, newsletter: { field: 'newsletter', yes_choice: 'Yes' } } }), [
        'form_connection.purposes.newsletter.yes_choice:yes_choice_not_applicable',
      ]);
    });

    it('names every problem at once', async () => {
      const errors = await refused({
        purposes: { newsletter: { field: 'terms' }, partners: { field: 'rating' }, analytics: { field: 'partners' } },
      });
      assert.deepEqual(errors, [
        'form_connection.purposes.newsletter.field:consent_field_required',
        'form_connection.purposes.partners.field:field_cannot_carry_decision',
        'form_connection.purposes.analytics.yes_choice:yes_choice_missing',
      ]);
    });

    it('refuses malformed field definitions as validation errors', async () => {
      const res = await server.api(base(), {
        method: 'POST',
        json: { form_connection: { ...mapping, flow_id: flowId, fields: [{ id: 'x', type: 'hologram' }] } },
      });
      await expectError(res, 422, 'validation_failed');
      const both = await server.api(base(), {
        method: 'POST',
        json: { form_connection: { ...mapping, flow_id: flowId, subject: { email: { field: 'email', hidden: 'e' } } } },
      });
      await expectError(both, 422, 'validation_failed');
    });
  });

  describe('POST /hooks/forms/{connection_id}', () => {
    let connection: FormConnection & { secret: string };
    before(async () => {
      connection = await connect();
    });

    it('records a signed submission (channel form_platform_webhook) with each answer read through the mapping', async () => {
      const res = await deliver(
        connection,
        submission('tok-1', [answer.email('Ada@Example.com'), answer.news(true), answer.partners('No thanks'), answer.analytics(false)]),
      );
      const json = (await res.json()) as { status: string; record_id: string };
      assert.equal(res.status, 200, JSON.stringify(json));
      assert.equal(json.status, 'recorded');
      const record = (await (await server.api(`/api/v1/consent_records/${json.record_id}`)).json()) as {
        consent_record: {
          channel: string;
          captured_at: string;
          subject: { email: string; external_id: string | null };
          purposes: { key: string; outcome: string }[];
        };
      };
      assert.equal(record.consent_record.channel, 'form_platform_webhook');
      assert.deepEqual(record.consent_record.subject, { email: 'ada@example.com', external_id: 'cust-7' });
      assert.equal(record.consent_record.captured_at, '2026-01-10T10:01:00.000Z');
      assert.deepEqual(Object.fromEntries(record.consent_record.purposes.map((p) => [p.key, p.outcome])), {
        newsletter: 'granted',
        partners: 'declined',
        analytics: 'objected',
        service: 'noticed',
      });
      const receipt = JSON.parse(
        server.context.db.prepare('SELECT receipt FROM consent_records WHERE id = ?').pluck().get(json.record_id) as string,
      ) as { extensions: Record<string, unknown> };
      assert.equal(receipt.extensions.collection_channel, 'form_platform_webhook');
      assert.equal(receipt.extensions.collection_platform, 'typeform');
    });

    it('reads the yes choice, an unanswered consent question as a decline and an unanswered objection as none', async () => {
      const res = await deliver(connection, submission('tok-2', [answer.email('bo@example.com'), answer.partners('Yes please')]));
      const { record_id } = (await res.json()) as { record_id: string };
      const purposes = JSON.parse(
        server.context.db.prepare('SELECT purposes FROM consent_records WHERE id = ?').pluck().get(record_id) as string,
      ) as { key: string; outcome: string }[];
      assert.deepEqual(Object.fromEntries(purposes.map((p) => [p.key, p.outcome])), {
        newsletter: 'declined',
        partners: 'granted',
        analytics: 'noticed',
        service: 'noticed',
      });
    });

    it('takes a multiple-selection answer (choices)', async () => {
      const multi = await connect({
        fields: fields.map((f) => (f.id === 'f_partners' ? { ...f, allow_multiple_selection: true } : f)),
      });
      const res = await deliver(
        multi,
        submission('tok-m', [
          answer.email('m@example.com'),
          {
            type: 'choices',
            choices: { labels: ['Yes please'], refs: ['yes'] },
            field: { id: 'f_partners', type: 'multiple_choice', ref: 'partners' },
          },
        ]),
      );
      const { record_id } = (await res.json()) as { record_id: string };
      const purposes = JSON.parse(
        server.context.db.prepare('SELECT purposes FROM consent_records WHERE id = ?').pluck().get(record_id) as string,
      ) as { key: string; outcome: string }[];
      assert.equal(purposes.find((p) => p.key === 'partners')?.outcome, 'granted');
    });

    it('answers a replayed submission (same form_response.token) 200 without a second record', async () => {
      const payload = submission('tok-replay', [answer.email('r@example.com'), answer.news(true)]);
      const first = (await (await deliver(connection, payload)).json()) as { status: string; record_id: string };
      const count = recordCount(server);
      const again = await deliver(connection, payload);
      assert.equal(again.status, 200);
      const second = (await again.json()) as { status: string; record_id: string };
      assert.deepEqual(second, { status: 'duplicate', record_id: first.record_id });
      assert.equal(recordCount(server), count);
    });

    it('refuses a bad, missing or foreign signature (401) and records nothing', async () => {
      const count = recordCount(server);
      const raw = JSON.stringify(submission('tok-bad', [answer.email('x@example.com')]));
      await expectError(await post(connection, raw, sign('not-the-secret', raw)), 401, 'invalid_signature');
      const unsigned = await post(connection, raw, null);
      assert.match(unsigned.headers.get('www-authenticate') ?? '', /^Signature realm="svc"/, 'a 401 names its scheme (RFC 9110 §15.5.2)');
      await expectError(unsigned, 401, 'invalid_signature');
      await expectError(await post(connection, raw, sign(connection.secret, raw).replace('sha256=', 'sha1=')), 401, 'invalid_signature');
      await expectError(await post(connection, raw, 'sha256=AAAA'), 401, 'invalid_signature');
      // Signed over other bytes than were sent (a re-serialised body).
      await expectError(await post(connection, raw.replace('{', '{ '), sign(connection.secret, raw)), 401, 'invalid_signature');
      const other = await connect();
      await expectError(await post(connection, raw, sign(other.secret, raw)), 401, 'invalid_signature');
      assert.equal(recordCount(server), count);
    });

    it('honours the previous secret for one day after a rotation (server clock), the new one at once', async () => {
      const rotating = await connect();
      const rotated = await server.api(`${base()}/${rotating.id}/rotate_secret`, { method: 'POST' });
      const { form_connection } = (await rotated.json()) as { form_connection: FormConnection & { secret: string } };
      assert.equal(rotated.status, 200);
      assert.notEqual(form_connection.secret, rotating.secret);
      assert.ok(form_connection.previous_secret_expires_at);
      assert.equal((await deliver(rotating, submission('rot-1', [answer.email('o@example.com')]))).status, 200, 'old secret, same day');
      assert.equal(
        (await deliver({ id: rotating.id, secret: form_connection.secret }, submission('rot-2', [answer.email('n@example.com')]))).status,
        200,
      );
      server.advance(24 * 3600 - 30);
      assert.equal(
        (await deliver(rotating, submission('rot-3', [answer.email('o@example.com')]))).status,
        200,
        'old secret, just within the day',
      );
      server.advance(31);
      await expectError(await deliver(rotating, submission('rot-4', [answer.email('o@example.com')])), 401, 'invalid_signature');
      assert.equal(
        (await deliver({ id: rotating.id, secret: form_connection.secret }, submission('rot-5', [answer.email('n@example.com')]))).status,
        200,
      );
      const read = (await (await server.api(`${base()}/${rotating.id}`)).json()) as { form_connection: FormConnection };
      assert.equal(read.form_connection.previous_secret_expires_at, null);
    });

    it("refuses a submission without the person's email (422) and logs it for the owner", async () => {
      await expectError(await deliver(connection, submission('tok-noemail', [answer.news(true)])), 422, 'subject_email_missing');
      const activity = (await (
        await server.api(`/api/v1/applications/${server.sandbox.application_id}/activity?type=form_connection.submission_refused`)
      ).json()) as { activity_events: { data: Record<string, unknown> }[] };
      assert.ok(activity.activity_events.some((e) => e.data.connection_id === connection.id && e.data.code === 'subject_email_missing'));
    });

    it('refuses another form (422 form_mismatch) and another event type', async () => {
      await expectError(
        await deliver(connection, submission('tok-f', [answer.email('f@example.com')], { form_id: 'OTHER' })),
        422,
        'form_mismatch',
      );
      await expectError(
        await deliver(connection, { ...submission('tok-e', []), event_type: 'form_deleted' }),
        422,
        'unsupported_event_type',
      );
    });

    it('refuses an answer whose field changed type since the mapping (422 mapping_outdated)', async () => {
      const changed = { type: 'number', number: 3, field: { id: 'f_news', type: 'rating', ref: 'newsletter' } };
      await expectError(await deliver(connection, submission('tok-c', [answer.email('c@example.com'), changed])), 422, 'mapping_outdated');
    });

    it('refuses malformed JSON (400) and a malformed payload (422), signed', async () => {
      const raw = '{"event_type":';
      await expectError(await post(connection, raw, sign(connection.secret, raw)), 400, 'malformed_json');
      await expectError(await deliver(connection, { event_type: 'form_response' }), 422, 'validation_failed');
    });

    it('takes a submission dated in the future as received now', async () => {
      const res = await deliver(
        connection,
        submission('tok-future', [answer.email('t@example.com')], { submitted_at: '2999-01-01T00:00:00Z' }),
      );
      const { record_id } = (await res.json()) as { record_id: string };
      const capturedAt = server.context.db.prepare('SELECT captured_at FROM consent_records WHERE id = ?').pluck().get(record_id) as string;
      assert.ok(Date.parse(capturedAt) <= server.context.clock.now());
    });
  });
});
