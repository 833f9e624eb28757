// Entry of the sign-in and consent page bundle (`/assets/oauth-page.js`): defines `<svc-oauth-page>`.
import { OAuthPage } from './oauth-page.component.js';

export { OAuthPage };

if (!customElements.get('svc-oauth-page')) customElements.define('svc-oauth-page', OAuthPage);

declare global {
  interface HTMLElementTagNameMap {
    'svc-oauth-page': OAuthPage;
  }
}
