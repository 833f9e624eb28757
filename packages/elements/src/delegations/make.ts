// The "let someone act for you" form of <svc-delegations> without its markup: what the person typed, checked as the
// service will check it (the organisation API's scope, email and agent id shapes, a positive value in a currency, a
// day after today), turned into the `POST /api/v1/me/delegations` body and into a grant-shaped draft whose bounds the
// confirm step says in plain words.
import type { DelegationRow } from '../events/svc-delegations-change.js';

/** The form's fields, as typed. */
export interface MakeForm {
  organisation: string;
  kind: DelegationRow['delegation_type'];
  delegate: string;
  scopes: string;
  amount: string;
  currency: string;
  /** A day (`YYYY-MM-DD`, the date input's value), or empty. */
  until: string;
}

export type MakeField = keyof MakeForm;

/** Why a field cannot be sent, as a key of the strings' `invalid` map. */
export type MakeProblem = 'organisation' | 'email' | 'agent' | 'scopes' | 'scope' | 'amount' | 'currency' | 'until';

/** A checked form: the request to send and the grant as it would read, for the confirm step. */
export interface MakeDraft {
  body: Record<string, unknown>;
  preview: DelegationRow;
  organisation: string;
}

export const EMPTY_FORM: MakeForm = { organisation: '', kind: 'peer', delegate: '', scopes: '', amount: '', currency: '', until: '' };

const SCOPE = /^[A-Za-z0-9_.:/-]{1,100}$/;
const AGENT = /^agt_[A-Za-z0-9_]{1,60}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The day after `until` begins, in the person's time zone: a grant "until" a day lasts all of that day. */
const endOf = (day: string) => new Date(new Date(`${day}T00:00:00`).getTime() + 86_400_000);

/** The problems of `form`, field by field, in the form's order. */
export function problemsOf(form: MakeForm, organisations: number, now = Date.now()): Partial<Record<MakeField, MakeProblem>> {
  const out: Partial<Record<MakeField, MakeProblem>> = {};
  if (organisations > 1 && !form.organisation) out.organisation = 'organisation';
  const agent = form.kind === 'ai_agent';
  if (agent ? !AGENT.test(form.delegate.trim()) : !EMAIL.test(form.delegate.trim())) out.delegate = agent ? 'agent' : 'email';
  const scopes = scopesOf(form.scopes);
  if (!scopes.length) out.scopes = 'scopes';
  else if (!scopes.every((s) => SCOPE.test(s))) out.scopes = 'scope';
  if (agent && (form.amount.trim() || form.currency.trim())) {
    const amount = Number(form.amount.trim().replace(',', '.'));
    if (!(amount > 0 && amount <= 1e12)) out.amount = 'amount';
    if (!/^[A-Za-z]{3}$/.test(form.currency.trim())) out.currency = 'currency';
  }
  if (form.until && !(endOf(form.until).getTime() > now)) out.until = 'until';
  return out;
}

const scopesOf = (text: string) => [...new Set(text.split(/[\s,]+/).filter(Boolean))];

/** The request and its preview; call once `problemsOf` found none. */
export function draftOf(form: MakeForm, organisations: readonly { id: string; name: string }[], now = Date.now()): MakeDraft {
  const agent = form.kind === 'ai_agent';
  const organisation = organisations.length > 1 ? organisations.find((o) => o.id === form.organisation) : organisations[0];
  const value =
    agent && form.amount.trim()
      ? { max_per_transaction: Number(form.amount.trim().replace(',', '.')), currency: form.currency.trim().toUpperCase() }
      : undefined;
  const expires = form.until ? new Date(endOf(form.until).getTime() - 1000).toISOString() : undefined;
  const grant = {
    delegation_type: form.kind,
    delegated_scopes: scopesOf(form.scopes),
    ...(expires ? { expires_at: expires } : {}),
    ...(value ? { bounds: { value } } : {}),
  };
  const delegate = form.delegate.trim();
  const body = {
    ...(organisation ? { organisation_id: organisation.id } : {}),
    ...(agent ? { delegate_id: delegate } : { delegate_email: delegate }),
    delegation_grant: grant,
  };
  const preview: DelegationRow = {
    id: 'new',
    status: 'active',
    delegation_type: form.kind,
    organisation: organisation ?? { id: '', name: '' },
    delegate: { type: agent ? 'agent' : 'person', id: delegate, name: delegate },
    delegated_scopes: grant.delegated_scopes,
    max_actions_per_day: null,
    bounds: value ? { value } : {},
    allow_sub_delegation: false,
    parent_grant_id: null,
    created_at: new Date(now).toISOString(),
    expires_at: expires ?? null,
    suspended_at: null,
    revoked_at: null,
  };
  return { body, preview, organisation: organisation?.name ?? '' };
}
