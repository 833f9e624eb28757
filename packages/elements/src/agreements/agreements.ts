import { define } from '../internal/define.js';
import { SvcAgreements } from './agreements.component.js';

export { SvcAgreements };

define('svc-agreements', SvcAgreements);

declare global {
  interface HTMLElementTagNameMap {
    'svc-agreements': SvcAgreements;
  }
}
