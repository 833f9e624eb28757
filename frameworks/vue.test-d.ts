// Type tests of `@svc/elements/vue` (generated from custom-elements.json), checked by `tsc -b` (never run): each
// `@ts-expect-error` must meet an error, or the build fails. Vue's language tools check a template's bindings and
// listeners against a GlobalComponents entry's `$props`, and its `@event` names against `$emit`.
import type { SvcCaptureEvent } from '@svc/capture';
import type { SvcCompleteEvent, SvcConsentField, SvcDecision, SvcInbox, SvcProvider } from '@svc/elements';
import type {} from '@svc/elements/vue';
import type { SvcConsentFieldProps, SvcDecisionProps, SvcInboxProps, SvcProviderProps } from '@svc/elements/vue';
import type { GlobalComponents } from 'vue';

type Tag = 'svc-decision' | 'svc-consent-field' | 'svc-inbox' | 'svc-provider';
type PropsOf<T extends Tag> = GlobalComponents[T] extends new () => { $props: infer P } ? P : never;
type Instance<T extends Tag> = InstanceType<GlobalComponents[T]>;

export const decision: PropsOf<'svc-decision'> = {
  token: 'dts_x', mode: 'popup', 'trust-url': 'https://svc.example', label: 'Your decision', class: 'decision',
  onSvcComplete: (event) => event.detail.exchange_token, onSvcCancel: (event) => event.detail.reason,
};
export const field: PropsOf<'svc-consent-field'> = {
  name: 'consent', flow: 'flw_1', 'publishable-key': 'pk_test_1', appearance: { accent: '#1d4ed8' }, commit: true,
  'onSvc-capture': (event) => event.detail.session_token, onSvcError: (event) => event.detail.code, onChange: (event) => event.type,
};
export const inbox: PropsOf<'svc-inbox'> = { accessToken: 'tok', limit: 20, onSvcInboxOpen: (event) => event.detail.session_token };
export const provider: PropsOf<'svc-provider'> = { 'trust-url': 'https://svc.example', trustUrls: { DE: 'https://de.svc.example' } };

// A misspelt property, attribute or event, or a value of the wrong type, is an error.
// @ts-expect-error `tokn` is not a prop of <svc-decision>
export const typoProperty: PropsOf<'svc-decision'> = { tokn: 'dts_x' };
// @ts-expect-error `trust-urll` is not an attribute of <svc-decision>
export const typoAttribute: PropsOf<'svc-decision'> = { 'trust-urll': 'https://svc.example' };
// @ts-expect-error `onSvcComplet` (`@svc-complet`) is not an event of <svc-decision>
export const typoEvent: PropsOf<'svc-decision'> = { onSvcComplet: () => undefined };
// @ts-expect-error `@svc-capture` would listen to `svc` in the capture phase (Vue reads the Capture ending as a modifier)
export const captureModifier: PropsOf<'svc-consent-field'> = { onSvcCapture: () => undefined };
// @ts-expect-error mode is embed, popup or redirect
export const wrongMode: PropsOf<'svc-decision'> = { mode: 'inline' };
// @ts-expect-error svc-complete's detail has no `token`
export const wrongDetail: PropsOf<'svc-decision'> = { onSvcComplete: (event) => event.detail.token };
// @ts-expect-error limit is a number
export const wrongType: PropsOf<'svc-inbox'> = { limit: '20' };

// A template ref is the element; `$emit` names the element's events with their types.
declare const decisionRef: Instance<'svc-decision'>;
declare const fieldRef: Instance<'svc-consent-field'>;
declare const complete: SvcCompleteEvent;
declare const capture: SvcCaptureEvent;
export const refs = [decisionRef satisfies SvcDecision, fieldRef satisfies SvcConsentField, decisionRef.status, fieldRef.value];
decisionRef.$emit('svc-complete', complete);
fieldRef.$emit('change', capture);
// @ts-expect-error `svc-complet` is not an event of <svc-decision>
decisionRef.$emit('svc-complet', complete);
// @ts-expect-error svc-complete carries an SvcCompleteEvent
decisionRef.$emit('svc-complete', capture);
// @ts-expect-error `@svc-capture` is left out of the template events: it would not reach the handler (see above)
fieldRef.$emit('svc-capture', capture);

// The manifest's types agree with the classes: every prop that is also a property of the element accepts no more
// than the property does (a prop typed wider than its property would be a lie the generated file tells).
type Wider<E, P> = { [K in keyof P & keyof E]-?: [NonNullable<P[K]>] extends [E[K]] ? never : K }[keyof P & keyof E];
type None<T extends never> = T;
export type Agree = [
  None<Wider<SvcDecision, SvcDecisionProps>>,
  None<Wider<SvcConsentField, SvcConsentFieldProps>>,
  None<Wider<SvcInbox, SvcInboxProps>>,
  None<Wider<SvcProvider, SvcProviderProps>>,
];
