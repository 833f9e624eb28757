// What the Protect route modules share: the tag, who may call, the lookups whose miss is a 404, optional bodies.
import type { Context, MiddlewareHandler } from 'hono';
import { requires } from '../../infra/auth.js';
import type { Env, Permission } from '../../infra/context.js';
import { notFound } from '../../infra/errors.js';
import { validate } from '../../infra/validate.js';
import type { z } from 'zod/mini';
import { callerOf, personOnly } from './common.js';

export const tag = 'Protect';

/** Who may call: the organisation (API token) and, on a person's own resources, the person. */
export const personToo = { person: true } as const;

export type C = Context<Env>;
export const caller = (c: C) => callerOf(c.get('principal'));
export const idOf = (c: C) => c.req.param('id') ?? '';

/** What a lookup found, or the 404 `No such <what>.` (for a resource that does not exist or is not the caller's). */
export function found<T>(row: T | undefined, what: string): T {
  if (!row) throw notFound(`No such ${what}.`);
  return row;
}

/**
 * A route that is the person's alone (documented as `access_token`): refused to anything else before its body is
 * read, as `requires` and then `personOnly` always did.
 */
export function personsOwn(permission: Permission, what: string): MiddlewareHandler<Env>[] {
  return [
    requires(permission, personToo),
    async (c, next) => {
      personOnly(c.get('principal'), what);
      await next();
    },
  ];
}
