// The sign-up page as one React 19 component, rendered to HTML on the server (render.tsx) and hydrated in the
// browser (hydrate.tsx). The elements are plain tags whose string props React renders as attributes on the server.
import '@svc/elements';
import type { SvcCompleteEvent, SvcDecision } from '@svc/elements';
import type {} from '@svc/elements/react';
import { useEffect, useRef, useState } from 'react';

/** What the server knows when it renders the page; the same values hydrate it in the browser. */
export interface SignupProps {
  /** The service, e.g. `http://127.0.0.1:4010`. */
  service: string;
  /** The application's publishable key (`pk_test_...`). */
  publishableKey: string;
  /** The consent flow the field captures against (`flw_...`). */
  flow: string;
  /** The session token of the decision the server created for this visitor (`dts_...`). */
  decisionToken: string;
}

export function Signup({ service, publishableKey, flow, decisionToken }: SignupProps) {
  const [result, setResult] = useState('');
  const decision = useRef<SvcDecision>(null);

  // Listen in an effect, not with `onsvc-complete`: React 19 does not attach a custom element's `on` + event props
  // when it hydrates server HTML, only when it renders the element itself (facebook/react#35446).
  useEffect(() => {
    // A browser message proves nothing: the backend exchanges the token with the service.
    async function verify(event: SvcCompleteEvent) {
      const response = await fetch('/api/decisions/exchange', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ session_token: decisionToken, exchange_token: event.detail.exchange_token }),
      });
      const { purposes_granted } = await response.json();
      setResult(response.ok ? `Verified: ${purposes_granted.join(', ') || 'nothing'} granted` : 'Not verified');
    }
    const element = decision.current!;
    element.addEventListener('svc-complete', verify);
    return () => element.removeEventListener('svc-complete', verify);
  }, [decisionToken]);

  return (
    <svc-provider base-url={service} publishable-key={publishableKey}>
      <h1>Confirm your choices</h1>
      <svc-decision ref={decision} token={decisionToken} />
      <p id="result" role="status">{result}</p>

      <h2>Join the newsletter</h2>
      <form action="/signup" method="post">
        <label htmlFor="email">Email address</label>
        <input id="email" name="email" type="email" autoComplete="email" required data-svc-subject="email" />
        <svc-consent-field name="consent" flow={flow} />
        <button type="submit">Sign up</button>
      </form>
    </svc-provider>
  );
}
