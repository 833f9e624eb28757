// A consent decision in the Trust Inbox of the person it is addressed to: the flow's title and description, as
// frozen into the decision.
import type { DecisionRow } from '../../row.js';
import type { InboxEntry } from '../kind.js';
import { termsOf } from './screens.js';

const SUMMARY_MAX = 200;

/** The consent's inbox entry. */
export function consentInbox(row: DecisionRow): InboxEntry {
  const terms = termsOf(row)!;
  const description = terms.description?.trim() ?? '';
  return {
    title: terms.title,
    summary: !description ? null : description.length > SUMMARY_MAX ? `${description.slice(0, SUMMARY_MAX - 1).trimEnd()}…` : description,
    trigger: null,
  };
}
