// What the Connect route modules share: the refusal of anything but the person's own access token.
import type { MiddlewareHandler } from 'hono';
import { requires } from '../../infra/auth.js';
import type { Env, Permission } from '../../infra/context.js';
import { personOnly } from './connections.js';

/**
 * A route that is the person's alone (documented as `access_token`): refused to anything else before its body or
 * query is read, as `requires` and then `personOnly` always did.
 */
export function personsOwn(permission: Permission, what: string): MiddlewareHandler<Env>[] {
  return [
    requires(permission, { person: true }),
    async (c, next) => {
      personOnly(c.get('principal'), what);
      await next();
    },
  ];
}
