// The kinds of decision, by `kind`. A new kind is a folder beside these and one line here.
import type { DecisionKind } from '../row.js';
import { approvalKind } from './approval/index.js';
import { consentKind } from './consent/index.js';
import { signatureKind } from './signature/index.js';
import type { DecisionKindModule } from './kind.js';

const KINDS: { readonly [K in DecisionKind]: DecisionKindModule<K> } = {
  consent: consentKind,
  approval: approvalKind,
  signature_request: signatureKind,
};

/** Every kind, in the order the API lists them. */
export const kindModules: readonly DecisionKindModule[] = Object.values(KINDS);

/** The module of `kind`. */
export function kindOf(kind: DecisionKind): DecisionKindModule {
  return KINDS[kind];
}
