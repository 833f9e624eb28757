import { define } from '../internal/define.js';
import { SvcDataRequests } from './data-requests.component.js';

export { SvcDataRequests };

define('svc-data-requests', SvcDataRequests);

declare global {
  interface HTMLElementTagNameMap {
    'svc-data-requests': SvcDataRequests;
  }
}
