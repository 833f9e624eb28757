// The chunk the script tag's loader imports for <svc-data-offers>: the element's class, undefined (the loader
// defines it), and what `window.Svc` gains with it.
export { SvcDataOffers, SvcDataOffers as default } from '../data-offers/data-offers.component.js';
export { setConfigDefaults } from '../internal/config.js';
