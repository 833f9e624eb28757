// Type tests of the Comply resources, checked by `tsc -b` (never run): every method takes `z.input` of the request
// schema the server validates with and answers `z.infer` of the response schema; a wrong field is an error.
import type { z } from 'zod/mini';
import {
  cancelMeetingConsent,
  closeCleanRoom,
  connect,
  createCleanRoom,
  createCleanRoomQuery,
  createClient,
  createMeetingConsent,
  getCleanRoom,
  getCleanRoomQuery,
  getGovernance,
  getMeetingConsent,
  getModule,
  listCleanRoomQueries,
  listCleanRooms,
  listGovernanceChanges,
  listMeetingConsents,
  listModules,
  updateGovernance,
  updateModule,
  type SvcList,
} from './index.js';
import type {
  cleanRoom,
  cleanRoomQuery,
  cleanRoomQuerySummary,
  createCleanRoomQueryRequest,
  createCleanRoomRequest,
  createMeetingConsentRequest,
  governance,
  governanceChange,
  meetingConsent,
  productModule,
  updateGovernanceRequest,
} from '@svc/schemas';

/** True when A and B are the same type (both ways assignable, as the usual `Equals` trick checks). */
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(_proof: Equals<A, B>): void => undefined;

type Param<F, I extends number> = F extends (...args: infer P) => unknown ? NonNullable<P[I]> : never;
type Answer<F> = F extends (...args: never[]) => Promise<infer R> ? R : F extends (...args: never[]) => SvcList<infer T> ? T : never;

const baseUrl = 'http://127.0.0.1:4010';

export function requestsAreTheSchemasInputs(): void {
  same<Param<typeof createCleanRoom, 1>, z.input<typeof createCleanRoomRequest>>(true);
  same<Param<typeof createCleanRoomQuery, 2>, z.input<typeof createCleanRoomQueryRequest>>(true);
  same<Param<typeof createMeetingConsent, 1>, z.input<typeof createMeetingConsentRequest>>(true);
  same<Param<typeof updateGovernance, 1>, z.input<typeof updateGovernanceRequest>['governance']>(true);
}

export function responsesAreTheSchemasOutputs(): void {
  same<Answer<typeof createCleanRoom>, z.infer<typeof cleanRoom>>(true);
  same<Answer<typeof getCleanRoom>, z.infer<typeof cleanRoom>>(true);
  same<Answer<typeof closeCleanRoom>, z.infer<typeof cleanRoom>>(true);
  same<Answer<typeof listCleanRooms>, z.infer<typeof cleanRoom>>(true);
  same<Answer<typeof createCleanRoomQuery>, z.infer<typeof cleanRoomQuery>>(true);
  same<Answer<typeof getCleanRoomQuery>, z.infer<typeof cleanRoomQuery>>(true);
  same<Answer<typeof listCleanRoomQueries>, z.infer<typeof cleanRoomQuerySummary>>(true);
  same<Answer<typeof createMeetingConsent>, z.infer<typeof meetingConsent>>(true);
  same<Answer<typeof getMeetingConsent>, z.infer<typeof meetingConsent>>(true);
  same<Answer<typeof cancelMeetingConsent>, z.infer<typeof meetingConsent>>(true);
  same<Answer<typeof listMeetingConsents>, z.infer<typeof meetingConsent>>(true);
  same<Answer<typeof getModule>, z.infer<typeof productModule>>(true);
  same<Answer<typeof updateModule>, z.infer<typeof productModule>>(true);
  same<Answer<typeof listModules>, z.infer<typeof productModule>>(true);
  same<Answer<typeof getGovernance>, z.infer<typeof governance>>(true);
  same<Answer<typeof updateGovernance>, z.infer<typeof governance>>(true);
  same<Answer<typeof listGovernanceChanges>, z.infer<typeof governanceChange>>(true);
  // @ts-expect-error a room is not a query
  same<Answer<typeof getCleanRoom>, z.infer<typeof cleanRoomQuery>>(true);
}

export async function theResourcesCallTheSameFunctions(): Promise<void> {
  const svc = createClient({ baseUrl, apiToken: 'secret' });
  const room = await svc.cleanRooms.create({ agreement_id: 'agr_us_1', participants: ['tp_dev_1'], expires_at: '2027-01-01T00:00:00Z' });
  room.status satisfies 'active' | 'closed' | 'expired';
  room.privacy_budget.epsilon_remaining satisfies number;
  const q = await svc.cleanRooms.query(room.id, {
    computation_type: 'count_by_purpose',
    query_definition: { participants: ['tp_dev_1'], purposes: ['newsletter'], min_cohort: 20 },
    privacy_parameters: { epsilon: 0.5, mechanism: 'laplace' },
  });
  q.result?.buckets[0]?.count satisfies number | null | undefined;
  q.result?.noise?.mechanism satisfies 'geometric' | undefined;
  for await (const summary of svc.cleanRooms.queries(room.id))
    summary.computation_type satisfies 'count' | 'count_by_purpose' | 'overlap' | 'histogram';
  (await svc.cleanRooms.close(room.id)) satisfies z.infer<typeof cleanRoom>;

  const meeting = await svc.meetingConsents.create({ title: 'Review', duration_minutes: 30, agent_ids: ['agt_1'] });
  meeting.status satisfies 'scheduled' | 'in_progress' | 'ended' | 'cancelled';
  await svc.meetingConsents.create();
  await svc.decisions.create({ kind: 'consent', subject_ref: meeting.template, delivery_mode: 'redirect', meeting_id: meeting.id });

  const modules = await svc.modules.list().page();
  modules.items[0]?.key satisfies 'connect' | 'verify' | 'protect' | 'agree' | 'delegate' | 'comply' | undefined;
  await svc.modules.disable('comply');
  const settings = await svc.governance.update({ dsar_due_days: 30, allowed_countries: ['DE'], default_meeting_template: null });
  settings.clean_room_min_cohort satisfies number;

  // @ts-expect-error participants is an array of application ids
  await svc.cleanRooms.create({ agreement_id: 'agr_us_1', participants: 'tp_dev_1' });
  // @ts-expect-error the room's create request has no status
  await svc.cleanRooms.create({ agreement_id: 'agr_us_1', participants: ['tp_dev_1'], status: 'active' });
  // @ts-expect-error an unknown computation
  await svc.cleanRooms.query(room.id, { computation_type: 'rows', query_definition: {} });
  // @ts-expect-error query_definition is required
  await svc.cleanRooms.query(room.id, { computation_type: 'count' });
  // @ts-expect-error a query definition has no columns to select
  await svc.cleanRooms.query(room.id, { computation_type: 'count', query_definition: { fields: ['email'] } });
  // @ts-expect-error duration_minutes is a number
  await svc.meetingConsents.create({ duration_minutes: '60' });
  // @ts-expect-error a meeting names no attendees
  await svc.meetingConsents.create({ attendees: ['ada@example.com'] });
  // @ts-expect-error no such module
  await svc.modules.enable('billing');
  // @ts-expect-error no such setting
  await svc.governance.update({ mfa_required: true });

  const browser = createClient({ baseUrl, publishableKey: 'pk_test_abc' });
  // @ts-expect-error a publishable key cannot open clean rooms
  await browser.cleanRooms.list().page();
  // @ts-expect-error nor create meeting consents
  await browser.meetingConsents.create({});
  // @ts-expect-error nor read governance
  await browser.governance.get();
  // @ts-expect-error the standalone functions need a bearer connection too
  await getGovernance(connect({ baseUrl, publishableKey: 'pk_test_abc' }));
}
