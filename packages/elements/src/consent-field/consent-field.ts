// Defines <svc-consent-field>. Importing this module registers the element (where a registry exists).
import { define } from '../internal/define.js';
import { SvcConsentField } from './consent-field.component.js';

export { SvcConsentField };

define('svc-consent-field', SvcConsentField);

declare global {
  interface HTMLElementTagNameMap {
    'svc-consent-field': SvcConsentField;
  }
}
