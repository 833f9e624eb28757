// Type tests of the Verify and Agree resources, checked by `tsc -b` (never run): every method takes `z.input` of the
// request schema the server validates with and answers `z.infer` of the response schema; a wrong field is an error.
import type { z } from 'zod/mini';
import {
  addCollaborationMember,
  castQuorumVote,
  createClient,
  createCollaboration,
  createMultiPartyAgreement,
  createVouch,
  dissolveCollaboration,
  getCollaboration,
  getCollaborationMembership,
  getMultiPartyAgreement,
  getTrustScore,
  getVouch,
  listCollaborations,
  listMultiPartyAgreements,
  listVouches,
  revokeCollaborationMembership,
  revokeVouch,
  signCollaborationMembership,
  type SvcList,
} from './index.js';
import type {
  addMembershipRequest,
  castQuorumVoteRequest,
  collaboration,
  collaborationDetail,
  collaborationMembership,
  createCollaborationRequest,
  createMultiPartyAgreementRequest,
  createVouchRequest,
  multiPartyAgreement,
  quorumVoteCast,
  signMembershipRequest,
  trustScore,
  vouch,
} from '@svc/schemas';

/** True when A and B are the same type (both ways assignable). */
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(_proof: Equals<A, B>): void => undefined;

type Param<F, I extends number> = F extends (...args: infer P) => unknown ? NonNullable<P[I]> : never;
type Answer<F> = F extends (...args: never[]) => Promise<infer R> ? R : F extends (...args: never[]) => SvcList<infer T> ? T : never;

const baseUrl = 'http://127.0.0.1:4010';

export function requestsAreTheSchemasInputs(): void {
  same<Param<typeof createVouch, 1>, z.input<typeof createVouchRequest>>(true);
  same<Param<typeof createMultiPartyAgreement, 1>, z.input<typeof createMultiPartyAgreementRequest>>(true);
  same<Param<typeof castQuorumVote, 2>, z.input<typeof castQuorumVoteRequest>>(true);
  same<Param<typeof createCollaboration, 1>, z.input<typeof createCollaborationRequest>>(true);
  same<Param<typeof addCollaborationMember, 2>, z.input<typeof addMembershipRequest>>(true);
  same<Param<typeof signCollaborationMembership, 3>, z.input<typeof signMembershipRequest>>(true);
  // @ts-expect-error a vouch request is not a collaboration request
  same<Param<typeof createVouch, 1>, z.input<typeof createCollaborationRequest>>(true);
}

export function responsesAreTheSchemasOutputs(): void {
  same<Answer<typeof getTrustScore>, z.infer<typeof trustScore>>(true);
  same<Answer<typeof createVouch>, z.infer<typeof vouch>>(true);
  same<Answer<typeof getVouch>, z.infer<typeof vouch>>(true);
  same<Answer<typeof revokeVouch>, z.infer<typeof vouch>>(true);
  same<Answer<typeof listVouches>, z.infer<typeof vouch>>(true);
  same<Answer<typeof createMultiPartyAgreement>, z.infer<typeof multiPartyAgreement>>(true);
  same<Answer<typeof getMultiPartyAgreement>, z.infer<typeof multiPartyAgreement>>(true);
  same<Answer<typeof listMultiPartyAgreements>, z.infer<typeof multiPartyAgreement>>(true);
  same<Answer<typeof castQuorumVote>, z.infer<typeof quorumVoteCast>>(true);
  same<Answer<typeof createCollaboration>, z.infer<typeof collaborationDetail>>(true);
  same<Answer<typeof getCollaboration>, z.infer<typeof collaborationDetail>>(true);
  same<Answer<typeof dissolveCollaboration>, z.infer<typeof collaborationDetail>>(true);
  same<Answer<typeof listCollaborations>, z.infer<typeof collaboration>>(true);
  same<Answer<typeof addCollaborationMember>, z.infer<typeof collaborationMembership>>(true);
  same<Answer<typeof getCollaborationMembership>, z.infer<typeof collaborationMembership>>(true);
  same<Answer<typeof signCollaborationMembership>, z.infer<typeof collaborationMembership>>(true);
  same<Answer<typeof revokeCollaborationMembership>, z.infer<typeof collaborationMembership>>(true);
  // @ts-expect-error a list item has no memberships: it is not the detail
  same<Answer<typeof listCollaborations>, z.infer<typeof collaborationDetail>>(true);
}

export async function theResourcesCallTheSameFunctions(): Promise<void> {
  const svc = createClient({ baseUrl, accessToken: 'at' });
  const score = await svc.trustScores.get('prs_us_1');
  score.subject_type satisfies 'person' | 'agent';
  score.factors[0]?.weight satisfies number | undefined;
  same<Param<typeof svc.vouches.create, 0>, z.input<typeof createVouchRequest>>(true);
  same<Param<typeof svc.collaborations.addMember, 1>, z.input<typeof addMembershipRequest>>(true);
  same<Param<typeof svc.agreements.castQuorumVote, 1>, z.input<typeof castQuorumVoteRequest>>(true);

  await svc.vouches.create({ vouchee_id: 'prs_us_2', statement: 'Reliable.' });
  // @ts-expect-error a vouch names its vouchee by vouchee_id
  await svc.vouches.create({ person_id: 'prs_us_2' });
  // @ts-expect-error a vouch has no weight of its own
  await svc.vouches.create({ vouchee_id: 'prs_us_2', weight: 10 });
  for await (const v of svc.vouches.list({ direction: 'given' })) v.status satisfies 'active' | 'revoked';
  // @ts-expect-error direction is given or received
  svc.vouches.list({ direction: 'both' });

  const vote = await svc.agreements.castQuorumVote('agr_us_1', { vote: 'approve', comment: 'Agreed.' });
  vote.agreement.status satisfies 'pending' | 'partially_signed' | 'active';
  // @ts-expect-error a quorum vote is approve or deny
  await svc.agreements.castQuorumVote('agr_us_1', { vote: 'abstain' });
  const multi = await svc.multiPartyAgreements.get('agr_us_1');
  multi.signed_count satisfies number;
  multi.quorum_votes satisfies { vote: 'approve' | 'deny' }[];

  const c = await svc.collaborations.create();
  c.memberships satisfies { status: 'pending' | 'signed' | 'revoked' }[];
  c.initiator_id satisfies string | null;
  await svc.collaborations.create({ participant_ids: ['prs_us_2'], terms: { purpose: 'research' } });
  // @ts-expect-error participants are named by participant_ids
  await svc.collaborations.create({ participants: ['prs_us_2'] });
  await svc.collaborations.addMember(c.id, { user_id: 'prs_us_3', role: 'observer' });
  // @ts-expect-error the initiator is never added, only made by creating
  await svc.collaborations.addMember(c.id, { user_id: 'prs_us_3', role: 'initiator' });
  await svc.collaborations.signMembership(c.id, 'cmb_us_1', { shared_data_categories: ['calendar'] });
  // @ts-expect-error categories are a list
  await svc.collaborations.signMembership(c.id, 'cmb_us_1', { shared_data_categories: 'calendar' });
}
