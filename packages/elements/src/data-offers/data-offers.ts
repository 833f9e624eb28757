import { define } from '../internal/define.js';
import { SvcDataOffers } from './data-offers.component.js';

export { SvcDataOffers };

define('svc-data-offers', SvcDataOffers);

declare global {
  interface HTMLElementTagNameMap {
    'svc-data-offers': SvcDataOffers;
  }
}
