import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerContext } from '../../infra/context.js';
import { isoNow } from '../../infra/clock.js';
import { hashSecret, newId, newSecret, randomBase62 } from '../../infra/ids.js';

/** What `.svc/sandbox.json` holds: everything a newcomer needs to talk to the sandbox. */
export interface Sandbox {
  /** The first country's cell. */
  base_url: string;
  trust_url: string;
  /** Every country cell by ISO code, the first one included: where a `421 wrong_country` answer sends a client. */
  countries?: Record<string, { base_url: string; trust_url: string }>;
  application_id: string;
  publishable_key: string;
  api_token: string;
  flow_id: string | null;
  /** The informed-consent demo flow (disclosure and comprehension check), when seeded. */
  informed_flow_id?: string | null;
  /** A capturable demo flow (just a decision, a consent duration) for the consent field and the snippet, when seeded. */
  capture_flow_id?: string | null;
  /** The sandbox application's confidential OAuth client (PAR + PKCE S256, every grant), when seeded. */
  oauth_client_id?: string | null;
  /** Its secret: like `api_token`, kept only in `sandbox.json` (the database holds its hash). */
  oauth_client_secret?: string;
  /** Its redirect URI, the playground's callback page. */
  oauth_redirect_uri?: string | null;
  /** The email of the sandbox account's admin in the organisation's console (`/applications`, …), when seeded. */
  console_email?: string;
}

/** The fields of `sandbox.json` that are secrets: never stored in the database in clear. */
const SECRETS = ['api_token', 'oauth_client_secret'] as const;
const withoutSecrets = <T extends Partial<Sandbox>>(sandbox: T): Omit<T, (typeof SECRETS)[number]> => {
  const { api_token: _token, oauth_client_secret: _secret, ...rest } = sandbox;
  return rest;
};

/** The sandbox's account and application, as seeders need them. */
export interface SandboxSeeded {
  accountId: string;
  applicationId: string;
}

/**
 * Extra seeding steps other modules contribute (the demo flows). The function runs once, on first start. Its
 * optional `ensure` runs on every later start, to add what a newer server seeds and an older data directory lacks;
 * it must be idempotent (seed only what is missing) and returns the sandbox fields to set.
 */
export interface SandboxSeeder {
  (ctx: ServerContext, seeded: SandboxSeeded): Partial<Sandbox>;
  ensure?: (ctx: ServerContext, seeded: SandboxSeeded, current: Omit<Sandbox, 'api_token'>) => Partial<Sandbox>;
}

/**
 * Seeds the sandbox on first start (account, development application, publishable key, admin API token, the
 * server's own origin as allowed origin, then each seeder) and writes `sandbox.json` into the data directory.
 * Later starts keep the data, refresh the URLs and the allowed origin (the port may differ) and run each seeder's
 * `ensure`, so a data directory seeded by an older server gains what newer ones seed.
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
                  VALUES (?, ?, 'Sandbox admin', '["read","write","admin"]', ?, ?)`).run(
        newId('api_token_'),
        accountId,
        hashSecret(apiToken),
        now,
      );
      let result: Sandbox = {
        base_url: ctx.baseUrl,
        trust_url: ctx.trustUrl,
        application_id: applicationId,
        publishable_key: publishableKey,
        api_token: apiToken,
        flow_id: null,
      };
      for (const seed of seeders) result = { ...result, ...seed(ctx, { accountId, applicationId }) };
      db.prepare("INSERT INTO settings (key, value) VALUES ('sandbox', ?)").run(JSON.stringify(withoutSecrets(result)));
      return result;
    })();
  } else {
    // The raw API token lives only in sandbox.json (the database keeps its hash); if that file is gone,
    // the sandbox token is replaced and the new value written out.
    const previous = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<Sandbox>) : {};
    const { seeded, secrets } = ensureSeeded(ctx, JSON.parse(stored) as Omit<Sandbox, 'api_token'>, seeders);
    const base = seeded;
    let apiToken = previous.api_token;
    if (!apiToken) {
      apiToken = newSecret();
      db.prepare(
        "UPDATE api_tokens SET token_hash = ? WHERE name = 'Sandbox admin' AND account_id = (SELECT account_id FROM applications WHERE id = ?)",
      ).run(hashSecret(apiToken), base.application_id);
    }
    // A client secret made again by a seeder is the one to write; otherwise the file's stays.
    const clientSecret = secrets.oauth_client_secret ?? previous.oauth_client_secret;
    sandbox = {
      ...base,
      api_token: apiToken,
      ...(clientSecret ? { oauth_client_secret: clientSecret } : {}),
      base_url: ctx.baseUrl,
      trust_url: ctx.trustUrl,
    };
  }

  // Every cell's own origin: a hosted page or playground of one country calls the others.
  const origins = ctx.cells.list().length ? ctx.cells.list().map((cell) => cell.base_url) : [ctx.baseUrl];
  for (const url of origins) {
    db.prepare('INSERT OR IGNORE INTO allowed_origins (application_id, origin, created_at) VALUES (?, ?, ?)').run(
      sandbox.application_id,
      new URL(url).origin,
      now,
    );
  }
  sandbox = {
    ...sandbox,
    countries: Object.fromEntries(ctx.cells.list().map((cell) => [cell.country, { base_url: cell.base_url, trust_url: cell.trust_url }])),
  };
  writeFileSync(file, JSON.stringify(sandbox, null, 2) + '\n', { mode: 0o600 });
  return sandbox;
}

/**
 * Runs every seeder's `ensure` in one transaction and stores the sandbox fields they set, when any changed; the
 * secrets they made come back apart, for `sandbox.json` only.
 */
function ensureSeeded(
  ctx: ServerContext,
  stored: Omit<Sandbox, 'api_token'>,
  seeders: readonly SandboxSeeder[],
): { seeded: Omit<Sandbox, 'api_token'>; secrets: Partial<Sandbox> } {
  const ensurers = seeders.filter((seed) => seed.ensure);
  const secrets: Partial<Sandbox> = {};
  if (!ensurers.length) return { seeded: stored, secrets };
  const { db } = ctx;
  return db.transaction(() => {
    const accountId = db.prepare('SELECT account_id FROM applications WHERE id = ?').pluck().get(stored.application_id) as
      | string
      | undefined;
    if (!accountId) return { seeded: stored, secrets };
    let current = stored;
    for (const seed of ensurers) {
      const fields = seed.ensure!(ctx, { accountId, applicationId: stored.application_id }, current);
      if (fields.oauth_client_secret) secrets.oauth_client_secret = fields.oauth_client_secret;
      current = { ...current, ...withoutSecrets(fields) };
    }
    const text = JSON.stringify(current);
    if (text !== JSON.stringify(stored)) db.prepare("UPDATE settings SET value = ? WHERE key = 'sandbox'").run(text);
    return { seeded: current, secrets };
  })();
}
