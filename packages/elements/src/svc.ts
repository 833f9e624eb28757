/**
 * Every element and the capture helper in one module: what the service serves at `/sdk/v1/svc.mjs` for pages that
 * import it without a build step (the script tag `/sdk/v1/svc.js` is a loader that fetches only what a page uses).
 * It defines every element and exports the element API plus the capture helper (`attachCapture`, `autoAttach`).
 * Loaded from a service's `/sdk/v1/` path, it makes that service the elements' default trust URL, so
 * `<svc-decision token="dts_...">` needs nothing else.
 *
 * Snippet without code: once the document is parsed it runs `autoAttach()`, which attaches every `<form
 * data-svc-flow>` (now and added later) that names its publishable key or sits in an `<svc-provider>`; the service
 * the script came from is their default base URL.
 *
 * @module @svc/elements/svc
 */
import { autoAttach } from '@svc/capture';
import { setConfigDefaults } from './internal/config.js';

// Everything the npm entry exports: every element (importing it defines them), helpers and types.
export * from './index.js';

// The capture helper for the organisation's own consent controls.
export { attachCapture, autoAttach, CaptureError, CaptureErrorCode } from '@svc/capture';

// `import.meta.url` is this module's own URL.
// Only a script served from a service's versioned SDK path names that service; copied elsewhere it names nothing.
function scriptService(): string | undefined {
  try {
    const url = new URL(import.meta.url);
    return /\/sdk\/v\d+\/svc\.m?js$/.test(url.pathname) ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

const service = scriptService();
if (service) setConfigDefaults({ trustUrl: service });

// Snippet without code. Only where there is a document (never during server-side rendering), after parsing, so
// forms later in the page are found; forms added afterwards are attached as they appear.
if (typeof document !== 'undefined') {
  const attach = () => void autoAttach(document, service ? { baseUrl: service } : {});
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', attach, { once: true });
  else attach();
}
