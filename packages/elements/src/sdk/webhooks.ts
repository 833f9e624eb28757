// The chunk the script tag's loader imports for <svc-webhooks>: the element's class, undefined (the loader defines it),
// and what `window.Svc` gains with it.
export { SvcWebhooks, SvcWebhooks as default } from '../webhooks/webhooks.component.js';
export { setConfigDefaults } from '../internal/config.js';
