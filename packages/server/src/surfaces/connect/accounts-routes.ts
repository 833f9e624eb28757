// Connect's `/api/v1/accounts`: the caller's account and its users (API tokens).
import {
  accountEnvelope,
  accountList,
  accountUserEnvelope,
  createAccountUserRequest,
  listQuery,
  updateAccountRequest,
  updateAccountUserRequest,
} from '@svc/schemas';
import { route, routes } from '../../infra/http/route.js';
import { DEFAULT_LIMIT } from '../../infra/pagination.js';
import { addAccountUser, getAccount, listAccounts, removeAccountUser, updateAccount, updateAccountUserRole } from './accounts.js';

const ACCOUNTS = '/api/v1/accounts';
const tag = 'Accounts';

export const accountRoutes = routes((app, ctx) => {
  route(
    app,
    {
      method: 'get',
      path: ACCOUNTS,
      summary: "List the accounts the caller sees: the API token's own account",
      tag,
      permission: 'read',
      query: listQuery,
      response: { status: 200, description: 'A page of accounts (an array of Account in the list envelope)', schema: accountList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor } }) => c.json(listAccounts(ctx, c.get('principal').accountId, { limit, cursor })),
  );

  route(
    app,
    {
      method: 'get',
      path: `${ACCOUNTS}/{id}`,
      summary: 'Read the account with its users (another account is a 404)',
      tag,
      permission: 'read',
      response: { status: 200, description: 'The account', schema: accountEnvelope },
      errors: [404],
    },
    (c) => c.json({ account: getAccount(ctx, c.get('principal').accountId, c.req.param('id')!) }),
  );

  route(
    app,
    {
      method: 'patch',
      path: `${ACCOUNTS}/{id}`,
      summary:
        'Rename the account (write), or hand it to a new owner (admin): owner_id is the user_id of one of its users, or the account id for the organisation itself. 422 not_an_account_user',
      tag,
      permission: 'write',
      body: updateAccountRequest,
      response: { status: 200, description: 'The account', schema: accountEnvelope },
      errors: [404],
    },
    (c, { body }) => c.json({ account: updateAccount(ctx, c.get('principal'), c.req.param('id')!, body.account) }),
  );

  route(
    app,
    {
      method: 'post',
      path: `${ACCOUNTS}/{id}/account_users`,
      summary:
        "Add a person of the account (prs_…, at their home cell) as one of its users, a viewer of the console unless role is admin. 409 account_user_exists; 422 user_not_found, too_many_account_users; 421 for another cell's person",
      tag,
      permission: 'admin',
      body: createAccountUserRequest,
      response: { status: 201, description: 'The account user', schema: accountUserEnvelope },
      errors: [404, 409],
    },
    (c, { body }) => {
      const id = c.req.param('id')!;
      const accountUser = addAccountUser(ctx, c.get('principal').accountId, id, body.user_id, body.role);
      c.header('Location', `${ACCOUNTS}/${id}/account_users/${accountUser.id}`);
      return c.json({ account_user: accountUser }, 201);
    },
  );

  route(
    app,
    {
      method: 'patch',
      path: `${ACCOUNTS}/{id}/account_users/{account_user_id}`,
      summary: "Change an account user's console role (admin or viewer). 409 owner_stays_admin for the owner",
      tag,
      permission: 'admin',
      body: updateAccountUserRequest,
      response: { status: 200, description: 'The account user', schema: accountUserEnvelope },
      errors: [404, 409],
    },
    (c, { body }) => {
      const { id, account_user_id } = c.req.param() as { id: string; account_user_id: string };
      const accountUser = updateAccountUserRole(ctx, c.get('principal').accountId, id, account_user_id, body.account_user.role);
      return c.json({ account_user: accountUser });
    },
  );

  route(
    app,
    {
      method: 'delete',
      path: `${ACCOUNTS}/{id}/account_users/{account_user_id}`,
      summary: 'Remove an account user (409 owner_cannot_be_removed for the owner)',
      tag,
      permission: 'admin',
      response: { status: 204, description: 'Removed' },
      errors: [404, 409],
    },
    (c) => {
      removeAccountUser(ctx, c.get('principal').accountId, c.req.param('id')!, c.req.param('account_user_id')!);
      return c.body(null, 204);
    },
  );
});
