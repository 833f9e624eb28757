import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerContext } from './lib/context.js';
import { isoNow } from './lib/clock.js';
import { hashSecret, newId, newSecret, randomBase62 } from './lib/ids.js';

/** What `.svc/sandbox.json` holds: everything a newcomer needs to talk to the sandbox. */
export interface Sandbox {
  base_url: string;
  trust_url: string;
  application_id: string;
  publishable_key: string;
  api_token: string;
  flow_id: string | null;
  /** The informed-consent demo flow (disclosure and comprehension check), when seeded. */
  informed_flow_id?: string | null;
}

/** Extra seeding steps other modules contribute (the demo flow); each runs once, on first start. */
export type SandboxSeeder = (ctx: ServerContext, seeded: { accountId: string; applicationId: string }) => Partial<Sandbox>;

/**
 * Seeds the sandbox on first start (account, development application, publishable key, admin API token, the
 * server's own origin as allowed origin, then each seeder) and writes `sandbox.json` into the data directory.
 * Later starts keep the data and refresh the URLs and the allowed origin (the port may differ).
 */
export function ensureSandbox(ctx: ServerContext, seeders: SandboxSeeder[] = []): Sandbox {
  const { db } = ctx;
  const file = join(ctx.dataDir, 'sandbox.json');
  const now = isoNow(ctx.clock);
  const stored = db.prepare("SELECT value FROM settings WHERE key = 'sandbox'").pluck().get() as string | undefined;

  let sandbox: Sandbox;
  if (!stored) {
    sandbox = db.transaction(() => {
      const accountId = newId('acct_');
      const applicationId = newId('tp_dev_');
      const publishableKey = `pk_test_${randomBase62(24)}`;
      const apiToken = newSecret();
      db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)').run(accountId, 'Sandbox', now);
      db.prepare(`INSERT INTO applications (id, account_id, name, environment, created_at, updated_at)
                  VALUES (?, ?, 'Sandbox application', 'development', ?, ?)`).run(applicationId, accountId, now, now);
      db.prepare('INSERT INTO publishable_keys (key, application_id, created_at) VALUES (?, ?, ?)').run(publishableKey, applicationId, now);
      db.prepare(`INSERT INTO api_tokens (id, account_id, name, permissions, token_hash, created_at)
                  VALUES (?, ?, 'Sandbox admin', '["read","write","admin"]', ?, ?)`).run(newId('api_token_'), accountId, hashSecret(apiToken), now);
      let result: Sandbox = {
        base_url: ctx.baseUrl,
        trust_url: ctx.trustUrl,
        application_id: applicationId,
        publishable_key: publishableKey,
        api_token: apiToken,
        flow_id: null,
      };
      for (const seed of seeders) result = { ...result, ...seed(ctx, { accountId, applicationId }) };
      const { api_token: _secret, ...withoutSecret } = result;
      db.prepare("INSERT INTO settings (key, value) VALUES ('sandbox', ?)").run(JSON.stringify(withoutSecret));
      return result;
    })();
  } else {
    // The raw API token lives only in sandbox.json (the database keeps its hash); if that file is gone,
    // the sandbox token is replaced and the new value written out.
    const previous = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<Sandbox>) : {};
    const base = JSON.parse(stored) as Omit<Sandbox, 'api_token'>;
    let apiToken = previous.api_token;
    if (!apiToken) {
      apiToken = newSecret();
      db.prepare("UPDATE api_tokens SET token_hash = ? WHERE name = 'Sandbox admin' AND account_id = (SELECT account_id FROM applications WHERE id = ?)")
        .run(hashSecret(apiToken), base.application_id);
    }
    sandbox = { ...base, api_token: apiToken, base_url: ctx.baseUrl, trust_url: ctx.trustUrl };
  }

  db.prepare('INSERT OR IGNORE INTO allowed_origins (application_id, origin, created_at) VALUES (?, ?, ?)')
    .run(sandbox.application_id, new URL(ctx.baseUrl).origin, now);
  writeFileSync(file, JSON.stringify(sandbox, null, 2) + '\n', { mode: 0o600 });
  return sandbox;
}
