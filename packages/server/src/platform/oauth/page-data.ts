// The public data of the sign-in and consent page, shared by the server that renders it and the page's Lit code.

/** A scope the application asks for, with what it lets the application do. */
export interface OAuthScope {
  name: string;
  description: string;
}

/** The `svc-oauth-data` block of `/oauth/interaction/{uid}`. */
export interface OAuthPageData {
  uid: string;
  /** `email`: who is signing in; `code`: the code sent to that email; `consent`: what the application asks. */
  step: 'email' | 'code' | 'consent';
  client_name: string;
  /** The email a code was sent to (the code step). */
  email: string | null;
  /** The code itself, shown on the page in the sandbox (the reference server sends no email). */
  sandbox_code: string | null;
  /** What the application asks (the consent step). */
  scopes: OAuthScope[];
  /** Why the last step was refused, in a sentence. */
  error: string | null;
}
