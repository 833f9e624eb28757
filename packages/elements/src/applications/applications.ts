import { define } from '../internal/define.js';
import { SvcApplications } from './applications.component.js';

export { SvcApplications };

define('svc-applications', SvcApplications);

declare global {
  interface HTMLElementTagNameMap {
    'svc-applications': SvcApplications;
  }
}
