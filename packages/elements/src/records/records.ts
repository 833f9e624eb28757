import { define } from '../internal/define.js';
import { SvcRecords } from './records.component.js';

export { SvcRecords };

define('svc-records', SvcRecords);

declare global {
  interface HTMLElementTagNameMap {
    'svc-records': SvcRecords;
  }
}
