import { ProtocolError, ProtocolErrorCode } from './errors.js';
import { createMessage } from './message.js';
import { normalizeOrigin } from './origin.js';
import { type DropReason, type MessageEventTarget, type MessageRecipient, type Receiver, listen, noDrops } from './receiver.js';
import { type Kind, type MessageOf, type MessageType, type PayloadOf, KINDS } from './schemas.js';

/** The frame's own window, as far as the port needs it. */
export interface FrameWindow extends MessageEventTarget {
  /** The embedding window; a top-level page is its own parent. */
  readonly parent: MessageRecipient | null;
  /** The window that opened this popup, or null. */
  readonly opener: (MessageRecipient & { readonly closed?: boolean }) | null;
}

/** The counter the frame reports instead of posting, for the server to add to `trust_surface.postmessage_dropped_total`. */
export interface PostMessageDroppedMetric {
  /** The server-side counter to increment by one. */
  name: 'trust_surface.postmessage_dropped_total';
  /**
   * `origin_missing`: no allowed origin is configured, so there is no safe target origin (the spec's reason);
   * `target_missing`: the embed has no parent or the popup has no opener left to post to.
   */
  labels: { reason: 'origin_missing' | 'target_missing' };
}

/** Options of {@link createFramePort}. */
export interface FramePortOptions<K extends Kind = Kind> {
  /**
   * The embedding page's origin the session allows (its `embed_origin`), used as the exact target origin of every
   * post; null or empty when no allowed origin is configured, in which case nothing is posted.
   */
  targetOrigin: string | null | undefined;
  /** How the decision page is shown: `embed` posts to `window.parent`, `popup` to `window.opener`. */
  mode: 'embed' | 'popup';
  /** The session's kind; every posted message carries it. */
  kind: K;
  /** The frame's own window; defaults to `globalThis`. */
  frameWindow?: FrameWindow;
  /** Receives each `svc:cancel` the host sends, checked as strictly as the host checks the frame; omit to not listen. */
  onCancel?: (message: MessageOf<'svc:cancel', K>, event: MessageEvent) => void;
  /** Hears why each incoming message was dropped, for debugging. */
  onDrop?: (reason: DropReason, event: MessageEvent) => void;
  /** Receives one metric per message not posted, for the server to count. */
  onMetric?: (metric: PostMessageDroppedMetric) => void;
}

// Each kind's payload of each type, looked up rather than extracted: a lookup widens with the kind, so a port of
// some kinds is also a port of every kind (`FramePort<'consent' | 'approval'>` is a `FramePort`), which keeps code
// typed against fewer kinds compiling as kinds are added.
type Payloads = { [K in Kind]: { [T in MessageType]: PayloadOf<T, K> } };

/** The decision page's end of the protocol; see {@link createFramePort}. */
export interface FramePort<K extends Kind = Kind> {
  /** How many incoming messages were dropped so far, by reason (a snapshot). */
  readonly dropped: Readonly<Record<DropReason, number>>;
  /** Posts a message to the host page at the exact target origin; returns false when it was dropped instead. */
  post<T extends MessageType>(type: T, payload: Payloads[K][T]): boolean;
  /** Stops listening; safe to call more than once, and later posts throw. */
  dispose(): void;
}

/**
 * Opens the decision page's end of the protocol. It posts to `window.parent` (embed) or `window.opener` (popup)
 * with the exact embed origin as target origin, never `*`; without a configured origin it posts nothing and reports
 * `trust_surface.postmessage_dropped_total{reason="origin_missing"}` through `onMetric`.
 * Throws a `ProtocolError` (`invalid_origin`, `invalid_options`) when the options are wrong.
 *
 * @example
 * ```ts
 * const port = createFramePort({ targetOrigin: session.embed_origin, mode: 'embed', kind: 'consent',
 *   onMetric: (metric) => navigator.sendBeacon('/metrics', JSON.stringify(metric)) });
 * port.post('svc:resize', { height: document.body.scrollHeight });
 * ```
 */
export function createFramePort<K extends Kind>(options: FramePortOptions<K>): FramePort<K> {
  const { mode, kind, onCancel, onDrop, onMetric, frameWindow = globalThis as unknown as FrameWindow } = options ?? {};
  if ((mode !== 'embed' && mode !== 'popup') || !KINDS.includes(kind) || frameWindow == null) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidOptions,
      'createFramePort needs mode "embed" or "popup", kind "consent", "approval" or "signature_request" and a frameWindow',
    );
  }
  const targetOrigin = options.targetOrigin ? normalizeOrigin(options.targetOrigin, 'targetOrigin') : null;
  const recipient = (): MessageRecipient | null => {
    if (mode === 'popup') return frameWindow.opener?.closed ? null : frameWindow.opener;
    // A page that is not framed is its own parent, and posting to itself would only talk to itself.
    return (frameWindow.parent as unknown) === frameWindow ? null : frameWindow.parent;
  };
  // Without a known origin nothing can be trusted, so the port does not listen at all.
  const receiver: Receiver | undefined =
    onCancel && targetOrigin
      ? listen({
          target: frameWindow,
          origin: targetOrigin,
          source: recipient,
          types: ['svc:cancel'],
          kind,
          onMessage: (message, event) => onCancel(message as MessageOf<'svc:cancel', K>, event),
          onDrop,
        })
      : undefined;
  let disposed = false;

  return {
    get dropped() {
      return receiver?.dropped ?? noDrops();
    },
    post(type, payload) {
      if (disposed) throw new ProtocolError(ProtocolErrorCode.Disposed, `Cannot post ${type}: the frame port was disposed`);
      // Built first, so a bad payload throws even while posting is impossible. The looked-up payload type is the
      // extracted one, which TypeScript cannot see through the generic kind.
      const message = createMessage(type, kind, payload as never);
      const target = targetOrigin ? recipient() : null;
      if (!targetOrigin || !target) {
        onMetric?.({
          name: 'trust_surface.postmessage_dropped_total',
          labels: { reason: targetOrigin ? 'target_missing' : 'origin_missing' },
        });
        return false;
      }
      target.postMessage(message, targetOrigin);
      return true;
    },
    dispose() {
      disposed = true;
      receiver?.stop();
    },
  };
}
