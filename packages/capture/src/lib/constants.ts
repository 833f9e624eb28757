// Values the snippet and <svc-consent-field> share, apart from the code that uses them.

/** The hidden input the capture token is written into; the organisation's server commits it. */
export const TOKEN_FIELD = 'svc_capture_token';

/** How long the helper waits for the service by default before the form submits without a token. */
export const DEFAULT_TIMEOUT_MS = 4000;
