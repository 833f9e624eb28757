import { type ContextCallback, ContextEvent } from '@lit/context';
import { html, LitElement, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import { type SvcConfig, svcConfigContext } from '../internal/config.js';
import { providerStyles } from './provider.styles.js';

/**
 * Shares the service configuration with every svc element inside it (through shadow roots too), so a page sets
 * its trust URL and publishable key once. An element's own attributes win over the provider's.
 *
 * @summary Configures the svc elements inside it: trust URL, base URL, publishable key, locale and theme.
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

  // The context protocol's provider side, as @lit/context's `ContextProvider` speaks it (consumers of either kind
  // interoperate), in fewer lines than that class and its base bring to the script tag.
  #config: SvcConfig = {};
  /** Subscribed consumers: each callback with the element that asked and its (stable) unsubscribe function. */
  readonly #subscribers = new Map<ContextCallback<SvcConfig>, { host: Element; unsubscribe: () => void }>();

  constructor() {
    super();
    // A consumer inside asks: answer now and, when it subscribes, on every change.
    this.addEventListener('context-request', (event) => {
      const host = event.contextTarget ?? (event.composedPath()[0] as Element);
      if (event.context !== svcConfigContext || host === this) return;
      event.stopPropagation();
      const callback = event.callback as ContextCallback<SvcConfig>;
      if (!event.subscribe) {
        callback(this.#config);
        return;
      }
      let subscriber = this.#subscribers.get(callback);
      if (!subscriber) {
        subscriber = { host, unsubscribe: () => this.#subscribers.delete(callback) };
        this.#subscribers.set(callback, subscriber);
      }
      callback(this.#config, subscriber.unsubscribe);
    });
    // A provider inside just connected: its subtree's consumers ask again, so that the closer one answers them.
    this.addEventListener('context-provider', (event) => {
      const provider = event.contextTarget ?? event.composedPath()[0];
      if (event.context !== svcConfigContext || provider === this) return;
      event.stopPropagation();
      for (const [callback, { host }] of [...this.#subscribers]) {
        host.dispatchEvent(new ContextEvent(svcConfigContext, host, callback, true));
      }
    });
  }

  /** The value consumers receive; setting it notifies every subscribed element. */
  protected get config(): SvcConfig {
    return this.#config;
  }

  protected set config(value: SvcConfig) {
    if (Object.is(value, this.#config)) return;
    this.#config = value;
    for (const [callback, { unsubscribe }] of this.#subscribers) callback(value, unsubscribe);
  }

  override connectedCallback(): void {
    // Before the first update, so elements inside that connect next already receive the attributes' values.
    this.#snapshot();
    super.connectedCallback();
    // Tells a provider around this one that it may hand over the consumers inside.
    this.dispatchEvent(
      Object.assign(new Event('context-provider', { bubbles: true, composed: true }), {
        context: svcConfigContext,
        contextTarget: this,
      }),
    );
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Only the configuration is reactive, so any change is one of its keys.
    if (changed.size) this.#snapshot();
  }

  /** Rebuilds the value consumers receive from the attributes. */
  #snapshot(): void {
    const { trustUrl, baseUrl, publishableKey, locale, theme } = this;
    this.config = { trustUrl, baseUrl, publishableKey, locale, theme };
  }

  protected override render(): TemplateResult {
    return html`<slot></slot>`;
  }
}
