// <svc-decision> in every engine against the real hosted decision page of a reference server of its own
// (test/decisions-server.ts, whose test clock it moves): how a decision ends without an answer. A person choosing
// "Decide later" in the frame (svc:cancel from the frame), the host's cancel() (svc:cancel to the frame), and a page
// that cannot go on, which says so at once with svc:error, so the host needs no clock of its own: loaded after its
// deadline, reaching its deadline while open, loaded for a decision already declined, or for no decision at all.
import { expect, fixtureCleanup, oneEvent, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { SvcDecision } from './decision.js';

interface Set {
  base_url: string;
  /** Two open consent decisions, embedded on this page's origin. */
  open: [string, string];
  /** Past its deadline. */
  expired: string;
  /** `closing_seconds` from its deadline when the set was made. */
  closing: string;
  closing_seconds: number;
  /** Declined already through the participant API. */
  declined: string;
}

interface Seen {
  type: string;
  detail: Record<string, unknown>;
}

const EVENTS = ['svc-ready', 'svc-state', 'svc-complete', 'svc-cancel', 'svc-error', 'svc-deadline'] as const;

/** Records every svc event (but resize) that reaches `document`, in order. */
function record(): Seen[] & { stop(): void } {
  const seen = [] as unknown as Seen[] & { stop(): void };
  const listener = (event: Event) => seen.push({ type: event.type, detail: (event as CustomEvent).detail });
  for (const type of EVENTS) document.addEventListener(type, listener);
  seen.stop = () => {
    for (const type of EVENTS) document.removeEventListener(type, listener);
  };
  return seen;
}

/** A new set at the reference server (asked again while it starts). */
async function made(): Promise<Set> {
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const answer = await executeServerCommand<Set | { starting: true }, { origin: string }>('svc-decisions-person', {
      origin: location.origin,
    });
    if (!('starting' in answer)) return answer;
  }
  throw new Error('the decisions server did not start');
}

const press = (key: string) => executeServerCommand('svc-press', key);

describe('<svc-decision> and the hosted page: cancel and errors', () => {
  let set: Set;
  let seen: ReturnType<typeof record>;

  before(async function () {
    // The first set starts the reference server: give it the time that takes on a busy machine.
    this.timeout(120_000);
    await made();
  });
  beforeEach(async function () {
    this.timeout(30_000);
    set = await made();
    seen = record();
  });
  afterEach(() => {
    seen.stop();
    fixtureCleanup();
    for (const el of document.querySelectorAll('svc-decision, button.after')) el.remove();
  });

  /** Mounts the element for `token` on the set's server. */
  function mount(token: string): SvcDecision {
    const el = document.createElement('svc-decision') as SvcDecision;
    el.token = token;
    el.trustUrl = set.base_url;
    document.body.append(el);
    return el;
  }

  const types = () => seen.map((s) => s.type);
  const details = (type: string) => seen.filter((s) => s.type === type).map((s) => s.detail);

  /** Mounts `token` once more and returns its first svc-error: what the page says of a decision already over. */
  async function errorOnLoad(token: string) {
    const el = mount(token);
    const { detail } = await oneEvent(el, 'svc-error');
    return { el, detail: detail as Record<string, unknown> };
  }

  it('a person choosing "Decide later" in the frame (by keyboard): svc:cancel from the user, the element ends cancelled, and the service recorded it', async function () {
    this.timeout(30_000);
    const el = mount(set.open[0]);
    await oneEvent(el, 'svc-ready');
    // A control after the element: Shift+Tab from it reaches the frame's last control, "Decide later".
    const after = Object.assign(document.createElement('button'), { className: 'after', textContent: 'After' });
    document.body.append(after);
    after.focus();
    const cancelled = oneEvent(el, 'svc-cancel');
    await press('Shift+Tab');
    await press('Enter');
    const { detail } = await cancelled;
    expect(detail).to.deep.equal({ reason: 'user_cancelled', cancelled_by: 'user', kind: 'consent' });
    expect(el.status).to.equal('cancelled');
    await waitUntil(() => details('svc-state').some((d) => d.to === 'cancelled'), 'the page says the decision is cancelled');
    expect(details('svc-complete')).to.deep.equal([]);
    expect(details('svc-error')).to.deep.equal([]);
    expect(details('svc-cancel')).to.have.length(1);
    el.remove();

    const again = await errorOnLoad(set.open[0]);
    expect(again.detail).to.deep.include({ code: 'decision_completed', fatal: true, recoverable_via: 'new_decision', kind: 'consent' });
    expect(again.detail.message).to.match(/already cancelled/);
  });

  it('the host cancelling: svc:cancel to the frame, which records it and sends no cancel back', async function () {
    this.timeout(30_000);
    const el = mount(set.open[1]);
    await oneEvent(el, 'svc-ready');
    expect(el.cancel('host_navigated')).to.equal(true);
    expect(el.status).to.equal('cancelled');
    await waitUntil(() => details('svc-state').some((d) => d.to === 'cancelled'), 'the page recorded the host’s cancel');
    expect(details('svc-cancel')).to.deep.equal([{ reason: 'host_navigated', cancelled_by: 'host', kind: 'consent' }]);
    expect(el.cancel('twice')).to.equal(false);
    el.remove();

    const again = await errorOnLoad(set.open[1]);
    expect(again.detail).to.deep.include({ code: 'decision_completed', recoverable_via: 'new_decision' });
    expect(again.detail.message).to.match(/already cancelled/);
    expect(details('svc-cancel')).to.have.length(1);
  });

  it('a page loaded after its deadline: svc:ready, svc:deadline expired, then a fatal svc:error decision_expired', async () => {
    const el = mount(set.expired);
    await oneEvent(el, 'svc-error');
    expect(types()).to.deep.equal(['svc-ready', 'svc-deadline', 'svc-error']);
    expect(details('svc-deadline')[0]).to.deep.include({ level: 'expired', remaining_seconds: 0 });
    expect(details('svc-error')[0]).to.deep.equal({
      code: 'decision_expired',
      message: 'This decision has expired.',
      fatal: true,
      recoverable_via: 'new_decision',
      kind: 'consent',
    });
    await el.updateComplete;
    expect(el.status).to.equal('expired');
    expect(el.cancel()).to.equal(false);
  });

  it('a page whose deadline passes while it is open: svc:deadline expired, svc:state to expired, then svc:error decision_expired', async function () {
    this.timeout(30_000);
    const el = mount(set.closing);
    await oneEvent(el, 'svc-ready');
    expect(el.status).to.equal('ready');
    const error = oneEvent(el, 'svc-error');
    const { detail } = await error;
    expect(detail).to.deep.include({ code: 'decision_expired', fatal: true, recoverable_via: 'new_decision' });
    // The T-5 s warning comes first when the page loaded with more than 5 s left.
    const ending = seen.filter((s) => s.detail.level !== 'warning').map((s) => s.type);
    expect(ending).to.deep.equal(['svc-ready', 'svc-deadline', 'svc-state', 'svc-error']);
    expect(details('svc-deadline').filter((d) => d.level === 'expired')).to.have.length(1);
    expect(details('svc-deadline').at(-1)).to.deep.include({ level: 'expired', remaining_seconds: 0 });
    expect(details('svc-state')[0]).to.deep.include({ to: 'expired' });
    await el.updateComplete;
    expect(el.status).to.equal('expired');
  });

  it('a page loaded for a decision already declined: svc:ready, then a fatal svc:error decision_completed', async () => {
    const el = mount(set.declined);
    const { detail } = await oneEvent(el, 'svc-error');
    expect(detail).to.deep.equal({
      code: 'decision_completed',
      message: 'This decision is already declined: create a new decision to ask again.',
      fatal: true,
      recoverable_via: 'new_decision',
      kind: 'consent',
    });
    expect(types()).to.deep.equal(['svc-ready', 'svc-error']);
    expect(details('svc-complete')).to.deep.equal([]);
    // The decision is over: the status says so, while the frame keeps showing the page's own words.
    await el.updateComplete;
    expect(el.status).to.equal('error');
    expect(el.matches(':state(error)')).to.equal(true);
    expect(el.shadowRoot!.querySelector('[part~="error"]')).to.equal(null);
    expect(getComputedStyle(el.shadowRoot!.querySelector('iframe')!).display).to.equal('block');
    expect(el.cancel()).to.equal(false);
  });

  it('a page loaded for no decision: a fatal svc:error decision_not_found, and the error view instead of the spinner', async () => {
    const { el, detail } = await errorOnLoad(`dts_${'q'.repeat(43)}`);
    expect(detail).to.deep.include({ code: 'decision_not_found', fatal: true, recoverable_via: 'new_decision', kind: 'consent' });
    await el.updateComplete;
    expect(el.status).to.equal('error');
    expect(types()).to.deep.equal(['svc-error']);
  });
});
