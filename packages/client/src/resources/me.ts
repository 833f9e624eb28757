import { me as meSchema, type Me } from '@svc/schemas';
import type { CallOptions, SvcConnection } from '../lib/connection.js';

/** Reads the calling identity: the API token and its account (`GET /api/v1/me`). */
export function getMe(connection: SvcConnection<'bearer'>, options?: CallOptions): Promise<Me> {
  return connection.request({ method: 'GET', path: '/api/v1/me', schema: meSchema }, options);
}
