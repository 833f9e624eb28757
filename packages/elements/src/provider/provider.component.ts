import { provide } from '@lit/context';
import { html, type PropertyValues, type TemplateResult } from 'lit';
import { property } from 'lit/decorators.js';
import { type SvcConfig, svcConfigContext } from '../internal/config.js';
import { SvcElement } from '../internal/svc-element.js';
import { providerStyles } from './provider.styles.js';

const KEYS = ['trustUrl', 'baseUrl', 'publishableKey', 'locale', 'theme'] as const;

/**
 * Shares the service configuration with every svc element inside it (through shadow roots too), so a page sets
 * its trust URL and publishable key once. An element's own attributes win over the provider's.
 *
 * @summary Configures the svc elements inside it: trust URL, base URL, publishable key, locale and theme.
 *
 * @slot - The page content holding svc elements.
 */
export class SvcProvider extends SvcElement {
  static override styles = providerStyles;

  // The value consumers receive; rebuilt when an attribute changes, which notifies every subscribed element.
  @provide({ context: svcConfigContext })
  protected config: SvcConfig = {};

  /** Where the service's hosted pages live (`{trust_url}`), such as `https://svc.example`. */
  @property({ attribute: 'trust-url' }) trustUrl?: string;

  /** Where the service's REST API lives (`{base_url}`); elements use it for pages too when `trust-url` is not set. */
  @property({ attribute: 'base-url' }) baseUrl?: string;

  /** The publishable key (`pk_test_...` in the sandbox, `pk_live_...` in production) for browser calls. */
  @property({ attribute: 'publishable-key' }) publishableKey?: string;

  /** BCP 47 language tag of the person's language, such as `en` or `pt-BR`. */
  @property() locale?: string;

  /** Name of the visual theme the elements should use. */
  @property() theme?: string;

  override connectedCallback(): void {
    // Before the first update, so elements inside that connect next already receive the attributes' values.
    this.config = this.snapshot();
    super.connectedCallback();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    if (KEYS.some((key) => changed.has(key))) this.config = this.snapshot();
  }

  private snapshot(): SvcConfig {
    return { trustUrl: this.trustUrl, baseUrl: this.baseUrl, publishableKey: this.publishableKey, locale: this.locale, theme: this.theme };
  }

  protected override render(): TemplateResult {
    return html`<slot></slot>`;
  }
}
