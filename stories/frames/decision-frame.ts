// The story-local decision page: what the service's hosted page would show at each state, posting the same protocol
// v2 messages through `createFramePort` (svc:ready, svc:state, svc:resize, svc:deadline, svc:complete, svc:error).
// Bundled by .storybook/statics.ts into the static dir and served at `{storybook}/svc/decisions/{token}[/embed]`,
// one origin with the stories, so `<svc-decision trust-url="{storybook}/svc">` accepts its messages.
import { createDeadlineClock, createFramePort, type FramePort, type Kind } from '@svc/protocol';
import { FRAME_STATES, type FrameState, type FrameStateName } from './states.js';

const parts = location.pathname.split('/').filter((p) => p && p !== 'index.html');
const embed = parts.at(-1) === 'embed';
const token = (embed ? parts.at(-2) : parts.at(-1)) ?? '';
const name = token.replace(/^dts_story_/, '') as FrameStateName;
const state: FrameState | undefined = FRAME_STATES[name];
// One origin serves the stories and this page; the embedding page is the parent (embed) or the opener (popup).
const host = (embed ? location.ancestorOrigins?.[0] : undefined) ?? location.origin;
const main = document.querySelector('main')!;

type Node_ = Node | string | false | null | undefined;
function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | ((e: Event) => void)> = {},
  ...children: Node_[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (typeof value === 'function') el.addEventListener(key.replace(/^on/, ''), value);
    else if (value === true) el.setAttribute(key, '');
    else if (value !== false) el.setAttribute(key, value);
  }
  for (const child of children) if (child) el.append(child);
  return el;
}

function show(...nodes: Node_[]): void {
  main.replaceChildren(...nodes.filter((n): n is Node | string => Boolean(n)));
  main.querySelector<HTMLElement>('h1, h2')?.focus({ preventScroll: true });
}

const STEPS = {
  consent: ['about', 'purposes', 'decision'],
  informed: ['information', 'read', 'understanding', 'signature'],
} as const;

function start(kind: Kind, s: FrameState): void {
  const port: FramePort = createFramePort({ targetOrigin: host, mode: embed ? 'embed' : 'popup', kind });
  const brand = s.brand ?? 'Northwind Clinic';
  let over = false;
  const deadlineAt = s.deadlineSeconds ? new Date(Date.now() + s.deadlineSeconds * 1000).toISOString() : null;

  // The content height, for the element to size its iframe (embed only).
  if (embed) {
    let last = -1;
    new ResizeObserver(() => {
      const height = Math.ceil(document.documentElement.scrollHeight);
      if (height !== last) port.post('svc:resize', { height: (last = height) });
    }).observe(document.body);
  }

  const banner = h('p', { class: 'deadline', role: 'status', hidden: true });
  if (deadlineAt) {
    createDeadlineClock({
      deadlineAt,
      onDeadline: (payload) => {
        if (over) return;
        port.post('svc:deadline', payload as never);
        if (payload.level === 'expired') {
          over = true;
          show(h('h1', { tabindex: '-1' }, 'This request has expired'), h('p', {}, 'Ask the site to send a new one.'));
        } else {
          banner.hidden = false;
          banner.textContent = `${payload.remaining_seconds} seconds left to answer.`;
        }
      },
    });
  }

  const finish = (outcome: NonNullable<FrameState['complete']>): void => {
    if (over) return;
    over = true;
    port.post('svc:complete', {
      outcome,
      exchange_token: `dxt_story_${name}_${outcome}`,
      completed_at: new Date().toISOString(),
    } as never);
    const words = {
      granted: 'You agreed',
      declined: 'You declined',
      approved: 'Approved',
      denied: 'Denied',
      countered: 'Counter-offer sent',
      signed: 'You signed',
    };
    show(h('h1', { tabindex: '-1' }, words[outcome]), h('p', {}, `${brand} has been told. You can close this window.`));
  };

  const step = (flow: 'consent' | 'informed', index: number, from?: string): void => {
    const steps = STEPS[flow];
    const current = steps[index]!;
    if (from !== undefined) {
      port.post('svc:state', { from, to: current, step_index: index, total_steps: steps.length } as never);
    }
    const next = () => step(flow, index + 1, current);
    const progress = h('p', { class: 'progress' }, `Step ${index + 1} of ${steps.length}`);
    const continueButton = (label = 'Continue', disabled = false) =>
      h('button', { type: 'button', class: 'primary', onclick: next, disabled }, label);
    const decide = h(
      'div',
      { class: 'actions' },
      h('button', { type: 'button', class: 'primary', onclick: () => finish('granted') }, 'Agree'),
      h('button', { type: 'button', onclick: () => finish('declined') }, 'Decline'),
    );
    if (flow === 'consent') {
      if (current === 'about') {
        show(
          progress,
          h('h1', { tabindex: '-1' }, `${brand} asks for your consent`),
          h('p', {}, 'They would like to send you appointment reminders and a monthly newsletter.'),
          banner,
          continueButton(),
        );
      } else if (current === 'purposes') {
        show(
          progress,
          h('h1', { tabindex: '-1' }, 'What you agree to'),
          h('ul', {}, h('li', {}, 'Appointment reminders by email'), h('li', {}, 'A monthly newsletter')),
          h('p', {}, 'You can withdraw your consent at any time.'),
          banner,
          continueButton(),
        );
      } else {
        show(
          progress,
          h('h1', { tabindex: '-1' }, 'Your decision'),
          h('p', {}, `Do you agree that ${brand} contacts you for these purposes?`),
          banner,
          decide,
        );
      }
      return;
    }
    if (current === 'information') {
      show(
        progress,
        h('h1', { tabindex: '-1' }, 'About the research study'),
        h('p', {}, 'The study follows how well a new reminder service works. Taking part takes 10 minutes a month for a year.'),
        banner,
        continueButton(),
      );
    } else if (current === 'read') {
      const box = h('input', {
        type: 'checkbox',
        id: 'read',
        onchange: () => {
          button.disabled = !box.checked;
        },
      });
      const button = continueButton('Continue', true);
      show(
        progress,
        h('h1', { tabindex: '-1' }, 'Before you decide'),
        h('p', {}, 'Please confirm you have read the information about the study.'),
        h('p', {}, box, ' ', h('label', { for: 'read' }, 'I have read this')),
        banner,
        button,
      );
    } else if (current === 'understanding') {
      const feedback = h('p', { role: 'status' });
      const choices = ['Yes, at any time', 'Only before the study starts', 'No'];
      const fieldset = h(
        'fieldset',
        {},
        h('legend', {}, 'Can you leave the study?'),
        ...choices.map((choice, i) =>
          h(
            'p',
            {},
            h('input', { type: 'radio', name: 'quiz', id: `quiz-${i}`, value: choice }),
            ' ',
            h('label', { for: `quiz-${i}` }, choice),
          ),
        ),
      );
      const check = () => {
        const picked = fieldset.querySelector<HTMLInputElement>('input:checked')?.value;
        if (picked === choices[0]) next();
        else feedback.textContent = 'Not quite: you can leave the study at any time, without giving a reason.';
      };
      show(
        progress,
        h('h1', { tabindex: '-1' }, 'Check your understanding'),
        fieldset,
        feedback,
        banner,
        h('button', { type: 'button', class: 'primary', onclick: check }, 'Check answer'),
      );
    } else {
      show(
        progress,
        h('h1', { tabindex: '-1' }, 'Your decision'),
        h('p', {}, 'Do you agree to take part in the research study?'),
        banner,
        decide,
      );
    }
  };

  const approval = (): void => {
    const amount = h('input', { type: 'text', id: 'amount', inputmode: 'decimal', value: '1000', autocomplete: 'off' });
    const counter = h(
      'div',
      { class: 'counter', hidden: true },
      h('label', { for: 'amount' }, 'Your amount (EUR)'),
      ' ',
      amount,
      ' ',
      h('button', { type: 'button', class: 'primary', onclick: () => finish('countered') }, 'Send counter-offer'),
    );
    show(
      h('h1', { tabindex: '-1' }, 'Approve a payment'),
      h(
        'dl',
        {},
        h('dt', {}, 'Payee'),
        h('dd', {}, 'Acme Supplies Ltd'),
        h('dt', {}, 'Amount'),
        h('dd', {}, 'EUR 1,250.00'),
        h('dt', {}, 'Requested by'),
        h('dd', {}, 'Sam Taylor, Purchasing'),
      ),
      banner,
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'button', class: 'primary', onclick: () => finish('approved') }, 'Approve'),
        h('button', { type: 'button', onclick: () => finish('denied') }, 'Deny'),
        h(
          'button',
          {
            type: 'button',
            onclick: () => {
              if (!counter.hidden) return;
              counter.hidden = false;
              port.post('svc:state', { from: 'pending', to: 'countering', kind_payload: { amount: '1250.00', currency: 'EUR' } } as never);
              amount.focus();
            },
          },
          'Counter',
        ),
      ),
      counter,
    );
  };

  const signature = (): void => {
    const note = h('textarea', { id: 'change', rows: '3' });
    const counter = h(
      'div',
      { class: 'counter', hidden: true },
      h('label', { for: 'change' }, 'The change you propose'),
      ' ',
      note,
      ' ',
      h('button', { type: 'button', class: 'primary', onclick: () => finish('countered') }, 'Send counter-proposal'),
    );
    show(
      h('h1', { tabindex: '-1' }, 'Sign the supply agreement'),
      h(
        'dl',
        {},
        h('dt', {}, 'Agreement'),
        h('dd', {}, 'Supply of reminder devices, 2027'),
        h('dt', {}, 'Parties'),
        h('dd', {}, `${brand} (DE) and Acme Supplies Ltd (US)`),
        h('dt', {}, 'Signed so far'),
        h('dd', {}, '1 of 2'),
      ),
      banner,
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'button', class: 'primary', onclick: () => finish('signed') }, 'Sign'),
        h('button', { type: 'button', onclick: () => finish('declined') }, 'Decline'),
        h(
          'button',
          {
            type: 'button',
            onclick: () => {
              if (!counter.hidden) return;
              counter.hidden = false;
              port.post('svc:state', { from: 'pending', to: 'countering', kind_payload: { parties_signed: 1, parties_total: 2 } } as never);
              note.focus();
            },
          },
          'Propose a change',
        ),
      ),
      counter,
    );
  };

  port.post('svc:ready', {
    kind,
    session_token: token,
    deadline_at: deadlineAt,
    branding: { name: brand },
    mode: embed ? 'embed' : 'popup',
    locale: 'en',
  } as never);

  if (s.flow === 'approval') approval();
  else if (s.flow === 'signature') signature();
  else step(s.flow, s.step ?? 0);
  if (s.complete) finish(s.complete);
  if (s.error) {
    port.post('svc:error', s.error as never);
    over = true;
    show(
      h('h1', { tabindex: '-1' }, 'Something went wrong'),
      h('p', {}, s.error.message),
      h('button', { type: 'button', class: 'primary', onclick: () => location.reload() }, 'Try again'),
    );
  }
}

if (!state) {
  show(h('h1', {}, 'Unknown story state'), h('p', {}, `No story state for token ${token}.`));
} else if (state.quiet) {
  show(h('p', {}, 'Loading…'));
} else {
  start(state.kind, state);
}
