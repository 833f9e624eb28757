import { define } from '../internal/define.js';
import { SvcReceipts } from './receipts.component.js';

export { SvcReceipts };

define('svc-receipts', SvcReceipts);

declare global {
  interface HTMLElementTagNameMap {
    'svc-receipts': SvcReceipts;
  }
}
