// Type tests of the Protect surface, checked by `tsc -b` (never run): each client method takes `z.input` of the
// schema the server validates with and answers `z.infer` of the schema it parses; each `@ts-expect-error` must meet
// an error, or the build fails.
import type { z } from 'zod/mini';
import {
  acceptDataOffer,
  confirmPortabilityTransfer,
  connect,
  createClient,
  createDataLicense,
  createDataOffer,
  createDataRequest,
  createPolicy,
  createPortabilityTransfer,
  listPolicies,
  recordDataLicenseAccess,
  type SvcList,
} from './index.js';
import type {
  completeDataRequestRequest,
  confirmPortabilityTransferRequest,
  createDataLicenseRequest,
  createDataOfferRequest,
  createDsarRequest,
  createPolicyRequest,
  createPortabilityTransferRequest,
  dataLicenseAccessEnvelope,
  dataLicenseEnvelope,
  dataOfferEnvelope,
  dataOfferTermsRequest,
  dataRequestEnvelope,
  declineDataOfferRequest,
  extendDataRequestRequest,
  markPortabilityTransferReadyRequest,
  policyEnvelope,
  policyTemplateEnvelope,
  portabilityTransferEnvelope,
  recordDataLicenseAccessRequest,
  rejectDataRequestRequest,
} from '@svc/schemas';
import type {
  DataLicensesResource,
  DataOffersResource,
  DataRequestsResource,
  PoliciesResource,
  PolicyTemplatesResource,
  PortabilityTransfersResource,
} from './resources/protect.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;
type Item<T> = T extends SvcList<infer U> ? U : never;

// ---- Requests are the schemas' input types -----------------------------------------------------------------------
export type PolicyRequests = [Expect<Equal<Parameters<PoliciesResource['create']>[0], z.input<typeof createPolicyRequest>>>];
export type DataRequestRequests = [
  Expect<Equal<Parameters<DataRequestsResource['create']>[0], z.input<typeof createDsarRequest>>>,
  Expect<Equal<Parameters<DataRequestsResource['extend']>[1], z.input<typeof extendDataRequestRequest>>>,
  Expect<Equal<Parameters<DataRequestsResource['complete']>[1], z.input<typeof completeDataRequestRequest> | undefined>>,
  Expect<Equal<Parameters<DataRequestsResource['reject']>[1], z.input<typeof rejectDataRequestRequest>>>,
];
export type DataLicenseRequests = [
  Expect<Equal<Parameters<DataLicensesResource['create']>[0], z.input<typeof createDataLicenseRequest>>>,
  Expect<Equal<Parameters<DataLicensesResource['recordAccess']>[1], z.input<typeof recordDataLicenseAccessRequest> | undefined>>,
];
export type DataOfferRequests = [
  Expect<Equal<Parameters<DataOffersResource['create']>[0], z.input<typeof createDataOfferRequest>>>,
  Expect<Equal<Parameters<DataOffersResource['counter']>[1], z.input<typeof dataOfferTermsRequest>>>,
  Expect<Equal<Parameters<DataOffersResource['revise']>[1], z.input<typeof dataOfferTermsRequest>>>,
  Expect<Equal<Parameters<DataOffersResource['decline']>[1], z.input<typeof declineDataOfferRequest> | undefined>>,
];
export type PortabilityRequests = [
  Expect<Equal<Parameters<PortabilityTransfersResource['create']>[0], z.input<typeof createPortabilityTransferRequest>>>,
  Expect<Equal<Parameters<PortabilityTransfersResource['markReady']>[1], z.input<typeof markPortabilityTransferReadyRequest>>>,
  Expect<Equal<Parameters<PortabilityTransfersResource['confirm']>[0], z.input<typeof confirmPortabilityTransferRequest>>>,
];

// ---- Responses are the schemas' output types ----------------------------------------------------------------------
export type Responses = [
  Expect<Equal<Awaited<ReturnType<PolicyTemplatesResource['get']>>, z.infer<typeof policyTemplateEnvelope>['policy_template']>>,
  Expect<Equal<Item<ReturnType<PolicyTemplatesResource['list']>>, z.infer<typeof policyTemplateEnvelope>['policy_template']>>,
  Expect<Equal<Awaited<ReturnType<PoliciesResource['create']>>, z.infer<typeof policyEnvelope>['policy']>>,
  Expect<Equal<Awaited<ReturnType<PoliciesResource['revoke']>>, z.infer<typeof policyEnvelope>['policy']>>,
  Expect<Equal<Item<ReturnType<PoliciesResource['list']>>, z.infer<typeof policyEnvelope>['policy']>>,
  Expect<Equal<Awaited<ReturnType<DataRequestsResource['create']>>, z.infer<typeof dataRequestEnvelope>['data_request']>>,
  Expect<Equal<Awaited<ReturnType<DataRequestsResource['complete']>>, z.infer<typeof dataRequestEnvelope>['data_request']>>,
  Expect<Equal<Item<ReturnType<DataRequestsResource['list']>>, z.infer<typeof dataRequestEnvelope>['data_request']>>,
  Expect<Equal<Awaited<ReturnType<DataLicensesResource['create']>>, z.infer<typeof dataLicenseEnvelope>['data_license']>>,
  Expect<
    Equal<Awaited<ReturnType<DataLicensesResource['recordAccess']>>, z.infer<typeof dataLicenseAccessEnvelope>['data_license_access']>
  >,
  Expect<Equal<Item<ReturnType<DataLicensesResource['listAccesses']>>, z.infer<typeof dataLicenseAccessEnvelope>['data_license_access']>>,
  Expect<Equal<Awaited<ReturnType<DataOffersResource['accept']>>, z.infer<typeof dataOfferEnvelope>['data_offer']>>,
  Expect<Equal<Item<ReturnType<DataOffersResource['list']>>, z.infer<typeof dataOfferEnvelope>['data_offer']>>,
  Expect<
    Equal<Awaited<ReturnType<PortabilityTransfersResource['confirm']>>, z.infer<typeof portabilityTransferEnvelope>['portability_transfer']>
  >,
  Expect<
    Equal<Item<ReturnType<PortabilityTransfersResource['list']>>, z.infer<typeof portabilityTransferEnvelope>['portability_transfer']>
  >,
];

// ---- The resources on the client are these groups -----------------------------------------------------------------
const svc = createClient({ baseUrl: 'http://127.0.0.1:4010', apiToken: 'secret' });
export type Wired = [
  Expect<Equal<typeof svc.policyTemplates, PolicyTemplatesResource>>,
  Expect<Equal<typeof svc.policies, PoliciesResource>>,
  Expect<Equal<typeof svc.dataRequests, DataRequestsResource>>,
  Expect<Equal<typeof svc.dataLicenses, DataLicensesResource>>,
  Expect<Equal<typeof svc.dataOffers, DataOffersResource>>,
  Expect<Equal<typeof svc.portabilityTransfers, PortabilityTransfersResource>>,
];

export async function protectCalls(): Promise<void> {
  const person = createClient({ baseUrl: 'http://127.0.0.1:4010', accessToken: 'at' });
  const policy = await person.policies.create({ template_id: 'portability', config: { data_categories: ['orders'] } });
  policy.owner_type satisfies 'person' | 'account';
  // @ts-expect-error template_id is one of the catalogue's ids
  await person.policies.create({ template_id: 'anything' });
  // @ts-expect-error an unknown field
  await person.policies.create({ template_id: 'retention', owner: 'me' });

  const request = await person.dataRequests.create({ application_id: 'tp_dev_1', dsar_type: 'access', scope: ['orders'] });
  request.due_date satisfies string;
  request.export?.receipt_ids satisfies string[] | undefined;
  // @ts-expect-error dsar_type is access, erasure, portability or rectification
  await person.dataRequests.create({ application_id: 'tp_dev_1', dsar_type: 'objection' });
  // @ts-expect-error scope is a string, a list of strings or an object
  await createDataRequest(person, { application_id: 'tp_dev_1', dsar_type: 'erasure', scope: 42 });
  // @ts-expect-error an extension needs its reason
  await svc.dataRequests.extend('dsar_us_1', { days: 10 });

  const license = await createDataLicense(svc, { agreement_id: 'agr_us_1', max_access_count: 3, terms: { purpose: 'research' } });
  license.remaining_accesses satisfies number | null;
  const access = await recordDataLicenseAccess(svc, license.id);
  access.sequence satisfies number;
  // @ts-expect-error max_access_count is a number
  await svc.dataLicenses.create({ agreement_id: 'agr_us_1', max_access_count: '3' });

  const offer = await createDataOffer(person, { policy_id: policy.id, application_id: 'tp_dev_1', terms: { price: 10 } });
  offer.status satisfies 'draft' | 'offered' | 'countered' | 'user_revised' | 'accepted' | 'declined' | 'expired';
  await person.dataOffers.offer(offer.id);
  await svc.dataOffers.counter(offer.id, { terms: { price: 8 }, message: 'How about 8?' });
  await acceptDataOffer(person, offer.id);
  // @ts-expect-error a counter carries terms
  await svc.dataOffers.counter(offer.id, { message: 'no terms' });
  // @ts-expect-error there is no status to set by hand
  await svc.dataOffers.decline(offer.id, { status: 'declined' });

  const transfer = await createPortabilityTransfer(person, {
    policy_id: policy.id,
    source_application_id: 'tp_dev_1',
    destination_application_id: 'tp_dev_2',
  });
  await svc.portabilityTransfers.markReady(transfer.id, { data_hash: 'sha256:...' });
  const confirmed = await confirmPortabilityTransfer(svc, { transfer_id: transfer.id, data_hash: 'sha256:...' });
  confirmed.status satisfies 'pending' | 'ready' | 'confirmed' | 'cancelled';
  // @ts-expect-error transfer_id is required
  await svc.portabilityTransfers.confirm({ data_hash: 'sha256:...' });

  for await (const p of listPolicies(svc, { template_id: 'data_offer', owner_type: 'person' }))
    p.acceptance?.accepted_by satisfies 'person' | 'organisation' | undefined;
  // @ts-expect-error owner_type is person or account
  listPolicies(svc, { owner_type: 'agent' });
  // @ts-expect-error a publishable connection is not accepted
  await createPolicy(connect({ baseUrl: 'http://127.0.0.1:4010', publishableKey: 'pk_test_abc' }), { template_id: 'retention' });
}
