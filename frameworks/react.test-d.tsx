// Type tests of `@svc/elements/react` (generated from custom-elements.json), checked by `tsc -b` (never run): each
// `@ts-expect-error` must meet an error, or the build fails. What a React 19 app gets in its editor.
import type { InboxRow, SvcCompleteDetail, SvcDecision } from '@svc/elements';
import type {} from '@svc/elements/react';
import { useRef } from 'react';

declare const fetchDouble: typeof fetch;

export function Correct() {
  const decision = useRef<SvcDecision>(null);
  return (
    <svc-provider trust-url="https://svc.example" publishableKey="pk_test_1" trustUrls={{ DE: 'https://de.svc.example' }}>
      <svc-decision ref={decision} token="dts_x" mode="popup" trustUrl="https://svc.example" label="Your decision" className="decision"
        onsvc-complete={(event) => {
          const detail: SvcCompleteDetail = event.detail;
          return detail.exchange_token satisfies string;
        }}
        onsvc-error={(event) => event.detail.recoverable_via satisfies string | null}
        onsvc-deadline={(event) => event.detail.level satisfies 'warning' | 'expired'} />
      <form>
        <svc-consent-field name="consent" flow="flw_1" publishable-key="pk_test_1" appearance={{ accent: '#1d4ed8', density: 'compact' }}
          commit timeoutMs={5000} fetch={fetchDouble} subject={{ email: 'ada@example.com' }} onChange={(event) => event.currentTarget.value satisfies string}
          onsvc-capture={(event) => event.detail.session_token satisfies string} onsvc-error={(event) => event.detail.code satisfies string} />
      </form>
      <svc-inbox accessToken="tok" getAccessToken={async () => 'tok'} limit={20} application-id="tp_1"
        onsvc-inbox-open={(event) => {
          const row: InboxRow = event.detail;
          event.preventDefault();
          return row.session_token;
        }} />
    </svc-provider>
  );
}

// A misspelt tag or property, or a value of the wrong type, is an error.
// @ts-expect-error `svc-decisoin` is no element
export const typoTag = <svc-decisoin token="dts_x" />;
// @ts-expect-error `tokn` is not a property of <svc-decision>
export const typoProperty = <svc-decision tokn="dts_x" />;
// @ts-expect-error `publishableKy` is not a property of <svc-consent-field>
export const typoCamelCase = <svc-consent-field publishableKy="pk_test_1" />;
// @ts-expect-error mode is embed, popup or redirect
export const wrongMode = <svc-decision mode="inline" />;
// @ts-expect-error limit is a number
export const wrongType = <svc-inbox limit="20" />;
// @ts-expect-error `colour` is not an appearance key
export const wrongAppearance = <svc-consent-field appearance={{ colour: 'red' }} />;
// @ts-expect-error the handler gets an SvcCompleteEvent, whose detail has no `token`
export const wrongDetail = <svc-decision onsvc-complete={(event) => event.detail.token} />;
// @ts-expect-error svc-inbox-open's detail is an InboxRow, not a string
export const wrongHandler = <svc-inbox onsvc-inbox-open={(event: CustomEvent<string>) => event.detail} />;

// An event name with a typo: TypeScript never checks JSX names that contain a dash (as for `data-*`), so the
// misspelt handler is accepted but gets no type for its parameter, which `noImplicitAny` (strict) reports.
// @ts-expect-error Parameter 'event' implicitly has an 'any' type: `onsvc-complet` is not an event of <svc-decision>
export const typoEvent = <svc-decision onsvc-complet={(event) => event.detail} />;
export const rightEvent = <svc-decision onsvc-complete={(event) => event.detail.exchange_token} />;
