// The sandbox's console user: a person of the sandbox account, made an admin account user, so a newcomer signs in to
// the console (`/applications`, …) with `console_email` from `sandbox.json` (the sign-in code shows on the page in
// the sandbox). Later starts make it again if it is gone.
import type { ServerContext } from '../infra/context.js';
import { isoNow } from '../infra/clock.js';
import { stmt } from '../infra/db.js';
import { newId } from '../infra/ids.js';
import { personFor } from '../consent/records/person.js';
import type { SandboxSeeded, SandboxSeeder } from '../platform/account/sandbox.js';

/** The sandbox console user's email. */
export const SANDBOX_CONSOLE_EMAIL = 'console@example.com';

function seed(ctx: ServerContext, { accountId }: SandboxSeeded) {
  const now = isoNow(ctx.clock);
  const userId = personFor(ctx, accountId, SANDBOX_CONSOLE_EMAIL, now);
  stmt(
    ctx.db,
    `INSERT INTO account_users (id, account_id, user_id, role, created_at) VALUES (?, ?, ?, 'admin', ?)
     ON CONFLICT (account_id, user_id) DO NOTHING`,
  ).run(newId('au_', 20), accountId, userId, now);
  return { console_email: SANDBOX_CONSOLE_EMAIL };
}

export const consoleSandboxSeeder: SandboxSeeder = Object.assign(seed, {
  ensure: (ctx: ServerContext, seeded: SandboxSeeded) => seed(ctx, seeded),
});
