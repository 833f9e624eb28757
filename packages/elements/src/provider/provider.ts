import { define } from '../internal/define.js';
import { SvcProvider } from './provider.component.js';

export { SvcProvider };

define('svc-provider', SvcProvider);

declare global {
  interface HTMLElementTagNameMap {
    'svc-provider': SvcProvider;
  }
}
