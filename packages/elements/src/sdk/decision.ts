// The chunk the script tag's loader imports for <svc-decision>: the element's class, undefined (the loader
// defines it, after <svc-provider> when the page has one), and what `window.Svc` gains with it.
export { SvcDecision, SvcDecision as default } from '../decision/decision.component.js';
export { DecisionErrorCode } from '../events/svc-error.js';
export { setConfigDefaults } from '../internal/config.js';
