import { define } from '../internal/define.js';
import { SvcCredentials } from './credentials.component.js';

export { SvcCredentials };

define('svc-credentials', SvcCredentials);

declare global {
  interface HTMLElementTagNameMap {
    'svc-credentials': SvcCredentials;
  }
}
