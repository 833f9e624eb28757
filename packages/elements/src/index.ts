/**
 * The Lit web components of the svc service: `<svc-decision>`, which shows one decision (consent, approval or
 * signature request) in an iframe, a popup or by redirect and re-dispatches the hosted page's protocol v2 messages as DOM events,
 * `<svc-consent-field>`, which renders a flow's purposes inside the organisation's own form and captures the
 * person's choices, `<svc-inbox>`, which lists the decisions that wait for a signed-in person and opens each in a
 * popup, `<svc-records>`, which lists a signed-in person's own consent records and lets them withdraw, and
 * `<svc-provider>`, which shares the service configuration with the elements inside it.
 * Importing this module defines the elements (once, however often it is imported); it touches no `window` or
 * `document` at import time, so server-side rendering can import it.
 *
 * @module @svc/elements
 */

// Elements (the provider first, so it is upgraded before the elements that ask it for configuration)
export { SvcProvider } from './provider/provider.js';
export { SvcDecision } from './decision/decision.js';

// Helpers
export { readRedirectResult } from './decision/redirect-result.js';
export { svcConfigContext } from './internal/config.js';

// Errors
export { DecisionErrorCode } from './events/svc-error.js';

// Types
export type { DecisionMode, DecisionStatus } from './decision/decision.component.js';
export type { RedirectResult } from './decision/redirect-result.js';
export type { SvcConfig } from './internal/config.js';
export type { AccessTokenProvider } from './internal/access-token.js';
export type { WithKind } from './events/detail.js';
export type { SvcReadyDetail, SvcReadyEvent } from './events/svc-ready.js';
export type { SvcStateDetail, SvcStateEvent } from './events/svc-state.js';
export type { SvcCompleteDetail, SvcCompleteEvent } from './events/svc-complete.js';
export type { SvcCancelDetail, SvcCancelEvent } from './events/svc-cancel.js';
export type { DecisionErrorDetail, SvcDecisionErrorEvent, SvcErrorDetail } from './events/svc-error.js';
export type { SvcResizeDetail, SvcResizeEvent } from './events/svc-resize.js';
export type { SvcDeadlineDetail, SvcDeadlineEvent } from './events/svc-deadline.js';

// Inbox: the signed-in person's decisions, each opened in an <svc-decision> popup
export { SvcInbox } from './inbox/inbox.js';
export type { InboxStatus, InboxTokenProvider } from './inbox/inbox.component.js';
export type { InboxErrorDetail, InboxRow, SvcInboxErrorEvent, SvcInboxOpenDetail, SvcInboxOpenEvent } from './events/svc-inbox-open.js';

// Records: the signed-in person's own consent records, each purpose withdrawable in place
export { SvcRecords } from './records/records.js';
export type { RecordsStatus, RecordsTokenProvider } from './records/records.component.js';
export type {
  RecordPurpose,
  RecordRow,
  RecordsErrorDetail,
  SvcRecordsErrorEvent,
  SvcRecordsWithdrawDetail,
  SvcRecordsWithdrawEvent,
} from './events/svc-records-withdraw.js';

// Credentials: the signed-in person's credentials, each presented sharing only the claims they choose
export { SvcCredentials } from './credentials/credentials.js';
export type { CredentialsStatus, CredentialsTokenProvider } from './credentials/credentials.component.js';
export type {
  CredentialClaim,
  CredentialRow,
  CredentialsErrorDetail,
  MadePresentation,
  PresentationRow,
  SvcCredentialsErrorEvent,
  SvcCredentialsPresentDetail,
  SvcCredentialsPresentEvent,
} from './credentials/events.js';

// Delegations: who may act for the signed-in person (the grants they made), paused, resumed or revoked in place
export { SvcDelegations } from './delegations/delegations.js';
export type { DelegationsStatus, DelegationsTokenProvider } from './delegations/delegations.component.js';
export type {
  DelegationAction,
  DelegationChange,
  DelegationRow,
  DelegationsErrorDetail,
  SvcDelegationsChangeDetail,
  SvcDelegationsChangeEvent,
  SvcDelegationsErrorEvent,
} from './events/svc-delegations-change.js';

// Receipts: what was done in the signed-in person's name (or the agents disclosed to them), each checked offline
export { SvcReceipts } from './receipts/receipts.js';
export type { ReceiptsJwks, ReceiptsStatus, ReceiptsTokenProvider } from './receipts/receipts.component.js';
export type {
  AuthorizationReceiptRow,
  DisclosureReceiptRow,
  ReceiptVerdict,
  SvcReceiptsVerifyDetail,
  SvcReceiptsVerifyEvent,
} from './receipts/events.js';

// Agreements: the agreements the signed-in person is a party of (sign, decline), multi-party ones, their collaborations (sign, leave)
export { SvcAgreements } from './agreements/agreements.js';
export type { AgreementsStatus, AgreementsTokenProvider, AgreementsView } from './agreements/agreements.component.js';
export type {
  AgreementRow,
  AgreementsAction,
  AgreementsErrorDetail,
  CollaborationRow,
  SvcAgreementsChangeDetail,
  SvcAgreementsChangeEvent,
  SvcAgreementsErrorEvent,
} from './agreements/events.js';

// Connections: the applications and devices the signed-in person is connected to; disconnect, link a device, unpair
export { SvcConnections } from './connections/connections.js';
export type { ConnectionsStatus, ConnectionsTokenProvider } from './connections/connections.component.js';
export type {
  ConnectionRow,
  ConnectionsAction,
  ConnectionsErrorDetail,
  DeviceLinkRow,
  SvcConnectionsChangeDetail,
  SvcConnectionsChangeEvent,
  SvcConnectionsErrorEvent,
  TrustPairingRow,
} from './connections/events.js';

// Data requests: the signed-in person's requests (access, erasure, ...) to organisations, and a form to file one
export { SvcDataRequests } from './data-requests/data-requests.js';
export type { DataRequestsStatus, DataRequestsTokenProvider } from './data-requests/data-requests.component.js';
export type {
  DataRequestOrganisation,
  DataRequestRow,
  DataRequestsErrorDetail,
  DataRequestType,
  SvcDataRequestsErrorEvent,
  SvcDataRequestsFileDetail,
  SvcDataRequestsFileEvent,
} from './data-requests/events.js';

// Data offers: the offers for the signed-in person's data (accept, decline) and the licences over it (revoke)
export { SvcDataOffers } from './data-offers/data-offers.js';
export type { DataOffersStatus, DataOffersTokenProvider } from './data-offers/data-offers.component.js';
export type {
  DataDealAnswer,
  DataLicenseRow,
  DataOfferRow,
  DataOffersErrorDetail,
  SvcDataOffersAnswerDetail,
  SvcDataOffersAnswerEvent,
  SvcDataOffersErrorEvent,
} from './data-offers/events.js';

// Vouches: the vouches the signed-in person gave and received (vouch for someone, withdraw one), or their trust scores
export { SvcVouches } from './vouches/vouches.js';
export type { VouchesStatus, VouchesTokenProvider } from './vouches/vouches.component.js';
export type {
  SvcVouchesChangeDetail,
  SvcVouchesChangeEvent,
  SvcVouchesErrorEvent,
  TrustScoreRow,
  VouchChange,
  VouchesErrorDetail,
  VouchRow,
} from './vouches/events.js';

// The organisation's console: each element calls the organisation's API with a console token (an API token of the
// account user's role); `readonly` shows a viewer no change controls.

// Applications: publishable keys, allowed origins (add, remove), OAuth clients; or the account's API tokens (shown once)
export { SvcApplications } from './applications/applications.js';
export type { ApplicationsStatus, ApplicationsTokenProvider } from './applications/applications.component.js';
export type {
  AllowedOriginRow,
  ApiTokenRow,
  ApplicationRow,
  ApplicationsChange,
  ApplicationsErrorDetail,
  OAuthClientRow,
  SvcApplicationsChangeDetail,
  SvcApplicationsChangeEvent,
  SvcApplicationsErrorEvent,
} from './applications/events.js';

// Webhooks: an application's endpoints (secret rotation shown once), their deliveries (redeliver), delivery health
export { SvcWebhooks } from './webhooks/webhooks.js';
export type { WebhooksStatus, WebhooksTokenProvider } from './webhooks/webhooks.component.js';
export type {
  DeliveryFilter,
  SvcWebhooksChangeDetail,
  SvcWebhooksChangeEvent,
  SvcWebhooksErrorEvent,
  WebhookApplication,
  WebhookDeliveryRow,
  WebhookEndpointRow,
  WebhooksChange,
  WebhooksErrorDetail,
} from './webhooks/events.js';

// Agents: the organisation's agents (manifests, trust scores), their delegation grants, escalations by outcome
export { SvcAgents } from './agents/agents.js';
export type { AgentsStatus, AgentsTokenProvider } from './agents/agents.component.js';
export type {
  AgentDetails,
  AgentRow,
  AgentsAction,
  AgentsErrorDetail,
  AgentsView,
  EscalationRow,
  GrantRow,
  SvcAgentsChangeDetail,
  SvcAgentsChangeEvent,
  SvcAgentsErrorEvent,
} from './agents/events.js';

// Policies: policies and data licences, clean rooms (privacy budget left), consent activity per purpose
export { SvcPolicies } from './policies/policies.js';
export type { PoliciesStatus, PoliciesView } from './policies/policies.component.js';
export type {
  ActivityApplication,
  CleanRoomQueryRow,
  CleanRoomRow,
  DataLicenseRow as PolicyDataLicenseRow,
  PoliciesChangeKind,
  PoliciesConsentActivity,
  PoliciesErrorDetail,
  PolicyRow,
  PolicyTemplateRow,
  SvcPoliciesChangeDetail,
  SvcPoliciesChangeEvent,
  SvcPoliciesErrorEvent,
} from './policies/events.js';

// Evidence: the transfer register, residency posture and signed evidence packages (download, verify offline)
export { SvcEvidence } from './evidence/evidence.js';
export type { EvidenceStatus, EvidenceTokenProvider } from './evidence/evidence.component.js';
export type {
  EvidenceErrorDetail,
  EvidencePackageAnswer,
  EvidencePackageRow,
  EvidenceVerdict,
  EvidenceView,
  ResidencyCountryRow,
  SvcEvidenceChangeDetail,
  SvcEvidenceChangeEvent,
  SvcEvidenceErrorEvent,
  TransferRow,
} from './evidence/events.js';

// Governance: modules, governance settings and their change log, the audit trail and its offline chain check
export { SvcGovernance } from './governance/governance.js';
export type { GovernanceStatus, GovernanceTokenProvider } from './governance/governance.component.js';
export type {
  AuditEventRow,
  GovernanceApplication,
  GovernanceChangeRow,
  GovernanceErrorDetail,
  GovernanceVerdict,
  GovernanceView,
  ModuleRow,
  SvcGovernanceChangeDetail,
  SvcGovernanceChangeEvent,
  SvcGovernanceErrorEvent,
} from './governance/events.js';

// Consent field
export { SvcConsentField } from './consent-field/consent-field.js';
export { ConsentFieldError, ConsentFieldErrorCode } from './consent-field/consent-field-error.js';
export { APPEARANCE_KEYS } from './consent-field/appearance.js';
export type { ConsentFieldStatus, ConsentFieldTheme } from './consent-field/consent-field.component.js';
export type { ConsentFieldErrorDetail, SvcConsentFieldErrorEvent } from './consent-field/consent-field-error.js';
export type { Appearance } from './consent-field/appearance.js';
export type { RenderData, RenderPurpose } from './consent-field/render-data.js';
