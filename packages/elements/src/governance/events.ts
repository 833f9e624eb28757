// The events of `<svc-governance>`: `svc-governance-change` (an admin enabled or disabled a module, or changed
// governance settings, and the service recorded it) and its own `svc-error` (a list could not be read, or a change
// was refused).
import type { AuditEvent, GovernanceChange, ModuleKey, ProductModule } from '@svc/schemas';
import type { PersonListErrorDetail } from '../internal/person-list.js';

/** What the element shows: `governance` (default: the settings and their change log), `modules`, or `audit`. */
export type GovernanceView = 'governance' | 'modules' | 'audit';

/** A module as `GET /api/v1/modules` answers it, keyed in the list by its `key`. */
export type ModuleRow = ProductModule & { id: string };

/** One entry of the governance change log (`GET /api/v1/governance/changes`). */
export type GovernanceChangeRow = GovernanceChange;

/** One event of an application's audit trail (`GET /api/v1/audit/events`). */
export type AuditEventRow = AuditEvent;

/** An application the audit view may show (`GET /api/v1/applications`). */
export interface GovernanceApplication {
  id: string;
  name: string;
  environment?: string;
}

/** Detail of `svc-governance-change`: the module and whether it is enabled now, or the settings that changed. */
export type SvcGovernanceChangeDetail = { kind: 'module'; key: ModuleKey; enabled: boolean } | { kind: 'governance'; settings: string[] };

/** Fired (bubbles, composed) once the service has recorded a module enabled or disabled, or settings changed. */
export type SvcGovernanceChangeEvent = CustomEvent<SvcGovernanceChangeDetail>;

/** What Verify the chain found: every event and anchor checks, or the first event that does not and why. */
export type GovernanceVerdict =
  | { ok: true; events: number; anchors: number }
  | { ok: false; sequence: number | null; reason: string; message: string };

/** Detail of an `svc-error` from `<svc-governance>` itself. */
export interface GovernanceErrorDetail extends PersonListErrorDetail {
  /** `unauthorized`, `forbidden` (e.g. a viewer's change: `insufficient_permissions`), `not_found`, `invalid` (422), `network`, `http` or `invalid_configuration`. */
  code: 'unauthorized' | 'forbidden' | 'not_found' | 'invalid' | 'network' | 'http' | 'invalid_configuration';
}

/** Fired (bubbles, composed) by `<svc-governance>` when a list could not be read or a change failed. */
export type SvcGovernanceErrorEvent = CustomEvent<GovernanceErrorDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-governance-change': SvcGovernanceChangeEvent;
  }
  interface SvcErrorDetailMap {
    governance: GovernanceErrorDetail;
  }
}
