import { define } from '../internal/define.js';
import { SvcGovernance } from './governance.component.js';

export { SvcGovernance };

define('svc-governance', SvcGovernance);

declare global {
  interface HTMLElementTagNameMap {
    'svc-governance': SvcGovernance;
  }
}
