// The chunk the script tag's loader imports for <svc-provider>: the element's class, undefined (the loader defines
// it before the elements that ask it for configuration).
export { SvcProvider, SvcProvider as default } from '../provider/provider.component.js';
export { svcConfigContext, setConfigDefaults } from '../internal/config.js';
