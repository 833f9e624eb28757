import { define } from '../internal/define.js';
import { SvcEvidence } from './evidence.component.js';

export { SvcEvidence };

define('svc-evidence', SvcEvidence);

declare global {
  interface HTMLElementTagNameMap {
    'svc-evidence': SvcEvidence;
  }
}
