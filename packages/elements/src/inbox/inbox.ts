import '../decision/decision.js';
import { define } from '../internal/define.js';
import { SvcInbox } from './inbox.component.js';

export { SvcInbox };

define('svc-inbox', SvcInbox);

declare global {
  interface HTMLElementTagNameMap {
    'svc-inbox': SvcInbox;
  }
}
