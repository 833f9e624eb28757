import type { Db } from './db.js';
import type { Clock, TestClock } from './clock.js';
import type { SigningKeys } from './keys.js';
import type { DomainEvents } from './events.js';
import type { Metrics } from './metrics.js';
import type { CellDirectory } from './cells/directory.js';
import type { RateLimits } from './limits/policies.js';

/** Everything a route module needs, made once per server. */
export interface ServerContext {
  /** The cell's own database, with the control database attached (see `cells/control-plane.ts`). */
  db: Db;
  clock: Clock;
  /** Present when the test clock is enabled (`SVC_TEST_CLOCK=1` or `startServer({clock})`). */
  testClock?: TestClock;
  keys: SigningKeys;
  metrics: Metrics;
  /** In-process bus for domain events (decisions, records) that webhooks and the audit trail consume. */
  events: DomainEvents;
  dataDir: string;
  /**
   * Where the control plane lives: its database (`control.sqlite`, attached to `db` as `control`) and its secrets (the
   * at-rest key sealing webhook and form-connection secrets, which every cell must open). The first cell's data directory.
   */
  controlDataDir: string;
  /** The home country this cell serves (ISO 3166-1 alpha-2, upper case): its personal data lives here only. */
  country: string;
  /** Every cell of the deployment, this one included (their URLs and published keys). */
  cells: CellDirectory;
  /** The server's own URL, e.g. `http://127.0.0.1:4010` (known once it listens). */
  baseUrl: string;
  /** Where hosted decision pages live; the same server as `baseUrl` in the reference server. */
  trustUrl: string;
  /**
   * The uniform integers in [0, max) that clean-room noise is drawn from. Unset, node:crypto's CSPRNG; tests set a
   * seeded source so that what they assert on noisy counts is reproducible.
   */
  noiseSource?: (max: number) => number;
  /** The request limits (`infra/limits`), shared by the server's cells; absent when they are off. */
  rateLimits?: RateLimits;
}

/**
 * A permission an API token can hold: `read` ⊂ `write` ⊂ `admin`, and the two OAuth scopes an API token may hold
 * as permissions (`audit:verify` reads authorization receipts, `disclosures:write` records agent disclosures), both
 * covered by `admin`.
 */
export type Permission = 'read' | 'write' | 'admin' | 'audit:verify' | 'disclosures:write';

/** Who is calling, resolved from the request's credential. */
export type Principal =
  | {
      kind: 'api_token';
      accountId: string;
      tokenId: string;
      permissions: Permission[];
      /** Set for a console token: the account user of the organisation's console it acts for (the audit's actor). */
      accountUser?: { id: string; userId: string };
      /** The token's own `rate_limit`, read with the token, when the organisation set one. */
      rateLimit?: { requests: number; windowSeconds: number };
    }
  | {
      /** A person signed in to the service, through an OAuth client of one of the account's applications. */
      kind: 'person';
      accountId: string;
      personId: string;
      clientId: string;
      scopes: string[];
      /**
       * Set when a delegate calls with `X-Delegation-Grant-Id`: `personId` is then the principal whose context the
       * call acts in, `delegateId` the person calling, `scopes` the grant's delegated scopes.
       */
      delegation?: { grantId: string; delegateId: string; delegationType: string; scopes: string[] };
    }
  | {
      /** An AI agent's token (`ra_agent_`), exchanged for a delegation grant; checked against the grant on every request. */
      kind: 'agent';
      accountId: string;
      agentId: string;
      grantId: string;
      tokenId: string;
      clientId: string;
      /** The principal the agent acts for. */
      personId: string;
      scopes: string[];
      expiresAt: string;
    }
  | {
      kind: 'publishable_key';
      accountId: string;
      applicationId: string;
      environment: 'development' | 'production';
      key: string;
    };

/** Hono environment shared by every route. */
export interface Env {
  Variables: { principal: Principal };
}
