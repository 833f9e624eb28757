import { define } from '../internal/define.js';
import { SvcWebhooks } from './webhooks.component.js';

export { SvcWebhooks };

define('svc-webhooks', SvcWebhooks);

declare global {
  interface HTMLElementTagNameMap {
    'svc-webhooks': SvcWebhooks;
  }
}
