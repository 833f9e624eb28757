import { ContextProvider } from '@lit/context';
import { html, LitElement, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import { type SvcConfig, svcConfigContext } from '../internal/config.js';
import { providerStyles } from './provider.styles.js';

/**
 * Shares the service configuration with every svc element inside it (through shadow roots too), so a page sets
 * its trust URL and publishable key once. An element's own attributes win over the provider's.
 *
 * @summary Configures the svc elements inside it: trust URL (and one per country), base URL, publishable key, locale and theme.
 *
 * @slot - The page content holding svc elements.
 */
export class SvcProvider extends LitElement {
  static override styles = providerStyles;

  // Declared here rather than with decorators, which would add TypeScript's `__decorate` helper to every bundle;
  // every reactive property is a piece of the shared configuration.
  static override properties: PropertyDeclarations = {
    trustUrl: { attribute: 'trust-url' },
    baseUrl: { attribute: 'base-url' },
    publishableKey: { attribute: 'publishable-key' },
    locale: {},
    theme: {},
    trustUrls: { attribute: 'trust-urls', type: Object },
  };

  /** Where the service's hosted pages live (`{trust_url}`), such as `https://svc.example`. */
  trustUrl?: string;

  /** Where the service's REST API lives (`{base_url}`); elements use it for pages too when `trust-url` is not set. */
  baseUrl?: string;

  /** The publishable key (`pk_test_...` in the sandbox, `pk_live_...` in production) for browser calls. */
  publishableKey?: string;

  /** BCP 47 language tag of the person's language, such as `en` or `pt-BR`. */
  locale?: string;

  /** Name of the visual theme the elements should use. */
  theme?: string;

  /**
   * The trust URL of each country cell by ISO code, as JSON: `trust-urls='{"DE": "https://de.svc.example"}'`. An
   * `<svc-decision>` whose session token names its home country (`dts_de_...`) shows that country's hosted pages:
   * another country's cell would send the page on to its home, whose messages the element would not accept.
   */
  trustUrls?: Record<string, string>;

  readonly #provider = new ContextProvider(this, { context: svcConfigContext, initialValue: {} });

  /** The value consumers receive; setting it notifies every subscribed element. */
  protected get config(): SvcConfig {
    return this.#provider.value;
  }

  protected set config(value: SvcConfig) {
    this.#provider.setValue(value);
  }

  override connectedCallback(): void {
    // Before the first update, so elements inside that connect next already receive the attributes' values.
    this.#snapshot();
    super.connectedCallback();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Only the configuration is reactive, so any change is one of its keys.
    if (changed.size) this.#snapshot();
  }

  /** Rebuilds the value consumers receive from the attributes. */
  #snapshot(): void {
    const { trustUrl, baseUrl, publishableKey, locale, theme, trustUrls } = this;
    this.config = { trustUrl, baseUrl, publishableKey, locale, theme, trustUrls };
  }

  protected override render(): TemplateResult {
    return html`<slot></slot>`;
  }
}
