import { connect, type CallOptions, type SvcConnection } from './connection.js';
import type { BearerClientOptions, ClientOptions, PublishableClientOptions } from './options.js';
import { apiTokensResource, type ApiTokensResource } from '../resources/api-tokens.js';
import { applicationsResource, type ApplicationsResource } from '../resources/applications.js';
import { consentTokensResource, type ConsentTokensResource } from '../resources/consent-tokens.js';
import { createDecision, decisionsResource, type DecisionsResource, type PublishableDecisionsResource } from '../resources/decisions.js';
import { flowsResource, type FlowsResource } from '../resources/flows.js';
import { capturesResource, publishableFlowsResource, type CapturesResource, type PublishableFlowsResource } from '../resources/captures.js';
import { getMe } from '../resources/me.js';
import { testClockResource, type TestClockResource } from '../resources/test-clock.js';
import { consentRecordsResource, type ConsentRecordsResource } from '../resources/consent-records.js';
import { receiptsResource, type ReceiptsResource } from '../resources/receipts.js';
import { consentStatusResource, type ConsentStatusResource } from '../resources/consent-status.js';
import { auditResource, type AuditResource } from '../resources/audit.js';
import { webhookEndpointsResource, type WebhookEndpointsResource } from '../resources/webhook-endpoints.js';
import { mailingConnectionsResource, type MailingConnectionsResource } from '../resources/mailing-connections.js';
import { agentIdentitiesResource, type AgentIdentitiesResource } from '../resources/agent-identities.js';
import { delegationsResource, type DelegationsResource } from '../resources/delegations.js';
import { authorityResource, type AuthorityResource } from '../resources/authority.js';
import { escalationsResource, type EscalationsResource } from '../resources/escalations.js';
import { transparencyResource, type TransparencyResource } from '../resources/transparency.js';
import { disclosureReceiptsResource, type DisclosureReceiptsResource } from '../resources/disclosure-receipts.js';
import { agreementsResource, type AgreementsResource } from '../resources/agreements.js';
import { inboxResource, type InboxResource } from '../resources/inbox.js';
import {
  residencyPostureResource,
  transferRegisterResource,
  type ResidencyPostureResource,
  type TransferRegisterResource,
} from '../resources/cross-border.js';
import { breachScopeResource, type BreachScopeResource } from '../resources/breach-scope.js';
import {
  credentialsResource,
  presentationsResource,
  type CredentialsResource,
  type PresentationsResource,
} from '../resources/credentials.js';
import { trustScoresResource, type TrustScoresResource } from '../resources/trust-scores.js';
import { vouchesResource, type VouchesResource } from '../resources/vouches.js';
import { multiPartyAgreementsResource, type MultiPartyAgreementsResource } from '../resources/multi-party-agreements.js';
import { collaborationsResource, type CollaborationsResource } from '../resources/collaborations.js';
import {
  accountsResource,
  connectionsResource,
  deviceLinksResource,
  trustPairingsResource,
  type AccountsResource,
  type ConnectionsResource,
  type DeviceLinksResource,
  type TrustPairingsResource,
} from '../resources/connect.js';
import {
  protectResources,
  type DataLicensesResource,
  type DataOffersResource,
  type DataRequestsResource,
  type PoliciesResource,
  type PolicyTemplatesResource,
  type PortabilityTransfersResource,
} from '../resources/protect.js';
import {
  cleanRoomsResource,
  governanceResource,
  meetingConsentsResource,
  modulesResource,
  type CleanRoomsResource,
  type GovernanceResource,
  type MeetingConsentsResource,
  type ModulesResource,
} from '../resources/comply.js';
import type { Me } from '@svc/schemas';

/**
 * A client holding a bearer credential (API token, a person's access token, an agent token): every endpoint,
 * grouped by resource. What each credential may call is the service's to decide (an agent token checks authority
 * and escalates; a person delegates; an API token administers the account).
 */
export interface SvcClient extends SvcConnection<'bearer'> {
  /** Reads the calling identity (`GET /api/v1/me`). */
  me(options?: CallOptions): Promise<Me>;
  /** The account's API tokens. */
  readonly apiTokens: ApiTokensResource;
  /** The account's applications, with their allowed origins and activity. */
  readonly applications: ApplicationsResource;
  /** Consent flows and their versions. */
  readonly flows: FlowsResource;
  /** Decision sessions. */
  readonly decisions: DecisionsResource;
  /** Consent tokens. */
  readonly consentTokens: ConsentTokensResource;
  /** The test clock of a development server. */
  readonly testClock: TestClockResource;
  /** Consent records (Record API), their withdrawal, and bulk imports. */
  readonly consentRecords: ConsentRecordsResource;
  /** Consent receipts (canonical, signed, DPV) and the keys that verify them. */
  readonly receipts: ReceiptsResource;
  /** People's consent status with an application. */
  readonly consentStatus: ConsentStatusResource;
  /** The tamper-evident audit trail, its anchors and witness receipts, and its verification. */
  readonly audit: AuditResource;
  /** Webhook endpoints (subscriptions) of each application and their deliveries. */
  readonly webhookEndpoints: WebhookEndpointsResource;
  /** Mailchimp audiences and Brevo lists connected to a flow's purpose: their unsubscribes withdraw it. */
  readonly mailingConnections: MailingConnectionsResource;
  /** The software agents the account operates: register, suspend, resume, revoke, and their trust scores. */
  readonly agentIdentities: AgentIdentitiesResource;
  /** Delegation grants (a person's authority handed to a person or an agent) and their exchange for an agent token. */
  readonly delegations: DelegationsResource;
  /** Authority checks: an agent asks before it acts (agent token). */
  readonly authority: AuthorityResource;
  /** Escalations: an agent's actions beyond its grant, waiting for the principal; `waitFor` polls one to its end. */
  readonly escalations: EscalationsResource;
  /** Transparency records (public, signed: controller, agent, manifest versions) and pinning an agent's manifest. */
  readonly transparency: TransparencyResource;
  /** Disclosure receipts: that a flow disclosed an agent to a person (`disclosures:write`). */
  readonly disclosureReceipts: DisclosureReceiptsResource;
  /** Agreements: documents to sign, their parties' signing sessions, quorum votes and receipts. */
  readonly agreements: AgreementsResource;
  /** The person's Trust Inbox: the decisions that wait for them, across organisations (scope `inbox:read`). */
  readonly inbox: InboxResource;
  /** The transfer register: cross-border transfers with lawful basis and adequacy verdict, and its signed evidence package. */
  readonly transferRegister: TransferRegisterResource;
  /** Where subjects' data is stored per country, with an assurance status, and its signed proof of residency. */
  readonly residencyPosture: ResidencyPostureResource;
  /** What a leaked credential could have touched (counts and categories, `admin`), and its signed evidence package. */
  readonly breachScope: BreachScopeResource;
  /** Verifiable credentials (SD-JWT VC) of fulfilled consents: issue, read, list, revoke (`@svc/client/credentials` presents them). */
  readonly credentials: CredentialsResource;
  /** Verifying a presented credential in any cell, against the issuing cell's published key. */
  readonly presentations: PresentationsResource;
  /** Protect: the built-in policy templates, each with the JSON Schema of its config. */
  readonly policyTemplates: PolicyTemplatesResource;
  /** Protect: policies made from templates (a person's own with their access token, the account's with an API token). */
  readonly policies: PoliciesResource;
  /** Protect: data requests (DSAR) a person files and the organisation processes, with a due date. */
  readonly dataRequests: DataRequestsResource;
  /** Protect: data licenses under an active agreement, each access counted up to `max_access_count`. */
  readonly dataLicenses: DataLicensesResource;
  /** Protect: data offers, the data deal (draft, offered, countered, user_revised, accepted, declined, expired). */
  readonly dataOffers: DataOffersResource;
  /** Protect: portability transfers between two applications, confirmed with the declared data hash. */
  readonly portabilityTransfers: PortabilityTransfersResource;
  /** Trust scores (0-100, with their factors) of persons and agents: the function a delegation's reputation bound reads. */
  readonly trustScores: TrustScoresResource;
  /** Vouches: a person's word for another person or an agent, counted in their trust score (the voucher's access token). */
  readonly vouches: VouchesResource;
  /** Multi-party agreements: agreements of quorum two or more, with their signatures counted and quorum votes. */
  readonly multiPartyAgreements: MultiPartyAgreementsResource;
  /** Collaborations and their memberships: added, signed by each member, revoked; active once all have signed. */
  readonly collaborations: CollaborationsResource;
  /** The product modules the account has enabled (Comply). */
  readonly modules: ModulesResource;
  /** The account's governance settings and their change log (Comply). */
  readonly governance: GovernanceResource;
  /** Clean rooms over an active agreement, and their aggregate, privacy-protected queries (Comply). */
  readonly cleanRooms: CleanRoomsResource;
  /** Meeting consents: a meeting, its consent template and the AI note-takers it discloses; decisions name it (Comply). */
  readonly meetingConsents: MeetingConsentsResource;
  /** Connect: the account and its users (API token); a person's connections to applications, device links and trust pairings. */
  readonly accounts: AccountsResource;
  readonly connections: ConnectionsResource;
  readonly deviceLinks: DeviceLinksResource;
  readonly trustPairings: TrustPairingsResource;
}

/** A client holding a publishable key: only what a browser page may do. */
export interface SvcPublishableClient extends SvcConnection<'publishable_key'> {
  /** Decision sessions (create only). */
  readonly decisions: PublishableDecisionsResource;
  /** Render data for the consent field (`flows.render`). */
  readonly flows: PublishableFlowsResource;
  /** Consent captures from the organisation's own form. */
  readonly captures: CapturesResource;
}

/**
 * Creates a client of the svc REST API. The credential decides what it offers: with an `apiToken`, an
 * `accessToken` (or `getAccessToken`; with `delegationGrantId` as a person's delegate) or an `agentToken` every
 * resource; with a `publishableKey` only the calls a browser page may make.
 *
 * @example Server side, with an API token
 * ```ts
 * import { createClient } from '@svc/client';
 *
 * const svc = createClient({ baseUrl: 'http://127.0.0.1:4010', apiToken: process.env.SVC_API_TOKEN! });
 * const decision = await svc.decisions.create({ kind: 'consent', subject_ref: 'flw_dev_...', delivery_mode: 'redirect' });
 * for await (const token of svc.apiTokens.list({ limit: 50 })) console.log(token.name);
 * ```
 *
 * @example An AI agent, with the token its delegation grant was exchanged for
 * ```ts
 * const { access_token } = await exchangeDelegationGrant({ baseUrl, clientId, clientSecret, delegationGrantId: 'dlg_dev_...' });
 * const agent = createClient({ baseUrl, agentToken: access_token });
 * const result = await agent.authority.check({ scope: 'payments:write', action: 'write', value: 40, currency: 'EUR', description: 'Pay the plumber' });
 * ```
 *
 * @example In a browser, with a publishable key
 * ```ts
 * const svc = createClient({ baseUrl: 'https://api.example.com', publishableKey: 'pk_test_...' });
 * const { session_token } = await svc.decisions.create({
 *   kind: 'consent', subject_ref: 'flw_dev_...', delivery_mode: 'embed', embed_origin: location.origin,
 * });
 * ```
 */
export function createClient(options: PublishableClientOptions): SvcPublishableClient;
export function createClient(options: BearerClientOptions): SvcClient;
export function createClient(options: ClientOptions): SvcClient | SvcPublishableClient;
export function createClient(options: ClientOptions): SvcClient | SvcPublishableClient {
  const connection = connect(options);
  if (connection.credential === 'publishable_key') {
    const publishable = connection as SvcConnection<'publishable_key'>;
    return {
      ...publishable,
      decisions: { create: (request, opts) => createDecision(publishable, request, opts) },
      flows: publishableFlowsResource(publishable),
      captures: capturesResource(publishable),
    };
  }
  const bearer = connection as SvcConnection<'bearer'>;
  return {
    ...bearer,
    me: (opts) => getMe(bearer, opts),
    apiTokens: apiTokensResource(bearer),
    applications: applicationsResource(bearer),
    flows: flowsResource(bearer),
    decisions: decisionsResource(bearer),
    consentTokens: consentTokensResource(bearer),
    testClock: testClockResource(bearer),
    consentRecords: consentRecordsResource(bearer),
    receipts: receiptsResource(bearer),
    consentStatus: consentStatusResource(bearer),
    audit: auditResource(bearer),
    webhookEndpoints: webhookEndpointsResource(bearer),
    mailingConnections: mailingConnectionsResource(bearer),
    agentIdentities: agentIdentitiesResource(bearer),
    delegations: delegationsResource(bearer, { fetch: options.fetch, timeoutMs: options.timeoutMs }),
    authority: authorityResource(bearer),
    escalations: escalationsResource(bearer),
    transparency: transparencyResource(bearer),
    disclosureReceipts: disclosureReceiptsResource(bearer),
    agreements: agreementsResource(bearer),
    inbox: inboxResource(bearer),
    transferRegister: transferRegisterResource(bearer),
    residencyPosture: residencyPostureResource(bearer),
    breachScope: breachScopeResource(bearer),
    credentials: credentialsResource(bearer),
    presentations: presentationsResource(bearer),
    ...protectResources(bearer),
    trustScores: trustScoresResource(bearer),
    vouches: vouchesResource(bearer),
    multiPartyAgreements: multiPartyAgreementsResource(bearer),
    collaborations: collaborationsResource(bearer),
    modules: modulesResource(bearer),
    governance: governanceResource(bearer),
    cleanRooms: cleanRoomsResource(bearer),
    meetingConsents: meetingConsentsResource(bearer),
    accounts: accountsResource(bearer),
    connections: connectionsResource(bearer),
    deviceLinks: deviceLinksResource(bearer),
    trustPairings: trustPairingsResource(bearer),
  };
}
