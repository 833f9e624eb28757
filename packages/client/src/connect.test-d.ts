// Type tests of the Connect surface, checked by `tsc -b` (never run): each client method takes `z.input` of the
// schema the server validates with and answers `z.infer` of the schema it parses; each `@ts-expect-error` must meet
// an error, or the build fails.
import type { z } from 'zod/mini';
import {
  addAccountUser,
  claimDeviceLink,
  connect,
  createClient,
  createConnection,
  createDeviceLink,
  disconnectConnection,
  listConnections,
  type SvcList,
} from './index.js';
import type {
  accountEnvelope,
  accountList,
  accountUserEnvelope,
  claimDeviceLinkRequest,
  connectionEnvelope,
  connectionList,
  createAccountUserRequest,
  createConnectionRequest,
  createDeviceLinkRequest,
  deviceLinkEnvelope,
  disconnectResult,
  suspendConnectionRequest,
  trustPairingEnvelope,
  trustPairingList,
  updateAccountRequest,
} from '@svc/schemas';
import type { AccountsResource, ConnectionsResource, DeviceLinksResource, TrustPairingsResource } from './resources/connect.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;
type Awaited1<T> = T extends Promise<infer U> ? U : never;
type Item<T> = T extends SvcList<infer U> ? U : never;

// ---- Requests are the schemas' input types -----------------------------------------------------------------------
export type AccountRequests = [
  Expect<Equal<Parameters<AccountsResource['update']>[1], z.input<typeof updateAccountRequest>['account']>>,
  Expect<Equal<Parameters<AccountsResource['addUser']>[1], z.input<typeof createAccountUserRequest>>>,
];
export type ConnectionRequests = [
  Expect<Equal<Parameters<ConnectionsResource['create']>[0], z.input<typeof createConnectionRequest>>>,
  Expect<Equal<Parameters<ConnectionsResource['suspend']>[1], z.input<typeof suspendConnectionRequest>>>,
];
export type DeviceRequests = [
  Expect<Equal<Parameters<DeviceLinksResource['create']>[0], z.input<typeof createDeviceLinkRequest> | undefined>>,
  Expect<Equal<Parameters<DeviceLinksResource['claim']>[0], z.input<typeof claimDeviceLinkRequest>>>,
];

// ---- Responses are the schemas' output types ---------------------------------------------------------------------
export type AccountResponses = [
  Expect<Equal<Item<ReturnType<AccountsResource['list']>>, z.infer<typeof accountList>['accounts'][number]>>,
  Expect<Equal<Awaited1<ReturnType<AccountsResource['get']>>, z.infer<typeof accountEnvelope>['account']>>,
  Expect<Equal<Awaited1<ReturnType<AccountsResource['update']>>, z.infer<typeof accountEnvelope>['account']>>,
  Expect<Equal<Awaited1<ReturnType<AccountsResource['addUser']>>, z.infer<typeof accountUserEnvelope>['account_user']>>,
  Expect<Equal<Awaited1<ReturnType<AccountsResource['removeUser']>>, void>>,
];
export type ConnectionResponses = [
  Expect<Equal<Awaited1<ReturnType<ConnectionsResource['create']>>, z.infer<typeof connectionEnvelope>['connection']>>,
  Expect<Equal<Item<ReturnType<ConnectionsResource['list']>>, z.infer<typeof connectionList>['connections'][number]>>,
  Expect<Equal<Awaited1<ReturnType<ConnectionsResource['get']>>, z.infer<typeof connectionEnvelope>['connection']>>,
  Expect<Equal<Awaited1<ReturnType<ConnectionsResource['suspend']>>, z.infer<typeof connectionEnvelope>['connection']>>,
  Expect<Equal<Awaited1<ReturnType<ConnectionsResource['resume']>>, z.infer<typeof connectionEnvelope>['connection']>>,
  Expect<Equal<Awaited1<ReturnType<ConnectionsResource['disconnect']>>, z.infer<typeof disconnectResult>>>,
];
export type DeviceResponses = [
  // The create answer is the schema's, with the code it always carries there.
  Expect<Equal<Awaited1<ReturnType<DeviceLinksResource['create']>>, z.infer<typeof deviceLinkEnvelope>['device_link'] & { code: string }>>,
  Expect<Equal<Awaited1<ReturnType<DeviceLinksResource['get']>>, z.infer<typeof deviceLinkEnvelope>['device_link']>>,
  Expect<Equal<Awaited1<ReturnType<DeviceLinksResource['cancel']>>, z.infer<typeof deviceLinkEnvelope>['device_link']>>,
  Expect<Equal<Awaited1<ReturnType<DeviceLinksResource['claim']>>, z.infer<typeof trustPairingEnvelope>['trust_pairing']>>,
  Expect<Equal<Item<ReturnType<TrustPairingsResource['list']>>, z.infer<typeof trustPairingList>['trust_pairings'][number]>>,
  Expect<Equal<Awaited1<ReturnType<TrustPairingsResource['revoke']>>, z.infer<typeof trustPairingEnvelope>['trust_pairing']>>,
];

const baseUrl = 'http://127.0.0.1:4010';

export async function connectSurface(): Promise<void> {
  const svc = createClient({ baseUrl, apiToken: 'secret' });
  const person = createClient({ baseUrl, accessToken: 'at' });

  const account = await svc.accounts.get('acct_1');
  account.account_users[0]?.user_id satisfies string | undefined;
  await svc.accounts.update(account.id, { name: 'Acme' });
  // @ts-expect-error the envelope is the client's job, not the caller's
  await svc.accounts.update(account.id, { account: { name: 'Acme' } });
  // @ts-expect-error an account's personal flag is not changed through the API
  await svc.accounts.update(account.id, { personal: true });
  await svc.accounts.addUser(account.id, { user_id: 'prs_us_1' });
  // @ts-expect-error a user is named by user_id
  await svc.accounts.addUser(account.id, { person_id: 'prs_us_1' });

  const connection = await person.connections.create({ application_id: 'tp_dev_1' });
  connection.trust_tier satisfies 'connected' | 'consented' | 'delegated' | null;
  connection.status satisfies 'active' | 'suspended' | 'disconnected';
  for (const policy of connection.active_policies) {
    if (policy.type === 'consent_record') policy.purposes satisfies string[];
    else policy.delegated_scopes satisfies string[];
  }
  // @ts-expect-error the application is named by application_id
  await person.connections.create({ application: 'tp_dev_1' });
  // @ts-expect-error a suspension needs a reason
  await person.connections.suspend(connection.id, {});
  // @ts-expect-error statuses are a closed set
  person.connections.list({ status: 'paused' });
  const { warnings } = await person.connections.disconnect(connection.id);
  warnings satisfies string[];
  // @ts-expect-error a disconnected connection answers only id, status and disconnected_at
  (await person.connections.disconnect(connection.id)).connection.active_policies;

  const link = await person.deviceLinks.create({ device_name: 'Laptop' });
  link.code satisfies string;
  // @ts-expect-error a listed link never carries its code for sure
  const listed: string = (await person.deviceLinks.list().page()).items[0]!.code;
  const pairing = await person.deviceLinks.claim({ code: link.code, device_name: 'Phone' });
  pairing.claimant.client_id satisfies string;
  // @ts-expect-error the claiming device names itself
  await person.deviceLinks.claim({ code: link.code });
  await person.trustPairings.revoke(pairing.id);

  // Standalone functions take a bearer connection, never a publishable one.
  const server = connect({ baseUrl, accessToken: 'at' });
  await createConnection(server, { application_id: 'tp_dev_1' });
  await disconnectConnection(server, 'con_us_1');
  await createDeviceLink(server);
  await claimDeviceLink(server, { code: 'ABCD-EFGH', device_name: 'Phone' });
  listConnections(server, { application_id: 'tp_dev_1' });
  const page = connect({ baseUrl, publishableKey: 'pk_test_abc' });
  // @ts-expect-error a publishable key connects nobody
  await createConnection(page, { application_id: 'tp_dev_1' });
  // @ts-expect-error nor manages account users
  await addAccountUser(page, 'acct_1', { user_id: 'prs_us_1' });
  // @ts-expect-error the publishable client has no accounts
  createClient({ baseUrl, publishableKey: 'pk_test_abc' }).accounts;
  void listed;
}
