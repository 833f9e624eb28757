// The chunk the script tag's loader imports for <svc-consent-field>: the element's class, undefined (the loader
// defines it, after <svc-provider> when the page has one), and what `window.Svc` gains with it.
export { SvcConsentField, SvcConsentField as default } from '../consent-field/consent-field.component.js';
export { ConsentFieldError, ConsentFieldErrorCode } from '../consent-field/consent-field-error.js';
export { APPEARANCE_KEYS } from '../consent-field/appearance.js';
export { setConfigDefaults } from '../internal/config.js';
