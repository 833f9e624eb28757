// The `svc policies …`, `svc data-requests …`, `svc data-licenses …`, `svc data-offers …` and `svc portability …`
// commands, run in this process (run()) against a reference server: a person signed in (a stored sign-in) for what is
// theirs, the API token for the organisation; usage errors exit 2 before anything is sent, refusals exit 1.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { DataLicense, DataOffer, DataRequest, Policy, PolicyTemplate, PortabilityTransfer } from '@svc/schemas';
import { runSvc, storeSignIn } from '../testing/cli.test.helper.js';
import { signAsParty } from '../testing/participant.test.helper.js';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';
import { EXIT } from './run.js';

describe('svc protect commands against the reference server', () => {
  let server: TestServer;
  let home: string;
  let admin: Record<string, string>;

  function svc(argv: string[], env: Record<string, string> = {}) {
    return runSvc(argv, { SVC_BASE_URL: server.url, XDG_CONFIG_HOME: home, ...env }, home);
  }
  const json = async <T>(argv: string[], env: Record<string, string> = {}): Promise<T> => {
    const result = await svc([...argv, '--json'], env);
    assert.equal(result.code, EXIT.ok, result.stderr);
    return JSON.parse(result.stdout) as T;
  };

  before(async () => {
    server = await startTestServer();
    admin = { SVC_API_TOKEN: server.sandbox.api_token };
    home = mkdtempSync(join(tmpdir(), 'svc-protect-'));
    await storeSignIn(server, home, 'ada@example.com');
  });
  after(async () => {
    rmSync(home, { recursive: true, force: true });
    await server.dispose();
  });

  it('lists the templates and makes, lists and revokes policies', async () => {
    const templates = await json<PolicyTemplate[]>(['policies', 'templates']);
    assert.equal(templates.length, 6);
    const human = await svc(['policies', 'templates']);
    assert.match(human.stdout, /^retention\s+no\s+data_categories, retention_days, action/m);
    const mine = await json<Policy>([
      'policies',
      'create',
      '--template',
      'retention',
      '--config',
      '{"data_categories":["orders"],"retention_days":30}',
    ]);
    assert.deepEqual([mine.owner_type, mine.config.action], ['person', 'delete']);
    const theirs = await json<Policy>(
      ['policies', 'create', '--template', 'broadcast', '--title', 'Open data', '--config', '{"data_categories":["x"]}'],
      admin,
    );
    assert.equal(theirs.owner_type, 'account');
    assert.deepEqual(
      (await json<Policy[]>(['policies', 'list'])).map((p) => p.id),
      [mine.id],
    );
    assert.equal((await json<Policy[]>(['policies', 'list', '--owner', 'account'], admin)).length, 1);
    const shown = await svc(['policies', 'get', mine.id]);
    assert.match(shown.stdout, /^template\s+retention v1$/m);
    assert.equal((await json<Policy>(['policies', 'revoke', mine.id])).status, 'revoked');

    const usage = await svc(['policies', 'create', '--template', 'nope']);
    assert.equal(usage.code, EXIT.usage);
    assert.match(usage.stderr, /--template is one of/);
    const badJson = await svc(['policies', 'create', '--template', 'retention', '--config', '{oops']);
    assert.equal(badJson.code, EXIT.usage);
    const refused = await svc(['policies', 'create', '--template', 'retention', '--config', '{}']);
    assert.equal(refused.code, EXIT.api);
    assert.match(refused.stderr, /config/);
  });

  it('files a data request as the person and processes it with the API token', async () => {
    const request = await json<DataRequest>([
      'data-requests',
      'create',
      '--type',
      'access',
      '--scope',
      '["orders"]',
      '--app',
      server.sandbox.application_id,
    ]);
    assert.deepEqual([request.status, request.scope, request.application_id], ['received', ['orders'], server.sandbox.application_id]);
    const started = await svc(['data-requests', 'start', request.id]);
    assert.equal(started.code, EXIT.api, 'a person does not process requests');
    await json(['data-requests', 'start', request.id], admin);
    const extended = await json<DataRequest>(['data-requests', 'extend', request.id, '--reason', 'Backups', '--days', '14'], admin);
    assert.equal(extended.extended, true);
    const done = await json<DataRequest>(['data-requests', 'complete', request.id, '--note', 'Sent by email'], admin);
    assert.equal(done.export?.person.email, 'ada@example.com');
    const shown = await svc(['data-requests', 'get', request.id]);
    assert.match(shown.stdout, /^status\s+completed$/m);
    const late = await svc(['data-requests', 'reject', request.id, '--reason', 'x'], admin);
    assert.equal(late.code, EXIT.api);
    assert.equal((await svc(['data-requests', 'extend', request.id], admin)).code, EXIT.usage);
    assert.equal((await svc(['data-requests', 'create', '--type', 'objection'])).code, EXIT.usage);
    assert.equal((await json<DataRequest[]>(['data-requests', 'list', '--status', 'completed'], admin)).length, 1);
  });

  it('negotiates a data offer between the person and the organisation', async () => {
    const policy = await json<Policy>(['policies', 'create', '--template', 'data_offer', '--config', '{"data_categories":["steps"]}']);
    const draft = await json<DataOffer>([
      'data-offers',
      'create',
      '--policy',
      policy.id,
      '--terms',
      '{"price":900}',
      '--app',
      server.sandbox.application_id,
    ]);
    await json(['data-offers', 'offer', draft.id]);
    await json(['data-offers', 'counter', draft.id, '--terms', '{"price":700}', '--message', 'Lower?'], admin);
    await json(['data-offers', 'revise', draft.id, '--terms', '{"price":800}']);
    const accepted = await json<DataOffer>(['data-offers', 'accept', draft.id], admin);
    assert.deepEqual([accepted.status, accepted.terms], ['accepted', { price: 800 }]);
    const shown = await svc(['data-offers', 'get', draft.id]);
    assert.match(
      shown.stdout,
      /^rounds\s+1\. offer by person; 2\. counter by organisation; 3\. revise by person; 4\. accept by organisation$/m,
    );
    const again = await svc(['data-offers', 'decline', draft.id]);
    assert.equal(again.code, EXIT.api);
    assert.match(again.stderr, /cannot go from accepted to declined/);
    assert.equal((await svc(['data-offers', 'counter', draft.id], admin)).code, EXIT.usage);
  });

  it('licenses data under an active agreement and counts its accesses', async () => {
    const text = 'Licensed.\n';
    const created = await server.api('/api/v1/agreements', {
      method: 'POST',
      json: {
        agreement: {
          title: 'L',
          document: { text, sha256: createHash('sha256').update(text).digest('hex') },
          quorum: 1,
          parties: [{ email: 'lena@example.com', home_country: 'US' }],
        },
      },
    });
    const { agreement } = (await created.json()) as { agreement: { id: string; party_details: { session_token: string }[] } };
    await signAsParty(server.url, agreement.party_details[0]!.session_token, 'Lena');

    const license = await json<DataLicense>(
      ['data-licenses', 'create', '--agreement', agreement.id, '--max-accesses', '1', '--terms', '{"purpose":"research"}'],
      admin,
    );
    const access = await svc(['data-licenses', 'access', license.id, '--purpose', 'report'], admin);
    assert.equal(access.code, EXIT.ok, access.stderr);
    assert.match(access.stdout, /^remaining\s+0$/m);
    const refused = await svc(['data-licenses', 'access', license.id], admin);
    assert.equal(refused.code, EXIT.api);
    assert.match(refused.stderr, /allowed 1 accesses/);
    assert.match((await svc(['data-licenses', 'get', license.id], admin)).stdout, /^accesses\s+1 of 1 \(0 left\)$/m);
    assert.equal((await json<unknown[]>(['data-licenses', 'accesses', license.id], admin)).length, 1);
    assert.equal((await svc(['data-licenses', 'list'])).code, EXIT.api, "a person's token cannot list licenses");
  });

  it('moves a portability transfer with the digest of a package file, refusing another', async () => {
    const policy = await json<Policy>(['policies', 'create', '--template', 'portability', '--config', '{"data_categories":["orders"]}']);
    const destination = (await (
      await server.api('/api/v1/applications', { method: 'POST', json: { application: { name: 'New shop' } } })
    ).json()) as { application: { id: string } };
    const transfer = await json<PortabilityTransfer>([
      'portability',
      'create',
      '--policy',
      policy.id,
      '--from',
      server.sandbox.application_id,
      '--to',
      destination.application.id,
    ]);
    const sent = join(home, 'package.json');
    writeFileSync(sent, '{"orders":[1,2,3]}');
    const ready = await json<PortabilityTransfer>(['portability', 'ready', transfer.id, '--file', sent], admin);
    assert.equal(ready.data_hash, `sha256:${createHash('sha256').update('{"orders":[1,2,3]}').digest('hex')}`);
    const received = join(home, 'received.json');
    writeFileSync(received, '{"orders":[1,2]}');
    const mismatch = await svc(['portability', 'confirm', transfer.id, '--file', received], admin);
    assert.equal(mismatch.code, EXIT.api);
    assert.match(mismatch.stderr, /not the digest the source declared/);
    const confirmed = await json<PortabilityTransfer>(['portability', 'confirm', transfer.id, '--file', sent], admin);
    assert.deepEqual([confirmed.status, confirmed.mismatch_count], ['confirmed', 1]);
    assert.equal((await svc(['portability', 'confirm', transfer.id], admin)).code, EXIT.usage);
  });

  it('shows the Protect group in svc --help', async () => {
    const help = await svc(['--help']);
    assert.match(help.stdout, /^ {2}Protect\s+policies {2}data-requests {2}data-licenses {2}data-offers {2}portability$/m);
    const topic = await svc(['data-offers', '--help']);
    assert.match(topic.stdout, /data-offers accept <offer_id>/);
  });
});
