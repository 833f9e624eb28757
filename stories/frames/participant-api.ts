// The one stand-in of the decision stories: the participant API. The page is the service's real hosted decision page
// (`<svc-decision-page>` from packages/server, its own shell and stylesheet); Storybook is a static host, so this
// module answers the page's same-origin calls (`POST {api}/transitions`, `POST {api}/drops`, participant-client.ts)
// in the page's `fetch`, from the states in states.ts: each action leads to the state its `next` names, answered
// as the service answers (`TransitionResult`, or a `{message, code}` refusal). Before the page reads its data block
// it also makes the block this page's: `target_origin` is the story's origin (stories and page share one origin),
// and the render time moves to now, so deadlines count from when the page opens. It must run before
// `<svc-decision-page>` is defined: decision-story.ts imports it first.
import type { PageData, PageProgress, TransitionRequest, TransitionResult } from '../../packages/server/src/hosted/pages/page-data.js';
import { FRAME_STATES, type FrameState, type FrameStateName, SANDBOX_CODE, stateOfToken } from './states.js';

const TERMINAL = new Set(['fulfilled', 'declined', 'approved', 'denied', 'countered', 'signed', 'cancelled', 'expired', 'revoked']);

const block = document.getElementById('svc-decision-data');
const data = JSON.parse(block?.textContent || 'null') as PageData | null;
let current: FrameStateName | undefined = data ? stateOfToken(data.session_token) : undefined;

if (block && data) {
  const opened = Date.now();
  const shift = opened - Date.parse(data.server_now);
  block.textContent = JSON.stringify({
    ...data,
    target_origin: location.origin,
    server_now: new Date(opened).toISOString(),
    deadline_at: new Date(Date.parse(data.deadline_at) + shift).toISOString(),
  } satisfies PageData);
}

const reply = (status: number, body?: unknown): Response =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const refuse = (code: string, message: string): Response => reply(422, { message, code });

/** Where a state's decision stands, as the participant API reports it. */
function progressOf(state: FrameState): PageProgress {
  const { status, step_index, total_steps, outcome, subject_email, completed_at } = state.data;
  return { status, step_index, total_steps, outcome, subject_email, completed_at: completed_at && new Date().toISOString() };
}

/** A refusal of `request` in `state`, as the service would refuse it; undefined when the step is taken. */
function refusalOf(state: FrameState, request: TransitionRequest): Response | undefined {
  const { status, step_index } = state.data;
  if (state.failure) return reply(state.failure.status, { message: state.failure.message, code: state.failure.code });
  if (TERMINAL.has(status)) return refuse('decision_completed', `This decision is already ${status}.`);
  if (request.step_index !== undefined && request.step_index !== step_index) {
    return refuse('stale_step', 'The page is out of date: this step was already taken.');
  }
  if (request.action === 'verify' && request.code !== SANDBOX_CODE)
    return refuse('wrong_code', 'That code is not right. Check it and try again.');
  if (request.action === 'answer' && request.answer !== state.answer) {
    return refuse('wrong_answer', 'That is not right. Read the information again and choose another answer.');
  }
  if (!state.next?.[request.action])
    return refuse('invalid_transition', `"${request.action}" is not possible while the decision is ${status}.`);
  return undefined;
}

/** `POST {api}/transitions`: the step's refusal, or the state it leads to. */
function transition(request: TransitionRequest): Response {
  const from = FRAME_STATES[current!];
  const refusal = refusalOf(from, request);
  if (refusal) return refusal;
  const name = from.next![request.action]!;
  const progress = progressOf(FRAME_STATES[name]);
  const changed = name !== current;
  current = name;
  const result: TransitionResult = {
    progress,
    transition: changed
      ? { from: from.data.status, to: progress.status, step_index: progress.step_index, total_steps: progress.total_steps }
      : null,
    ...(progress.outcome && progress.completed_at
      ? { completion: { outcome: progress.outcome, exchange_token: `dxt_story_${name}`, completed_at: progress.completed_at } }
      : {}),
    ...(request.action === 'send_code' ? { sandbox_code: SANDBOX_CODE } : {}),
  };
  return reply(200, result);
}

const serviceFetch = window.fetch.bind(window);

window.fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const url = new URL(input instanceof Request ? input.url : String(input), location.href);
  if (!data || !current || url.origin !== location.origin || !url.pathname.startsWith(`${data.api}/`)) {
    return serviceFetch(input, init);
  }
  const endpoint = url.pathname.slice(data.api.length + 1);
  if (init?.method !== 'POST') return reply(405, { message: 'The participant API takes POST only.', code: 'method_not_allowed' });
  // Messages the page could not post (a redirect-mode page, or a popup opened without an opener): counted and ignored.
  if (endpoint === 'drops') return reply(204);
  if (endpoint === 'transitions') return transition(JSON.parse(String(init.body)) as TransitionRequest);
  return reply(404, { message: `No participant endpoint ${endpoint}.`, code: 'not_found' });
};

// The loading state: the page's script never gets past this point, so the element is never defined and the page
// never says it is ready.
if (current && FRAME_STATES[current].quiet) await new Promise<never>(() => {});
