// The chunk the script tag's loader imports for <svc-inbox>: the element's class, undefined (the loader defines it),
// and what `window.Svc` gains with it. Its rows are <svc-decision> popups, so it defines that element too, from the
// decision's own chunk (imported whole, so the decision page's chunks stay exactly what they were).
import { SvcDecision } from './decision.js';
import { define } from '../internal/define.js';

define('svc-decision', SvcDecision);

export { SvcInbox, SvcInbox as default } from '../inbox/inbox.component.js';
export { setConfigDefaults } from '../internal/config.js';
