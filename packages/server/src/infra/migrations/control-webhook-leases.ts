import type { Migration } from '../db.js';
import { CONTROL_SCHEMA } from '../cells/control-plane.js';

/**
 * Control migration 5: one lease per webhook attempt in flight, beside the endpoint's `consecutive_failures` in the
 * control file, so that every cell's worker sees every other cell's attempts. An attempt starts only when it can take
 * a lease with `consecutive_failures` plus the endpoint's leases below the limit (one INSERT … SELECT), so attempts
 * in flight together can never fail the endpoint past five. A lease is released with its attempt's outcome; a cell
 * drops its own (`country`) when its worker starts, since nothing of it is in flight then.
 */
export const webhookAttemptLeases: Migration = {
  id: 5,
  name: 'webhook-attempt-leases',
  sql: `
    CREATE TABLE ${CONTROL_SCHEMA}.webhook_attempt_leases (
      delivery_id TEXT PRIMARY KEY,
      endpoint_id TEXT NOT NULL,
      country TEXT NOT NULL,
      started_ms INTEGER NOT NULL
    );
    CREATE INDEX ${CONTROL_SCHEMA}.webhook_attempt_leases_endpoint ON webhook_attempt_leases (endpoint_id);
  `,
};
