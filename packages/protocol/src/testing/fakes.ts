// Test doubles for the unit tests (not published): a window that records posts and calls its `message` listeners
// directly, so an exception in a listener reaches the test instead of the event loop, and valid sample payloads.
import type { MessageEventTarget } from '../lib/receiver.js';
import type { Kind, MessageType, PayloadOf } from '../lib/schemas.js';

/** A `postMessage` call a fake window received. */
export interface Posted {
  message: unknown;
  targetOrigin: string;
}

/** What a fake `message` event carries; any field may be missing or hostile. */
export interface MessageEventInit {
  data?: unknown;
  origin?: unknown;
  source?: unknown;
}

type Listener = (event: MessageEvent) => void;

/** A window stand-in: records `postMessage` calls and dispatches `message` events synchronously. */
export class FakeWindow implements MessageEventTarget {
  readonly posted: Posted[] = [];
  readonly listeners = new Set<Listener>();
  // A top-level window is its own parent; tests that frame it set `parent` to the host.
  parent: FakeWindow | null = this;
  opener: FakeWindow | null = null;
  closed = false;

  constructor(readonly name = 'window') {}

  addEventListener(type: 'message', listener: Listener): void {
    if (type === 'message') this.listeners.add(listener);
  }

  removeEventListener(type: 'message', listener: Listener): void {
    if (type === 'message') this.listeners.delete(listener);
  }

  postMessage(message: unknown, targetOrigin: string): void {
    this.posted.push({ message, targetOrigin });
  }

  /** Calls every `message` listener with `event` (a plain object or anything else); exceptions propagate. */
  emit(event: MessageEventInit | unknown): void {
    for (const listener of [...this.listeners]) listener(event as MessageEvent);
  }
}

/** A valid payload of every message type for each kind. */
export const samplePayloads: { [K in Kind]: { [T in MessageType]: PayloadOf<T, K> } } = {
  consent: {
    'svc:ready': {
      kind: 'consent',
      session_token: 'dts_123',
      deadline_at: '2030-01-01T00:10:00Z',
      branding: { name: 'Acme', logo_url: 'https://acme.example/logo.svg', accent: '#0a7' },
      mode: 'embed',
      locale: 'en-GB',
    },
    'svc:state': { from: 'purposes', to: 'review', step_index: 1, total_steps: 3 },
    'svc:complete': { outcome: 'granted', exchange_token: 'ext_123', completed_at: '2030-01-01T00:05:00.250Z' },
    'svc:cancel': { reason: 'user_closed', cancelled_by: 'user' },
    'svc:error': { code: 'session_expired', message: 'The session expired.', fatal: true, recoverable_via: null },
    'svc:resize': { height: 640 },
    'svc:deadline': { remaining_seconds: 30, level: 'warning', deadline_at: '2030-01-01T00:10:00Z' },
  },
  approval: {
    'svc:ready': {
      kind: 'approval',
      session_token: 'dts_456',
      deadline_at: null,
      branding: {},
      mode: 'popup',
      locale: 'de',
    },
    'svc:state': { from: 'review', to: 'sign', kind_payload: { amount: 120, currency: 'EUR' } },
    'svc:complete': { outcome: 'countered', exchange_token: 'ext_456', completed_at: '2030-01-01T00:05:00Z' },
    'svc:cancel': { reason: 'host_navigated', cancelled_by: 'host' },
    'svc:error': { code: 'network', message: 'Offline.', fatal: false, recoverable_via: 'retry' },
    'svc:resize': { height: 0 },
    'svc:deadline': { remaining_seconds: 0, level: 'expired', deadline_at: '2030-01-01T00:10:00Z' },
  },
  signature_request: {
    'svc:ready': {
      kind: 'signature_request',
      session_token: 'dts_789',
      deadline_at: '2030-01-01T00:10:00Z',
      branding: { name: 'Acme GmbH' },
      mode: 'embed',
      locale: 'de-DE',
    },
    'svc:state': { from: 'review', to: 'signing', kind_payload: { agreement_id: 'agr_1', parties_signed: 1, parties_total: 2 } },
    'svc:complete': { outcome: 'signed', exchange_token: 'ext_789', completed_at: '2030-01-01T00:05:00Z' },
    'svc:cancel': { reason: 'user_closed', cancelled_by: 'frame' },
    'svc:error': { code: 'decision_expired', message: 'This request has expired.', fatal: true, recoverable_via: null },
    'svc:resize': { height: 1280 },
    'svc:deadline': { remaining_seconds: 5, level: 'warning', deadline_at: '2030-01-01T00:10:00Z' },
  },
};
