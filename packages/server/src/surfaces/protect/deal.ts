// The data deal state machine (spec, "Data deal"): `draft -> offered -> countered -> user_revised -> accepted |
// declined | expired`, several counter-offers before acceptance. Pure: a table of allowed transitions and who may
// make each; the routes ask it before they write, and a property test walks it.
//
// Reading of the sequence (the spec gives no per-row conditions): the person ("user") drafts terms for their data
// and offers them to an organisation; the organisation counters; the person revises ("user_revised"); counters and
// revisions alternate as often as they like. Whoever did not propose the terms on the table may accept or decline
// them, so the counter rounds are optional (an organisation may accept an offer as it stands). An offer that is
// open (offered, countered, user_revised) expires when its time runs out. Accepted, declined and expired are final.
import type { DataOfferAction, DataOfferStatus } from '@svc/schemas';

/** Who makes a move: the person, the organisation (its API token), or the service (the clock). */
export type DealActor = 'person' | 'organisation' | 'service';

interface Edge {
  to: DataOfferStatus;
  by: DealActor;
}

/** Every allowed transition: state -> action -> (next state, the only actor who may make it). */
export const DEAL_TRANSITIONS: Readonly<Record<DataOfferStatus, Readonly<Partial<Record<DataOfferAction, Edge>>>>> = {
  draft: { offer: { to: 'offered', by: 'person' } },
  offered: {
    counter: { to: 'countered', by: 'organisation' },
    accept: { to: 'accepted', by: 'organisation' },
    decline: { to: 'declined', by: 'organisation' },
    expire: { to: 'expired', by: 'service' },
  },
  countered: {
    revise: { to: 'user_revised', by: 'person' },
    accept: { to: 'accepted', by: 'person' },
    decline: { to: 'declined', by: 'person' },
    expire: { to: 'expired', by: 'service' },
  },
  user_revised: {
    counter: { to: 'countered', by: 'organisation' },
    accept: { to: 'accepted', by: 'organisation' },
    decline: { to: 'declined', by: 'organisation' },
    expire: { to: 'expired', by: 'service' },
  },
  accepted: {},
  declined: {},
  expired: {},
};

/** The final states: nothing leaves them. */
export const TERMINAL_DEAL_STATES: readonly DataOfferStatus[] = ['accepted', 'declined', 'expired'];
/** The states in which an offer is open and can expire. */
export const OPEN_DEAL_STATES: readonly DataOfferStatus[] = ['offered', 'countered', 'user_revised'];

/** Whose move it is in `state` (the person while a draft; nobody once final). */
export function turnOf(state: DataOfferStatus): 'person' | 'organisation' | null {
  if (state === 'draft' || state === 'countered') return 'person';
  if (state === 'offered' || state === 'user_revised') return 'organisation';
  return null;
}

/** What the machine answers: the next state, or why the move is refused (a message naming the transition). */
export type DealStep = { ok: true; to: DataOfferStatus } | { ok: false; message: string };

const ACTION_TARGET: Record<DataOfferAction, DataOfferStatus> = {
  offer: 'offered',
  counter: 'countered',
  revise: 'user_revised',
  accept: 'accepted',
  decline: 'declined',
  expire: 'expired',
};

/** The state `action` by `actor` leads to from `state`, or the refusal. */
export function dealTransition(state: DataOfferStatus, action: DataOfferAction, actor: DealActor): DealStep {
  const edge = DEAL_TRANSITIONS[state][action];
  const target = ACTION_TARGET[action];
  if (!edge)
    return {
      ok: false,
      message: `A data offer cannot go from ${state} to ${target}${TERMINAL_DEAL_STATES.includes(state) ? ` (${state} is final)` : ''}.`,
    };
  if (edge.by !== actor) {
    const who = edge.by === 'service' ? 'the service (when the offer runs out of time)' : `the ${edge.by}`;
    return { ok: false, message: `A data offer goes from ${state} to ${target} only by ${who}, not by the ${actor}.` };
  }
  return { ok: true, to: edge.to };
}
