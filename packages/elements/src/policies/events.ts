// The events of `<svc-policies>`: `svc-policies-change` (a policy or data license was revoked, or a clean room
// closed, and the service recorded it) and its own `svc-error` (a list could not be read, or an action failed).
import type { Application, CleanRoom, CleanRoomQuerySummary, ConsentActivity, DataLicense, Policy, PolicyTemplate } from '@svc/schemas';
import type { PersonListErrorDetail } from '../internal/person-list.js';

/** A policy of the account, as `GET /api/v1/policies` answers it. */
export type PolicyRow = Policy;
/** A data license of the account, as `GET /api/v1/data_licenses` answers it. */
export type DataLicenseRow = DataLicense;
/** A template of the catalogue, as `GET /api/v1/policy_templates` answers it. */
export type PolicyTemplateRow = PolicyTemplate;
/** A clean room of the account, as `GET /api/v1/clean_rooms` answers it. */
export type CleanRoomRow = CleanRoom;
/** One query of a clean room, as `GET /api/v1/clean_rooms/{id}/queries` answers it. */
export type CleanRoomQueryRow = CleanRoomQuerySummary;
/** An application whose consent activity the `consent_activity` view can show. */
export type ActivityApplication = Application;
/** What `GET /api/v1/applications/{id}/consent_activity` answers. */
export type PoliciesConsentActivity = ConsentActivity;

/** What was changed: a `policy` or a `data_license` revoked, a `clean_room` closed. */
export type PoliciesChangeKind = 'policy' | 'data_license' | 'clean_room';

/** Detail of `svc-policies-change`: what was changed, its id and its status now. Never anything else. */
export interface SvcPoliciesChangeDetail {
  kind: PoliciesChangeKind;
  id: string;
  status: string;
}

/** Fired (bubbles, composed) once the service has recorded a revocation or a closing the user confirmed. */
export type SvcPoliciesChangeEvent = CustomEvent<SvcPoliciesChangeDetail>;

/** Detail of an `svc-error` from `<svc-policies>` itself. */
export interface PoliciesErrorDetail extends PersonListErrorDetail {
  /** `unauthorized`, `forbidden` (e.g. a viewer's token: `insufficient_permissions`), `not_found`, `invalid` (409: already revoked or closed), `network`, `http` or `invalid_configuration`. */
  code: 'unauthorized' | 'forbidden' | 'not_found' | 'invalid' | 'network' | 'http' | 'invalid_configuration';
}

/** Fired (bubbles, composed) by `<svc-policies>` when a list could not be read or an action failed. */
export type SvcPoliciesErrorEvent = CustomEvent<PoliciesErrorDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-policies-change': SvcPoliciesChangeEvent;
  }
  interface SvcErrorDetailMap {
    policies: PoliciesErrorDetail;
  }
}
