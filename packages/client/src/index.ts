/**
 * Typed REST client of the svc service, for Node 20+ and browsers. `createClient` groups every endpoint by
 * resource; `connect` plus the standalone functions (`createDecision(connect(...), ...)`) let a page bundle only
 * what it calls.
 * @module @svc/client
 */

// Clients and connections
export { createClient } from './lib/client.js';
export type { SvcClient, SvcPublishableClient } from './lib/client.js';
export { connect } from './lib/connection.js';
export type { CallOptions, HttpMethod, Schema, SvcConnection, SvcRequest, WriteOptions } from './lib/connection.js';
export type {
  AccessTokenCredential,
  AccessTokenProvider,
  AccessTokenProviderCredential,
  AgentTokenCredential,
  ApiTokenCredential,
  BaseClientOptions,
  BearerClientOptions,
  ClientOptions,
  CredentialKind,
  FetchImplementation,
  MisdirectedInfo,
  PublishableClientOptions,
  PublishableKeyCredential,
  SvcWarning,
} from './lib/options.js';
export type { ListQuery, SvcList, SvcPage } from './lib/pagination.js';

// Standalone functions, one per endpoint
export { getMe } from './resources/me.js';
export { createApiToken, deleteApiToken, listApiTokens, rotateApiToken } from './resources/api-tokens.js';
export {
  createApplication,
  getApplication,
  listApplicationActivity,
  listApplications,
  updateApplication,
} from './resources/applications.js';
export { createAllowedOrigin, deleteAllowedOrigin, listAllowedOrigins } from './resources/allowed-origins.js';
export {
  activateFlow,
  createFlow,
  createFlowVersion,
  getFlow,
  getFlowVersion,
  listFlows,
  listFlowVersions,
  updateFlow,
} from './resources/flows.js';
export { createDecision, exchangeDecision, getDecision } from './resources/decisions.js';
export { verifyConsentToken } from './resources/consent-tokens.js';
export { advanceTestClock } from './resources/test-clock.js';
export {
  createConsentImport,
  createConsentRecord,
  getConsentImport,
  getConsentRecord,
  listConsentRecords,
  withdrawConsentRecord,
} from './resources/consent-records.js';
export { getDpvReceipt, getJwks, getReceipt, getSignedReceipt } from './resources/receipts.js';
export { getConsentStatus } from './resources/consent-status.js';
export { getConsentActivity, type ConsentActivityQuery } from './resources/consent-activity.js';
export {
  fetchAuditTrail,
  getAuditAnchor,
  getAuditAnchorReceipts,
  getWitnessConfiguration,
  listAuditAnchors,
  listAuditEvents,
  verifyAuditTrail,
} from './resources/audit.js';
export {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookDelivery,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  redeliverWebhookDelivery,
  rotateWebhookEndpointSecret,
  testWebhookEndpoint,
  updateWebhookEndpoint,
} from './resources/webhook-endpoints.js';
export {
  createAgentIdentity,
  getAgentIdentity,
  getAgentTrustScore,
  listAgentIdentities,
  resumeAgentIdentity,
  revokeAgentIdentity,
  suspendAgentIdentity,
} from './resources/agent-identities.js';
export {
  createDelegationGrant,
  getDelegationGrant,
  listDelegationGrants,
  resumeDelegationGrant,
  revokeDelegationGrant,
  suspendDelegationGrant,
} from './resources/delegations.js';
export { exchangeDelegationGrant, TOKEN_EXCHANGE_PATH } from './resources/token-exchange.js';
export {
  getAgentManifest,
  getAgentTransparency,
  getApplicationTransparency,
  listAgentManifests,
  pinAgentManifest,
} from './resources/transparency.js';
export { checkAuthority } from './resources/authority.js';
export { createEscalation, getEscalation, listEscalations, readEscalation, waitForEscalation } from './resources/escalations.js';
export { createDisclosureReceipt, getDisclosureReceipt } from './resources/disclosure-receipts.js';
export {
  castQuorumVote,
  createAgreement,
  getAgreement,
  getAgreementReceipt,
  listAgreements,
  listQuorumVotes,
} from './resources/agreements.js';
export { listInbox } from './resources/inbox.js';
export {
  createMailingConnection,
  deleteMailingConnection,
  getMailingConnection,
  listMailingConnections,
} from './resources/mailing-connections.js';
export type { MailingConnectionsResource } from './resources/mailing-connections.js';
export {
  getResidencyPosture,
  getResidencyPostureEvidence,
  getTransferRegisterEvidence,
  listTransferRegister,
} from './resources/cross-border.js';
export { listEvidencePackages } from './resources/evidence-packages.js';
export { getBreachScopeEvidence, reportBreachScope } from './resources/breach-scope.js';
export { createCredential, getCredential, listCredentials, revokeCredential, verifyPresentation } from './resources/credentials.js';
export {
  acceptDataOffer,
  cancelPortabilityTransfer,
  completeDataRequest,
  confirmPortabilityTransfer,
  counterDataOffer,
  createDataLicense,
  createDataOffer,
  createDataRequest,
  createPolicy,
  createPortabilityTransfer,
  declineDataOffer,
  extendDataRequest,
  getDataLicense,
  getDataOffer,
  getDataRequest,
  getPolicy,
  getPolicyTemplate,
  getPortabilityTransfer,
  listDataLicenseAccesses,
  listDataLicenses,
  listDataOffers,
  listDataRequests,
  listPolicies,
  listPolicyTemplates,
  listPortabilityTransfers,
  markPortabilityTransferReady,
  recordDataLicenseAccess,
  rejectDataRequest,
  reviseDataOffer,
  revokeDataLicense,
  revokePolicy,
  sendDataOffer,
  startDataRequest,
} from './resources/protect.js';
export { getTrustScore } from './resources/trust-scores.js';
export { createVouch, getVouch, listVouches, revokeVouch } from './resources/vouches.js';
export { createMultiPartyAgreement, getMultiPartyAgreement, listMultiPartyAgreements } from './resources/multi-party-agreements.js';
export {
  addCollaborationMember,
  createCollaboration,
  dissolveCollaboration,
  getCollaboration,
  getCollaborationMembership,
  listCollaborations,
  revokeCollaborationMembership,
  signCollaborationMembership,
} from './resources/collaborations.js';
export {
  cancelMeetingConsent,
  closeCleanRoom,
  createCleanRoom,
  createCleanRoomQuery,
  createMeetingConsent,
  getCleanRoom,
  getCleanRoomQuery,
  getGovernance,
  getMeetingConsent,
  getModule,
  listCleanRoomQueries,
  listCleanRooms,
  listGovernanceChanges,
  listMeetingConsents,
  listModules,
  updateGovernance,
  updateModule,
} from './resources/comply.js';
export {
  addAccountUser,
  cancelDeviceLink,
  claimDeviceLink,
  createConnection,
  createDeviceLink,
  disconnectConnection,
  getAccount,
  getConnection,
  getDeviceLink,
  getTrustPairing,
  listAccounts,
  listConnections,
  listDeviceLinks,
  listTrustPairings,
  removeAccountUser,
  resumeConnection,
  revokeTrustPairing,
  suspendConnection,
  updateAccount,
  updateAccountUser,
} from './resources/connect.js';
export { authorizeCapture, createCapture, renderFlow } from './resources/captures.js';
export {
  createFormConnection,
  deleteFormConnection,
  getFormConnection,
  listFormConnections,
  rotateFormConnectionSecret,
} from './resources/form-connections.js';

// Resource groups and the shapes they return (the wire shapes themselves are in `@svc/client/schemas`)
export type { ApiTokensResource, IssuedApiToken } from './resources/api-tokens.js';
export type { ActivityQuery, ApplicationsResource, CreatedApplication } from './resources/applications.js';
export type { AllowedOriginsResource } from './resources/allowed-origins.js';
export type { FlowsResource } from './resources/flows.js';
export type { DecisionsResource, PublishableDecisionsResource } from './resources/decisions.js';
export type { ConsentTokensResource } from './resources/consent-tokens.js';
export type { TestClock, TestClockResource } from './resources/test-clock.js';
export type { ConsentImportsResource, ConsentRecordQuery, ConsentRecordsResource } from './resources/consent-records.js';
export type { DpvReceipt, ReceiptsResource } from './resources/receipts.js';
export type { ConsentStatusQuery, ConsentStatusResource } from './resources/consent-status.js';
export type { AuditListQuery, AuditResource, AuditTrail, AuditTrailOptions } from './resources/audit.js';
export type { IssuedWebhookEndpoint, WebhookDeliveryQuery, WebhookEndpointsResource } from './resources/webhook-endpoints.js';
export type { CaptureOptions, CapturesResource, PublishableFlowsResource, RenderOptions } from './resources/captures.js';
export type { FormConnectionsResource } from './resources/form-connections.js';
export type { AgentIdentitiesResource, AgentIdentityQuery } from './resources/agent-identities.js';
export type { DelegationGrantQuery, DelegationsResource } from './resources/delegations.js';
export type { TransparencyResource } from './resources/transparency.js';
export type { AgentClientCredentials, ClientAuthMethod, ExchangeDelegationGrantOptions } from './resources/token-exchange.js';
export type {
  AuthorityAllowed,
  AuthorityCheckResult,
  AuthorityDenied,
  AuthorityEscalated,
  AuthorityResource,
} from './resources/authority.js';
export type { EscalationQuery, EscalationRead, EscalationsResource, WaitForEscalationOptions } from './resources/escalations.js';
export type { AgreementQuery, AgreementsResource } from './resources/agreements.js';
export type { InboxListQuery, InboxResource } from './resources/inbox.js';
export type { ResidencyPostureResource, TransferRegisterListQuery, TransferRegisterResource } from './resources/cross-border.js';
export type { BreachScopeResource } from './resources/breach-scope.js';
export type { CredentialQuery, CredentialsResource, PresentationsResource } from './resources/credentials.js';
export type {
  AccountsResource,
  ConnectionQuery,
  ConnectionsResource,
  DeviceLinkQuery,
  DeviceLinksResource,
  TrustPairingQuery,
  TrustPairingsResource,
} from './resources/connect.js';
export type {
  Account,
  AccountUser,
  ActivePolicy,
  ClaimDeviceLinkRequest,
  Connection,
  ConnectionDetail,
  ConnectionStatus,
  ConnectionSuspension,
  CreateAccountUserRequest,
  CreateConnectionRequest,
  CreateDeviceLinkRequest,
  DeviceLink,
  DeviceLinkStatus,
  DisconnectResult,
  SuspendConnectionRequest,
  TrustPairing,
  TrustTier,
  UpdateAccountRequest,
} from '@svc/schemas';
export type {
  CreateCredentialRequest,
  Credential,
  CredentialStatus,
  PresentationVerification,
  VerifyPresentationRequest,
} from '@svc/schemas';
export type {
  DataLicenseQuery,
  DataLicensesResource,
  DataOfferQuery,
  DataOffersResource,
  DataRequestQuery,
  DataRequestsResource,
  PoliciesResource,
  PolicyQuery,
  PolicyTemplatesResource,
  PortabilityTransferQuery,
  PortabilityTransfersResource,
  ProtectResources,
} from './resources/protect.js';
export type {
  ConfirmPortabilityTransferRequest,
  CreateDataLicenseRequest,
  CreateDataOfferRequest,
  CreateDsarRequest,
  CreatePolicyRequest,
  CreatePortabilityTransferRequest,
  DataLicense,
  DataLicenseAccess,
  DataLicenseStatus,
  DataOffer,
  DataOfferAction,
  DataOfferRound,
  DataOfferStatus,
  DataOfferTermsRequest,
  DataRequest,
  DataRequestExport,
  DataRequestStatus,
  DsarType,
  ExtendDataRequestRequest,
  MarkPortabilityTransferReadyRequest,
  Policy,
  PolicyAcceptance,
  PolicyOwnerType,
  PolicyStatus,
  PolicyTemplate,
  PolicyTemplateConfig,
  PolicyTemplateId,
  PortabilityTransfer,
  PortabilityTransferStatus,
  RecordDataLicenseAccessRequest,
  RejectDataRequestRequest,
} from '@svc/schemas';
export type { TrustScoresResource } from './resources/trust-scores.js';
export type { VouchesResource, VouchQuery } from './resources/vouches.js';
export type { MultiPartyAgreementsResource } from './resources/multi-party-agreements.js';
export type { CollaborationQuery, CollaborationsResource } from './resources/collaborations.js';
export type {
  AddMembershipRequest,
  CastQuorumVoteRequest,
  Collaboration,
  CollaborationDetail,
  CollaborationMembership,
  CollaborationStatus,
  CreateCollaborationRequest,
  CreateMultiPartyAgreementRequest,
  CreateVouchRequest,
  MembershipRole,
  MembershipStatus,
  MultiPartyAgreement,
  QuorumVoteCast,
  SignMembershipRequest,
  TrustScoreFactor,
  TrustSubjectType,
  Vouch,
  VouchStatus,
} from '@svc/schemas';
export type {
  CleanRoomQueryFilter,
  CleanRoomsResource,
  GovernanceResource,
  MeetingConsentQuery,
  MeetingConsentsResource,
  ModulesResource,
} from './resources/comply.js';
export type {
  CleanRoom,
  CleanRoomQuery,
  CleanRoomQuerySummary,
  CleanRoomResult,
  CleanRoomStatus,
  ComputationType,
  CreateCleanRoomQueryRequest,
  CreateCleanRoomRequest,
  CreateMeetingConsentRequest,
  Governance,
  GovernanceChange,
  GovernanceSettings,
  MeetingConsent,
  MeetingConsentStatus,
  ModuleKey,
  PrivacyParameters,
  ProductModule,
  QueryDefinition,
  UpdateGovernanceRequest,
} from '@svc/schemas';
export type {
  BreachCoverage,
  BreachCredentialType,
  BreachScope,
  BreachScopeRequest,
  EvidencePackage,
  ResidencyAssurance,
  ResidencyCountry,
  ResidencyPosture,
  TransferEntry,
  TransferRegisterEvidenceRequest,
} from '@svc/schemas';
export type { AuthorizedDecision, AuthorizeRequest, CaptureRequest, CaptureResult, FlowRender, FormConnection } from '@svc/schemas';
export type {
  Agreement,
  AgreementParty,
  AgreementReceipt,
  AgreementStatus,
  CreateAgreementRequest,
  QuorumVote,
  SignedAgreementReceipt,
} from '@svc/schemas';
export type {
  ActivityEvent,
  AgentIdentity,
  AgentIdentityStatus,
  AllowedOrigin,
  AuthorityCheck,
  AuthorityCheckRequest,
  BoundName,
  CreateDelegationRequest,
  CreateEscalationRequest,
  DelegationBounds,
  DelegationGrant,
  DelegationStatus,
  DelegationType,
  Escalation,
  EscalationStatus,
  EscalationTrigger,
  TokenExchangeResponse,
  TrustScore,
  ApiToken,
  Application,
  ConsentExchange,
  ConsentVerification,
  CreateDecisionRequest,
  Decision,
  Flow,
  FlowVersion,
  InboxDecision,
  InboxSort,
  Me,
} from '@svc/schemas';

// Errors
export {
  isSvcError,
  SvcAbortError,
  SvcAuthenticationError,
  SvcBadRequestError,
  SvcConfigurationError,
  SvcError,
  SvcEscalationOutcomeError,
  SvcHttpError,
  SvcNetworkError,
  SvcNotFoundError,
  SvcPermissionError,
  SvcRateLimitError,
  SvcResponseValidationError,
  SvcServerError,
  SvcTimeoutError,
  SvcTokenProviderError,
  SvcValidationError,
  SvcWrongCountryError,
} from './lib/errors.js';
// The OAuth helpers' errors (`@svc/client/oauth`), here too so one `isSvcError` switch covers them.
export { SvcOAuthError, SvcOAuthSignedOutError, SvcOAuthValidationError } from './oauth/errors.js';
export type { AnyOAuthError } from './oauth/errors.js';
export type { AnySvcError, SvcErrorCode, SvcFieldError, SvcRequestInfo, WrongCountryRefusal } from './lib/errors.js';

// Offline verification
export {
  isWebhookVerificationError,
  signWebhook,
  SvcWebhookHeaderError,
  SvcWebhookPayloadError,
  SvcWebhookSignatureError,
  SvcWebhookTimestampError,
  SvcWebhookUnknownEventError,
  SvcWebhookVerificationError,
  verifyWebhook,
} from './verify/webhook.js';
export type {
  AnyWebhookVerificationError,
  SignWebhookOptions,
  VerifyWebhookOptions,
  WebhookBody,
  WebhookHeaders,
  WebhookSignatureHeaders,
} from './verify/webhook.js';
export type { WebhookDelivery, WebhookEndpoint, WebhookEvent, WebhookEventData, WebhookEventOf, WebhookEventType } from '@svc/schemas';
export {
  SvcReceiptFormatError,
  SvcReceiptInvalidError,
  SvcReceiptKeyError,
  SvcReceiptSignatureError,
  SvcReceiptVerificationError,
  verifyReceipt,
} from './verify/receipt.js';
export type { SignedReceiptInput, VerifyReceiptOptions } from './verify/receipt.js';
export {
  capabilityManifestDigest,
  SvcTransparencyFormatError,
  SvcTransparencyInvalidError,
  SvcTransparencyKeyError,
  SvcTransparencySignatureError,
  SvcTransparencyVerificationError,
  verifyTransparencyRecord,
} from './verify/transparency.js';
export type { AnyTransparencyVerificationError, SignedTransparencyInput, VerifyTransparencyRecordOptions } from './verify/transparency.js';
export type {
  AgentTransparencyRecord,
  CapabilityManifest,
  ControllerTransparencyRecord,
  CredentialAttestationRecord,
  ManifestTransparencyRecord,
  PinCapabilityManifestRequest,
  PinnedCapabilityManifest,
  PlatformAttestationRecord,
  RevocationListRecord,
  SignedTransparencyRecord,
  TransparencyRecord,
  TransparencyRecordType,
} from '@svc/schemas';
export { merkleTreeHash, verifyAuditChain, verifyTimestampToken } from './verify/audit-chain.js';
export type {
  AnchorWithReceipts,
  AuditChainFailureReason,
  AuditChainKeys,
  AuditChainVerification,
  VerifiedWitnessReceipt,
  VerifyAuditChainOptions,
} from './verify/audit-chain.js';
export type { TimestampFailureReason, TimestampTrustAnchors, TimestampVerification } from './verify/timestamp.js';
export type {
  AnchorReceipt,
  AuditAnchor,
  AuditEvent,
  ConsentRecord,
  ConsentImport,
  ConsentStatus,
  ReceiptRecord,
  SignedReceipt,
} from '@svc/schemas';
export { SvcAgreementVerificationError, verifyAgreementReceipt, type VerifiedAgreementReceipt } from './verify/agreement.js';
export {
  EVIDENCE_PACKAGE_TYP,
  SvcEvidenceVerificationError,
  verifyEvidencePackage,
  type VerifiedEvidencePackage,
  type VerifyEvidencePackageOptions,
} from './verify/evidence.js';
