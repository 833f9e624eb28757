// The chunk the script tag's loader imports for <svc-vouches>: the element's class, undefined (the loader defines it),
// and what `window.Svc` gains with it.
export { SvcVouches, SvcVouches as default } from '../vouches/vouches.component.js';
export { setConfigDefaults } from '../internal/config.js';
