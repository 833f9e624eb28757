// Entry of the playground bundle (`/assets/playground.js`): defines `<svc-playground>`.
import { Playground } from './playground.component.js';

export { Playground };

if (!customElements.get('svc-playground')) customElements.define('svc-playground', Playground);

declare global {
  interface HTMLElementTagNameMap {
    'svc-playground': Playground;
  }
}
