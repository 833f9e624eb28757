import { define } from '../internal/define.js';
import { SvcVouches } from './vouches.component.js';

export { SvcVouches };

define('svc-vouches', SvcVouches);

declare global {
  interface HTMLElementTagNameMap {
    'svc-vouches': SvcVouches;
  }
}
