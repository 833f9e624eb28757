// Entry of the hosted decision page bundle (`/assets/decision-page.js`): defines `<svc-decision-page>`.
import { DecisionPage } from './decision-page.component.js';

export { DecisionPage };

if (!customElements.get('svc-decision-page')) customElements.define('svc-decision-page', DecisionPage);

declare global {
  interface HTMLElementTagNameMap {
    'svc-decision-page': DecisionPage;
  }
}
