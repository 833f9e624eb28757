/**
 * The form capture helper of the svc service, for the organisation's own form controls: it attests each consent
 * control marked `data-svc-purpose` (decision, default state, required), hashes the notice shown with it, takes a
 * sanitised snapshot, posts the capture with the publishable key and writes the capture token into the hidden
 * input `svc_capture_token`; the form submits exactly once, with or without a token. Imports nothing from Node and
 * touches no `window` or `document` at import time.
 *
 * @module @svc/capture
 */

// Functions
export { attachCapture } from './lib/attach.js';
export { DEFAULT_TIMEOUT_MS, TOKEN_FIELD } from './lib/constants.js';
export { autoAttach } from './lib/auto-attach.js';

// Building blocks (for <svc-consent-field>, which renders its own controls and posts with a render proof)
export { answerBody, askService } from './lib/answer.js';
export { holdSubmissions, requestSubmitAs } from './lib/submit.js';
export { postCapture } from './lib/post.js';
export { composeRequest, pageUrlOf, subjectOf } from './lib/request.js';

// Limits
export { SNAPSHOT_MAX_BYTES } from './lib/snapshot.js';

// Errors
export { CaptureError, CaptureErrorCode } from './lib/errors.js';

// Types
export type { CaptureHandle, CaptureOptions } from './lib/attach.js';
export type { AskOptions } from './lib/answer.js';
export type { AutoAttachHandle } from './lib/auto-attach.js';
export type { PurposeTarget } from './lib/controls.js';
export type { FetchLike, PostOptions } from './lib/post.js';
export type { RequestParts } from './lib/request.js';
export type { NoticeReading, PurposeReading, SnapshotControl } from './lib/controls.js';
export type { CaptureErrorDetail, HttpErrorCode } from './lib/errors.js';
export type { SvcCaptureEvent } from './lib/events/svc-capture.js';
export type { SvcErrorEvent } from './lib/events/svc-error.js';
export type { CaptureRequest, CaptureResult, CaptureSubject, DecisionEntry, PurposeDecision } from './lib/types.js';
