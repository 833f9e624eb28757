import { define } from '../internal/define.js';
import { SvcAgents } from './agents.component.js';

export { SvcAgents };

define('svc-agents', SvcAgents);

declare global {
  interface HTMLElementTagNameMap {
    'svc-agents': SvcAgents;
  }
}
