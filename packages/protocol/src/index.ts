/**
 * The browser message protocol v2 of the svc service: the message schemas and types, the host page's channel,
 * the decision frame's port and the deadline clock. Imports nothing from Node and touches no `window` or
 * `document` at import time.
 *
 * @module @svc/protocol
 */

// Channels
export { createHostChannel } from './lib/host-channel.js';
export { createFramePort } from './lib/frame-port.js';
export { createDeadlineClock, DEADLINE_THRESHOLDS } from './lib/deadline-clock.js';

// Messages
export { createMessage, parseMessage, isSvcMessage } from './lib/message.js';

// Schemas
export {
  PROTOCOL_VERSION,
  MESSAGE_TYPES,
  KINDS,
  kindSchema,
  envelopeSchema,
  messageSchema,
  payloadSchemas,
  brandingSchema,
  readyPayloadSchema,
  statePayloadSchema,
  consentStatePayloadSchema,
  approvalStatePayloadSchema,
  completePayloadSchema,
  consentCompletePayloadSchema,
  approvalCompletePayloadSchema,
  signatureCompletePayloadSchema,
  cancelPayloadSchema,
  errorPayloadSchema,
  resizePayloadSchema,
  deadlinePayloadSchema,
} from './lib/schemas.js';

// Errors
export { ProtocolError, ProtocolErrorCode } from './lib/errors.js';

// Types
export type { HostChannel, HostChannelOptions, HostMessageType } from './lib/host-channel.js';
export type { FramePort, FramePortOptions, FrameWindow, PostMessageDroppedMetric } from './lib/frame-port.js';
export type { DeadlineClock, DeadlineClockOptions } from './lib/deadline-clock.js';
export type { DropReason, MessageEventTarget, MessageRecipient } from './lib/receiver.js';
export type {
  Kind,
  MessageType,
  SvcMessage,
  Envelope,
  MessageOf,
  PayloadOf,
  ReadyPayload,
  Branding,
  StatePayload,
  CompletePayload,
  CancelPayload,
  ErrorPayload,
  ResizePayload,
  DeadlinePayload,
} from './lib/schemas.js';
