// The chunk the script tag's loader imports for <svc-receipts>: the element's class, undefined (the loader defines
// it), and what `window.Svc` gains with it. The verifier (jose and the receipt schema) is a chunk of its own, imported
// on the first check.
export { SvcReceipts, SvcReceipts as default } from '../receipts/receipts.component.js';
export { setConfigDefaults } from '../internal/config.js';
