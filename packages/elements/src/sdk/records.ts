// The chunk the script tag's loader imports for <svc-records>: the element's class, undefined (the loader defines
// it), and what `window.Svc` gains with it.
export { SvcRecords, SvcRecords as default } from '../records/records.component.js';
export { setConfigDefaults } from '../internal/config.js';
