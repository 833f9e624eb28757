import { define } from '../internal/define.js';
import { SvcConnections } from './connections.component.js';

export { SvcConnections };

define('svc-connections', SvcConnections);

declare global {
  interface HTMLElementTagNameMap {
    'svc-connections': SvcConnections;
  }
}
