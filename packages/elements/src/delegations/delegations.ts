import { define } from '../internal/define.js';
import { SvcDelegations } from './delegations.component.js';

export { SvcDelegations };

define('svc-delegations', SvcDelegations);

declare global {
  interface HTMLElementTagNameMap {
    'svc-delegations': SvcDelegations;
  }
}
