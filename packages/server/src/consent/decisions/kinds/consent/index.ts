// The consent kind: a person permits an application to use their data, on the screens of an active flow.
import type { DecisionKindModule } from '../kind.js';
import { prepareConsent } from './create.js';
import { consentPage } from './page.js';
import { consentInbox } from './inbox.js';
import { consentClaimsOf, consentEvent, consentRecordIdOf, consentWithdrawalOf, recordConsentDecision } from './record.js';
import { screensOfRow, totalSteps } from './screens.js';
import { actConsent, consentActions } from './steps.js';
import { issueConsentToken, redeemConsentToken } from './token.js';

export const consentKind: DecisionKindModule<'consent'> = {
  kind: 'consent',
  actions: consentActions,
  prepare: prepareConsent,
  totalSteps: (row) => totalSteps(screensOfRow(row)),
  page: (_ctx, row) => consentPage(row),
  act: actConsent,
  issue: issueConsentToken,
  record: recordConsentDecision,
  event: consentEvent,
  recordId: consentRecordIdOf,
  claims: consentClaimsOf,
  redeem: redeemConsentToken,
  withdrawn: (ctx, row) => consentWithdrawalOf(ctx, row) === 'all',
  inbox: (_ctx, row) => consentInbox(row),
};
