// The published JSON Schemas besides the receipt's: the browser messages at {schema_url}/schemas/messages/*.json and
// the webhook bodies at {schema_url}/schemas/webhooks/*.json, each served as application/schema+json, byte for byte
// as checked in under schemas/, and each naming as its `$id` the URL it is published at.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../testing.js';
import { SCHEMA_URL } from './published-schemas.js';

const repository = new URL('../../../../../', import.meta.url);

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.dispose());

/** The checked-in documents of a group (`schemas/messages`), by file name. */
const checkedIn = (dir: string) => readdirSync(new URL(`${dir}/`, repository)).filter((file) => file.endsWith('.json'));

for (const group of ['messages', 'webhooks']) {
  describe(`the ${group} JSON Schemas at {schema_url}/schemas/${group}/*.json`, () => {
    it('serves every checked-in document as application/schema+json, byte for byte, its $id the URL it is published at', async () => {
      const files = checkedIn(`schemas/${group}`);
      assert.ok(files.length >= 9, files.join(', '));
      for (const file of files) {
        const path = `/schemas/${group}/${file}`;
        const res = await fetch(`${server.url}${path}`);
        assert.equal(res.status, 200, path);
        assert.equal(res.headers.get('content-type'), 'application/schema+json', path);
        assert.equal(res.headers.get('access-control-allow-origin'), '*', `${path}: any page may read it`);
        const served = Buffer.from(await res.arrayBuffer());
        assert.ok(served.equals(readFileSync(new URL(`schemas/${group}/${file}`, repository))), `${path} is the checked-in file`);
        const doc = JSON.parse(served.toString('utf8')) as { $id: string; $schema: string };
        assert.equal(doc.$id, new URL(path, SCHEMA_URL).href, `${path}: $id`);
        assert.equal(doc.$schema, 'https://json-schema.org/draft/2020-12/schema');
      }
    });

    it('answers 404 {message, code} for a document it does not publish', async () => {
      for (const name of ['nope.json', 'ready', '..%2Freceipt%2Fv2%2Frecord.json', 'event.json.bak']) {
        const res = await fetch(`${server.url}/schemas/${group}/${name}`);
        assert.equal(res.status, 404, name);
        assert.equal(((await res.json()) as { code: string }).code, 'not_found', name);
      }
    });
  });
}

describe('the published schemas in the OpenAPI document', () => {
  it('describes both groups as public operations', async () => {
    const doc = (await (await fetch(`${server.url}/.well-known/openapi`)).json()) as {
      paths: Record<string, Record<string, { security: unknown[] }>>;
    };
    for (const path of ['/schemas/messages/{file}', '/schemas/webhooks/{file}']) {
      assert.deepEqual(doc.paths[path]?.get?.security, [], path);
    }
  });
});
