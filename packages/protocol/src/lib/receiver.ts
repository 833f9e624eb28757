import { inspectMessage } from './message.js';
import type { Kind, MessageType, SvcMessage } from './schemas.js';

/**
 * Why a received message was not delivered, in the order the checks run: wrong `event.origin`, wrong
 * `event.source`, `version` not 2, a `type` without the `svc:` prefix (or one this side does not accept), an
 * envelope or payload that does not validate, a `kind` other than the session's, or a `message_id` seen before.
 */
export type DropReason = 'origin' | 'source' | 'version' | 'type' | 'schema' | 'kind' | 'replay';

/** Anything `message` events can be listened for on, such as a `Window`. */
export interface MessageEventTarget {
  /** Adds a `message` listener. */
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  /** Removes a `message` listener. */
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

/** Anything messages can be posted to with a target origin, such as a `Window`. */
export interface MessageRecipient {
  /** Posts `message` if the recipient's origin is `targetOrigin`. */
  postMessage(message: unknown, targetOrigin: string): void;
}

/** Options of {@link listen}. */
export interface ReceiverOptions {
  /** Where `message` events arrive. */
  target: MessageEventTarget;
  /** The normalised origin every accepted message must come from. */
  origin: string;
  /** The one window allowed to send, read per message; null or undefined accepts nothing. */
  source: () => unknown;
  /** The message types this side accepts. */
  types: readonly MessageType[];
  /** The session's kind when known; otherwise the first delivered message fixes it. */
  kind: Kind | undefined;
  /** Receives each accepted message once. */
  onMessage: (message: SvcMessage, event: MessageEvent) => void;
  /** Hears about each dropped message. */
  onDrop: ((reason: DropReason, event: MessageEvent) => void) | undefined;
}

/** A running listener; see {@link listen}. */
export interface Receiver {
  /** Counts of dropped messages by reason (a copy). */
  readonly dropped: Record<DropReason, number>;
  /** The session's kind, once known. */
  readonly kind: Kind | undefined;
  /** Removes the listener; safe to call again. */
  stop(): void;
}

/** A fresh all-zero drop count. */
export function noDrops(): Record<DropReason, number> {
  return { origin: 0, source: 0, version: 0, type: 0, schema: 0, kind: 0, replay: 0 };
}

// Enough to cover every message of a long session many times over, small enough to never matter for memory.
const REPLAY_MEMORY = 4096;

/**
 * Listens for `message` events and delivers only those that pass every check, each `message_id` at most once.
 * Whatever `event.data` holds, the listener does not throw; it counts the drop instead.
 */
export function listen(options: ReceiverOptions): Receiver {
  const { target, origin, source, types, onMessage, onDrop } = options;
  const dropped = noDrops();
  const seen = new Set<string>();
  let kind = options.kind;
  let listening = true;

  const check = (event: MessageEvent): SvcMessage | DropReason => {
    // The reason names the check in progress, so a throwing getter is charged to the field it guards.
    let reason: DropReason = 'origin';
    try {
      if (event.origin !== origin) return reason;
      reason = 'source';
      const expected = source();
      if (expected == null || event.source !== expected) return reason;
      reason = 'schema';
      const message = inspectMessage(event.data);
      if (typeof message === 'string') return message;
      if (!types.includes(message.type)) return 'type';
      if (kind !== undefined && message.kind !== kind) return 'kind';
      if (seen.has(message.message_id)) return 'replay';
      return message;
    } catch {
      return reason;
    }
  };

  const handle = (event: MessageEvent): void => {
    const verdict = check(event);
    if (typeof verdict === 'string') {
      dropped[verdict] += 1;
      onDrop?.(verdict, event);
      return;
    }
    seen.add(verdict.message_id);
    // A Set iterates in insertion order, so the first value is the oldest id.
    if (seen.size > REPLAY_MEMORY) seen.delete(seen.values().next().value!);
    kind ??= verdict.kind;
    onMessage(verdict, event);
  };

  target.addEventListener('message', handle);
  return {
    get dropped() {
      return { ...dropped };
    },
    get kind() {
      return kind;
    },
    stop() {
      if (!listening) return;
      listening = false;
      target.removeEventListener('message', handle);
    },
  };
}
