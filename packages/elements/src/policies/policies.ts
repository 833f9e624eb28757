import { define } from '../internal/define.js';
import { SvcPolicies } from './policies.component.js';

export { SvcPolicies };

define('svc-policies', SvcPolicies);

declare global {
  interface HTMLElementTagNameMap {
    'svc-policies': SvcPolicies;
  }
}
