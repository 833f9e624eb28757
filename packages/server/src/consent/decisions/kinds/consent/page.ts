// A consent decision on the hosted page: the frozen terms (never a comprehension check's answer) and the screens.
import type { DecisionRow } from '../../row.js';
import type { KindPage } from '../kind.js';
import { screensOfRow, termsOf } from './screens.js';

/** The consent part of the page data, headed with the flow's title, in the flow's locale. */
export function consentPage(row: DecisionRow): KindPage<'consent'> {
  const terms = termsOf(row)!;
  return {
    heading: terms.title,
    locale: terms.config.locale,
    part: {
      flow_id: row.flow_id!,
      flow_version: row.flow_version!,
      title: terms.title,
      description: terms.description,
      policy_url: terms.config.policy_url ?? null,
      purposes: terms.config.purposes.map((p) => ({
        key: p.key,
        label: p.label,
        description: p.description,
        basis: p.basis,
        mechanism: p.mechanism,
        required: p.required,
      })),
      screens: screensOfRow(row),
    },
  };
}
