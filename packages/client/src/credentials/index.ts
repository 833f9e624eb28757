/**
 * The holder's side of the service's verifiable credentials (SD-JWT VC): read what a credential holds and make a
 * presentation that discloses only the claims you choose, optionally bound to the holder's key for a verifier's
 * nonce. Runs in Node 20+ and browsers (Web Crypto); kept out of `@svc/client` so pages that do not present
 * credentials never load the SD-JWT library.
 * @module @svc/client/credentials
 */
export { credentialClaims, disclosableClaims, presentCredential } from './present.js';
export type { KeyBindingOptions, PresentCredentialOptions } from './present.js';
