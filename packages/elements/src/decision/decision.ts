import { define } from '../internal/define.js';
import { SvcDecision } from './decision.component.js';

export { SvcDecision };

define('svc-decision', SvcDecision);

declare global {
  interface HTMLElementTagNameMap {
    'svc-decision': SvcDecision;
  }
}
