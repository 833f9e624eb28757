// The configuration an <svc-provider> shares with the elements inside it, and the defaults the script-tag bundle
// sets. Elements read their own attributes first, then the provider's, then these defaults.
import { createContext } from '@lit/context';

/** Service configuration shared by `<svc-provider>` with the elements inside it. */
export interface SvcConfig {
  /** Where the service's hosted pages live (`{trust_url}`), such as `https://svc.example`. */
  trustUrl?: string | undefined;
  /** Where the service's REST API lives (`{base_url}`); also stands in for `trustUrl` when that is not given. */
  baseUrl?: string | undefined;
  /** The publishable key (`pk_test_...` or `pk_live_...`) for calls made from the browser. */
  publishableKey?: string | undefined;
  /** BCP 47 language tag of the person's language, such as `en` or `pt-BR`. */
  locale?: string | undefined;
  /** Name of the visual theme the elements should use. */
  theme?: string | undefined;
  /**
   * The trust URL of each country cell by ISO code, such as `{DE: 'https://de.svc.example'}`: a session token that
   * names its home country (`dts_de_...`) is shown from that country's hosted pages, the only ones that serve it.
   */
  trustUrls?: Record<string, string> | undefined;
}

/**
 * The context key of {@link SvcConfig}. A registered symbol, so an `<svc-provider>` from one copy of the package
 * (the script tag) still reaches elements from another (an npm import).
 */
export const svcConfigContext = createContext<SvcConfig>(Symbol.for('svc.config'));

let defaults: SvcConfig = {};

/** Sets configuration every element falls back to (the script-tag bundle sets `trustUrl` to where it came from). */
export function setConfigDefaults(config: SvcConfig): void {
  defaults = { ...defaults, ...config };
}

/** The configuration set with {@link setConfigDefaults}. */
export function configDefaults(): SvcConfig {
  return defaults;
}
