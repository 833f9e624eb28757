import { ProtocolError, ProtocolErrorCode } from './errors.js';
import { createMessage } from './message.js';
import { normalizeOrigin } from './origin.js';
import { type DropReason, type MessageEventTarget, type MessageRecipient, listen } from './receiver.js';
import { type Kind, type PayloadOf, type SvcMessage, KINDS, MESSAGE_TYPES } from './schemas.js';

/** The message types a host page may send to the frame: the spec's table has one, `svc:cancel`. */
export type HostMessageType = 'svc:cancel';

/** Options of {@link createHostChannel}. */
export interface HostChannelOptions {
  /**
   * The service's origin, such as `https://svc.example` (any URL on it works too): the only origin messages are
   * accepted from and the only target origin the channel posts to.
   */
  serviceOrigin: string;
  /**
   * The frame's window (an iframe's `contentWindow`, or what `window.open` returned for a popup), or a function
   * returning it; a function is read on every message, since an iframe's `contentWindow` changes as it navigates.
   */
  frame: MessageRecipient | (() => MessageRecipient | null | undefined);
  /** The decision's kind when the host knows it before `svc:ready`; otherwise the first delivered message fixes it. */
  kind?: Kind;
  /** The host page's window, where `message` events arrive; defaults to `globalThis`. */
  hostWindow?: MessageEventTarget;
  /** Receives each message that passed every check, at most once per `message_id`. */
  onMessage: (message: SvcMessage, event: MessageEvent) => void;
  /** Hears why each other message was dropped, for debugging; the page itself is never told. */
  onDrop?: (reason: DropReason, event: MessageEvent) => void;
}

/** The host page's end of the protocol; see {@link createHostChannel}. */
export interface HostChannel {
  /** How many messages were dropped so far, by reason (a snapshot). */
  readonly dropped: Readonly<Record<DropReason, number>>;
  /** The decision's kind: the `kind` option, or the kind of the first delivered message. */
  readonly kind: Kind | undefined;
  /** Posts a host message to the frame; returns false when there is no frame window to post to. */
  post<T extends HostMessageType>(type: T, payload: PayloadOf<T>): boolean;
  /** Tells the frame the host cancelled (`svc:cancel` with `cancelled_by: 'host'`); returns false when there is no frame window. */
  cancel(reason: string): boolean;
  /** Stops listening; safe to call more than once, and later posts throw. */
  dispose(): void;
}

/**
 * Opens the host page's end of the protocol: it delivers a message only when `event.origin` is exactly the
 * service origin, `event.source` is the frame, `version` is 2, `type` starts with `svc:`, envelope and payload
 * validate and the `message_id` is new. Everything else is dropped, counted in `dropped` and never thrown.
 * Throws a `ProtocolError` (`invalid_origin`, `invalid_options`) when the options are wrong.
 *
 * @example
 * ```ts
 * const channel = createHostChannel({
 *   serviceOrigin: 'https://svc.example',
 *   frame: () => iframe.contentWindow,
 *   onMessage(message) {
 *     if (message.type === 'svc:complete') sendToServer(message.payload.exchange_token);
 *   },
 * });
 * // later
 * channel.dispose();
 * ```
 */
export function createHostChannel(options: HostChannelOptions): HostChannel {
  const serviceOrigin = normalizeOrigin(options?.serviceOrigin, 'serviceOrigin');
  const { frame, onMessage, onDrop, kind, hostWindow = globalThis as MessageEventTarget } = options;
  if (
    (typeof frame !== 'function' && (typeof frame !== 'object' || frame === null)) ||
    typeof onMessage !== 'function' ||
    typeof hostWindow?.addEventListener !== 'function' ||
    (kind !== undefined && !KINDS.includes(kind))
  ) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidOptions,
      'createHostChannel needs a frame window (or a function returning it), an onMessage function, a hostWindow ' +
        `to listen on and, if given, a kind of ${KINDS.join(', ')}`,
    );
  }
  const frameWindow = typeof frame === 'function' ? frame : () => frame;
  const receiver = listen({
    target: hostWindow,
    origin: serviceOrigin,
    source: frameWindow,
    types: MESSAGE_TYPES,
    kind,
    onMessage,
    onDrop,
  });
  let disposed = false;

  const post = <T extends HostMessageType>(type: T, payload: PayloadOf<T>): boolean => {
    if (disposed) throw new ProtocolError(ProtocolErrorCode.Disposed, `Cannot post ${type}: the host channel was disposed`);
    // Compared with the one host type itself: a list of one would ship an array and a method call for it.
    if (type !== 'svc:cancel') {
      throw new ProtocolError(ProtocolErrorCode.InvalidMessage, `${type} is not a message the host sends`);
    }
    const messageKind = receiver.kind;
    if (messageKind === undefined) {
      throw new ProtocolError(
        ProtocolErrorCode.KindUnknown,
        `Cannot post ${type} before the kind is known: pass the kind option or wait for svc:ready`,
      );
    }
    // The one host type's payload does not depend on the kind, which TypeScript cannot see through the generic.
    const message = createMessage(type as HostMessageType, messageKind, payload as PayloadOf<HostMessageType>);
    const recipient = frameWindow();
    if (recipient == null) return false;
    recipient.postMessage(message, serviceOrigin);
    return true;
  };

  return {
    get dropped() {
      return receiver.dropped;
    },
    get kind() {
      return receiver.kind;
    },
    post,
    cancel: (reason) => post('svc:cancel', { reason, cancelled_by: 'host' }),
    dispose() {
      disposed = true;
      receiver.stop();
    },
  };
}
