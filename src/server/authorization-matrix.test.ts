import { describe, expect, it } from 'vitest';
import type { AnyOperation } from '../shared/operation.ts';
import { fillPath } from '../shared/operation.ts';
import { OPERATIONS } from '../shared/operations/index.ts';
import { SYSTEM_ROLES as ROLES, type Permission } from '../shared/roles.ts';
import { ORGANIZATION_HEADER } from '../shared/workspace-header.ts';
import { multipart, PNG } from './modules/assistants/test-helpers.ts';
import { makeTestApp, type TestApp } from './testing/harness.ts';

// The authorization rule (semantics.md, Roles and permissions) asserted for every operation × key ×
// role × organization, over HTTP. The expected answers are computed from each operation's access rule,
// never listed by hand: a new operation is covered as soon as it has an example request below.

/** A valid request for each operation; `{org}` in a path parameter is replaced by the target organization. */
const EXAMPLES: Record<
  string,
  { params?: Record<string, unknown>; query?: Record<string, string>; body?: unknown; form?: 'photo' | 'voice'; headers?: Record<string, string> }
> = {
  health: {},
  getBasicInfo: {},
  getCredits: {},
  // Allowed callers take 1 credit from their own scope's balance (it may go below zero).
  deductCredits: { body: { amount: 1, category: 'matrix' } },
  getUserSpend: { query: { month: '2026-11' } },
  getAssistantSpend: { params: { assistant_id: 999999 } },
  getOrganizationSpend: { params: { organization_id: '{org}' } },
  // Someone who is not a member: allowed callers get 404 Member not found, never their spend.
  getMemberSpend: { params: { organization_id: '{org}', user_id: 'no-such-user' } },
  notifySpendingLimitReached: { body: { limit: 10, spent: 12 } },
  createProject: { body: { name: 'matrix-new' } },
  deleteProject: { params: { project_name: 'no-such-project' } },
  getProject: { params: { project_name: 'no-such-project' } },
  listProjects: {},
  commitProject: { params: { project_name: 'no-such-project' }, body: { commit_message: 'm' } },
  listProjectCommits: { params: { project_name: 'no-such-project' } },
  rollbackProject: { params: { project_name: 'no-such-project' }, body: { commit_hash: 'abc' } },
  commitContext: { params: { project_name: 'p', context_name: 'c' }, body: { commit_message: 'm' } },
  createContext: { params: { project_name: 'p' }, body: { name: 'c' } },
  createLogs: { params: { project_name: 'p', context_name: 'c' }, body: { entries: [{ a: 1 }] } },
  deleteContext: { params: { project_name: 'p', context_name: 'c' } },
  deleteAllContexts: { params: { project_name: 'no-such-project' } },
  getContext: { params: { project_name: 'p', context_name: 'c' } },
  renameContext: { params: { project_name: 'p', context_name: 'c' }, body: { name: 'd' } },
  addLogsToContext: { params: { project_name: 'p' }, body: { context_name: 'c', log_ids: [1] } },
  deleteLog: { params: { project_name: 'p', context_name: 'c', log_id: 1 } },
  listCommits: { params: { project_name: 'p', context_name: 'c' } },
  listContexts: { params: { project_name: 'p' } },
  listLogs: { params: { project_name: 'p', context_name: 'c' } },
  rollbackContext: { params: { project_name: 'p', context_name: 'c' }, body: { commit_hash: 'abc' } },
  updateLog: { params: { project_name: 'p', context_name: 'c', log_id: 1 }, body: { entries: { a: 2 } } },
  createLogEvents: { body: { project_name: 'p', context: 'c', entries: { a: 1 } } },
  getLogEvents: { query: { project_name: 'p', context: 'c' } },
  updateLogEvents: { body: { logs: [1], entries: { a: 2 } } },
  deleteLogEvents: { body: { project_name: 'p', context: 'c', ids_and_fields: [[[1], null]] } },
  getLogsMetric: { params: { metric: 'mean' }, query: { project_name: 'p', context: 'c', key: 'a' } },
  getLogsGroups: { query: { project_name: 'p', context: 'c', key: 'a' } },
  atomicUpdateLogField: { params: { log_id: 1, field: 'a' }, body: { operation: '+1' } },
  getLogFields: { query: { project_name: 'p', context: 'c' } },
  createLogFields: { body: { project_name: 'p', context: 'c', fields: { a: 'int' } } },
  deleteLogFields: { body: { project_name: 'p', context: 'c', fields: ['a'] } },
  renameLogField: { body: { project_name: 'p', context: 'c', old_field_name: 'a', new_field_name: 'b' } },
  joinQueryLogs: { body: { project_name: 'p', pair_of_args: [{ context: 'c' }, { context: 'c' }], join_expr: 'A.a == B.a', mode: 'inner', offset: 0 } },
  joinLogs: { body: { project_name: 'p', pair_of_args: [{ context: 'c' }, { context: 'c' }], join_expr: 'A.a == B.a', mode: 'inner', new_context: 'joined' } },
  createDerivedLogs: { body: { project_name: 'p', context: 'c', key: 'k', equation: '{l:a} * 2', referenced_logs: { l: { context: 'c' } } } },
  getLogsFederated: { body: { project_name: 'p', contexts: [{ context: 'c' }] } },
  claimLogs: { body: { project: 'p', context: 'c', expect: { a: 1 }, updates: { a: 2 } } },
  hydrateLogs: { body: { project_name: 'p', context: 'c' } },
  requestExternalWrite: { body: { project_name: 'p', context: 'c' } },
  updateExternalFieldBinding: { body: { project_name: 'p', context: 'c', field_name: 'a', binding: {} } },
  acquireSyncLease: { body: { project: 'p', lease_key: 'k', holder: 'h', ttl_seconds: 60 } },
  releaseSyncLease: { body: { project: 'p', lease_key: 'k', holder: 'h' } },
  checkpointTile: { params: { id: 'no-such-tile' } },
  createInterface: { params: { project_name: 'p' }, body: { name: 'i' } },
  createTab: { params: { id: 'no-such-interface' }, body: { name: 't' } },
  createTile: { params: { id: 'no-such-tab' }, body: { name: 't', position: { x: 0, y: 0, width: 4, height: 2 } } },
  deleteInterface: { params: { id: 'no-such-interface' } },
  deleteTab: { params: { id: 'no-such-tab' } },
  deleteTile: { params: { id: 'no-such-tile' } },
  exportTileTemplate: { body: { tile_id: 'no-such-tile' } },
  importTileTemplate: { body: { project: 'p', tab_id: 'no-such-tab', template: { name: 't', position: { x: 0, y: 0, width: 4, height: 2 } } } },
  listInterfaces: { params: { project_name: 'p' } },
  updateTile: { params: { id: 'no-such-tile' }, body: { name: 'renamed' } },
  addMember: { params: { organization_id: '{org}' }, body: { user_id: 'no-such-user', role_id: 4 } },
  changeMemberRole: { params: { organization_id: '{org}', user_id: 'no-such-user' }, body: { role_id: 4 } },
  createOrganization: { body: { name: 'Matrix made' } },
  listMembers: {},
  listOrganizationMembers: { params: { organization_id: '{org}' } },
  listOrganizations: {},
  listRoles: { params: { organization_id: '{org}' } },
  removeMember: { params: { organization_id: '{org}', user_id: 'no-such-user' } },
  // A name that does not match: allowed callers get 400, and nothing is transferred, left or deleted.
  transferOwnership: { params: { organization_id: '{org}' }, body: { user_id: 'no-such-user', confirm_name: 'Not this organization' } },
  leaveOrganization: { params: { organization_id: '{org}' }, body: { confirm_name: 'Not this organization' } },
  getOrganizationDeletion: { params: { organization_id: '{org}' } },
  deleteOrganization: { params: { organization_id: '{org}' }, body: { confirm_name: 'Not this organization' } },
  // More than anyone's balance: allowed callers get 402, nothing moves.
  moveCreditsToOrganization: { params: { organization_id: '{org}' }, body: { amount: 1_000_000_000 } },
  acceptInvite: { params: { token: 'no-such-token-0123456789' } },
  cancelInvite: { params: { organization_id: '{org}', invite_id: '00000000-0000-4000-8000-000000000000' } },
  declineInvite: { params: { token: 'no-such-token-0123456789' } },
  inviteUser: { params: { organization_id: '{org}' }, body: { email: 'matrix-invitee@example.com', role_id: 4 } },
  listInvites: { params: { organization_id: '{org}' } },
  myPendingInvites: {},
  showInvite: { params: { token: 'no-such-token-0123456789' } },
  previewInvite: { params: { token: 'no-such-token-0123456789' } },
  // Joining sets a session cookie, like signing in: it comes from the dashboard's page (its same-origin headers).
  joinByInvite: { params: { token: 'no-such-token-0123456789' }, body: {}, headers: { origin: 'http://localhost:8080', 'x-roster-csrf': '1' } },
  canDeleteAccount: {},
  getClassification: {},
  // The email form, whose refusal is the point for organization keys; a taken e-mail keeps it harmless.
  createUserWithBusinessInfo: { body: { account_type: 'individual', email: null } },
  listAdminUsers: { query: { search: 'a' } },
  disableUser: { params: { user_id: 'someone' } },
  enableUser: { params: { user_id: 'someone' } },
  listAdminOrganizations: {},
  listCreditGrants: {},
  grantCredits: { body: { organization_id: 1, amount: 5, reason: 'matrix' } },
  // A confirmation that does not match: allowed callers get 400, nothing is deleted.
  deleteAccount: { body: { confirm_email: 'not-this-account@example.com' } },
  getSpendingLimit: {},
  setSpendingLimit: { body: { monthly_spending_cap: null } },
  createCustomEndpoint: { body: { name: 'matrix@custom', url: 'https://llm.example.com/v1', model_arg: 'm' } },
  deleteCustomEndpoint: { query: { name: 'no-such-endpoint' } },
  listCustomEndpoints: {},
  createAssistant: { body: { first_name: 'Matrix', create_infra: false } },
  deleteAssistant: { params: { assistant_id: 999999 } },
  getAssistant: { params: { assistant_id: 999999 } },
  getAssistantPricing: {},
  listAssistants: {},
  updateAssistantConfig: { params: { assistant_id: 999999 }, body: { first_name: 'Renamed' } },
  uploadAssistantPhoto: { form: 'photo' },
  cloneVoice: { form: 'voice' },
  deleteVoice: { params: { voice_id: 'no-such-voice' } },
  listVoices: {},
  listPersonalKeys: {},
  createPersonalKey: { body: { name: 'Matrix key' } },
  revokePersonalKey: { params: { key_id: 999999 } },
  // A confirmation that does not match: allowed callers get 400, every key keeps working.
  revokeAllKeys: { body: { confirm: 'not yet' } },
  listOrganizationKeys: { params: { organization_id: '{org}' } },
  createOrganizationKey: { params: { organization_id: '{org}' }, body: { name: 'Matrix org key', permissions: ['project:read'] } },
  revokeOrganizationKey: { params: { organization_id: '{org}', key_id: 999999 } },
  listOrganizationAudit: { params: { organization_id: '{org}' } },
  listPersonalAudit: {},
  requestSignInLink: { body: { email: 'matrix-link@example.com' } },
  // Sign-in comes from the dashboard's page, whoever calls (login CSRF): its same-origin headers.
  signIn: { body: { token: 'no-such-token-0123456789' }, headers: { origin: 'http://localhost:8080', 'x-roster-csrf': '1' } },
  getCurrentSession: {},
  // The sign-outs end the session the `session` caller uses: they run last (see `ordered`).
  signOut: {},
  signOutEverywhere: {},
};

/** Operations that end the caller's session, asked after every other. */
const ENDS_SESSIONS = new Set(['signOut', 'signOutEverywhere']);

/**
 * `session`: the person signed in by e-mail link, which acts as their personal key does. `… in own org` /
 * `… in the other org`: the same with X-Roster-Organization naming A (where they have the role under test)
 * or B (where they are Owner), as the dashboard does under `/o/<id>/`.
 */
type Caller = 'personal' | 'session' | 'own org key' | 'owner key of the other org' | 'session in own org' | 'session in the other org' | 'personal key in own org';
type Target = 'own org' | 'other org (Owner there)';
type Expected = 'allowed' | 403 | 404;

const can = (roleId: number, permission: Permission) => ROLES.find((r) => r.id === roleId)!.permissions.includes(permission);

/**
 * The rule. The person is `roleId` in organization A (where `own org key` belongs) and Owner of B
 * (where `owner key of the other org` belongs); `own org` is A for the personal key and each key's own
 * organization for the keys.
 */
function expected(op: AnyOperation, callerKind: Caller, target: Target, roleId: number): Expected {
  const workspace = WORKSPACE_OF[callerKind];
  if (workspace) return expectedInWorkspace(op, target, roleId, workspace === 'own org' ? roleId : 1);
  const caller = callerKind === 'session' ? 'personal' : callerKind;
  const keyRole = caller === 'own org key' ? roleId : 1;
  switch (op.access.kind) {
    case 'public':
    case 'signed-in':
      return 'allowed';
    case 'account':
      return caller === 'personal' ? 'allowed' : 403;
    case 'instance-admin':
      // The person is not an instance administrator (the organization's owner, created first, is).
      return 403;
    case 'scope':
      return caller === 'personal' || can(keyRole, op.access.permission) ? 'allowed' : 403;
    case 'organization': {
      if (caller !== 'personal' && target !== 'own org') return 404;
      const role = caller === 'personal' ? (target === 'own org' ? roleId : 1) : keyRole;
      return can(role, op.access.permission) ? 'allowed' : 403;
    }
  }
}

/** The organization a session or personal key names in X-Roster-Organization, for the callers that do. */
const WORKSPACE_OF: Partial<Record<Caller, Target>> = {
  'session in own org': 'own org',
  'session in the other org': 'other org (Owner there)',
  'personal key in own org': 'own org',
};

/**
 * The person acting in an organization by the header, with `workspaceRole` there: scope operations as an
 * organization key of that role; account operations as the person (it is them calling); organization
 * paths as the person, by their role in the organization of the path.
 */
function expectedInWorkspace(op: AnyOperation, target: Target, roleId: number, workspaceRole: number): Expected {
  switch (op.access.kind) {
    case 'public':
    case 'signed-in':
    case 'account':
      return 'allowed';
    case 'instance-admin':
      return 403;
    case 'scope':
      return can(workspaceRole, op.access.permission) ? 'allowed' : 403;
    case 'organization':
      return can(target === 'own org' ? roleId : 1, op.access.permission) ? 'allowed' : 403;
  }
}

const usesSession = (caller: Caller) => caller === 'session' || caller === 'session in own org' || caller === 'session in the other org';

interface World {
  t: TestApp;
  /** A bearer key, or the session cookie for `session`. */
  keys: Record<Caller, string>;
  /** A fresh session for the person (after an operation that ended the last one). */
  newSession: () => Promise<string>;
  /** The organization a caller's `own org` / `other org` means. */
  orgs: Record<Caller, Record<Target, number>>;
}

async function world(roleId: number): Promise<World> {
  const t = await makeTestApp();
  const owner = await t.user();
  const person = await t.user();
  const a = await t.org(owner, 'Matrix A');
  const keyA = await t.member(a.organizationId, person, roleId);
  const b = await t.org(person, 'Matrix B');
  const A = a.organizationId;
  const B = b.organizationId;
  return {
    t,
    newSession: () => t.session(person),
    keys: {
      personal: person.apiKey,
      session: await t.session(person),
      'own org key': keyA,
      'owner key of the other org': b.ownerKey,
      'session in own org': '',
      'session in the other org': '',
      'personal key in own org': person.apiKey,
    },
    orgs: {
      personal: { 'own org': A, 'other org (Owner there)': B },
      session: { 'own org': A, 'other org (Owner there)': B },
      'session in own org': { 'own org': A, 'other org (Owner there)': B },
      'session in the other org': { 'own org': A, 'other org (Owner there)': B },
      'personal key in own org': { 'own org': A, 'other org (Owner there)': B },
      'own org key': { 'own org': A, 'other org (Owner there)': B },
      'owner key of the other org': { 'own org': B, 'other org (Owner there)': A },
    },
  };
}

async function call(w: World, op: AnyOperation, caller: Caller, target: Target) {
  const example = EXAMPLES[op.operationId];
  const orgId = w.orgs[caller][target];
  const params = Object.fromEntries(Object.entries(example.params ?? {}).map(([k, v]) => [k, v === '{org}' ? orgId : v]));
  const query = example.query ? `?${new URLSearchParams(example.query)}` : '';
  const url = fillPath(op.path, params) + query;
  // A session sends its cookie the way the dashboard does (same origin, CSRF header: harness.ts).
  const credentials = usesSession(caller) ? { session: w.keys.session } : { key: w.keys[caller] };
  const workspace = WORKSPACE_OF[caller];
  const headers: Record<string, string> = workspace ? { [ORGANIZATION_HEADER]: String(w.orgs[caller][workspace]) } : {};
  if (example.form) {
    const form =
      example.form === 'photo'
        ? multipart({}, { filename: 'p.png', contentType: 'image/png', content: PNG })
        : multipart({ name: 'Matrix voice' }, { filename: 'v.txt', contentType: 'text/plain', content: Buffer.from('not audio') });
    return w.t.request(op.method, url, { ...credentials, headers: { ...headers, ...form.headers }, payload: form.payload });
  }
  return w.t.request(op.method, url, { ...credentials, headers: { ...headers, ...example.headers }, ...(example.body !== undefined ? { json: example.body } : {}) });
}

const CALLERS: Caller[] = [
  'personal',
  'session',
  'own org key',
  'owner key of the other org',
  'session in own org',
  'session in the other org',
  'personal key in own org',
];
const TARGETS: Target[] = ['own org', 'other org (Owner there)'];
// Owner is covered by the organization the person creates; a member can be anything else.
const MEMBER_ROLES = ROLES.filter((r) => r.id !== 1);

describe('authorization matrix (generated from the operations’ access rules)', () => {
  it('has a valid example request for every operation', () => {
    expect(OPERATIONS.map((op) => op.operationId).filter((id) => !(id in EXAMPLES))).toEqual([]);
    for (const op of OPERATIONS) {
      const example = EXAMPLES[op.operationId];
      if (op.body && example.body !== undefined) expect(op.body.safeParse(example.body).success, op.operationId).toBe(true);
      if (op.query) expect(op.query.safeParse(example.query ?? {}).success, op.operationId).toBe(true);
    }
  });

  for (const role of MEMBER_ROLES) {
    it(`answers as the rule says for a ${role.name} of the organization who owns another`, async () => {
      const w = await world(role.id);
      const mismatches: string[] = [];
      // Deletions last, so that what an allowed deletion removes cannot change a later answer.
      const rank = (op: AnyOperation) => (ENDS_SESSIONS.has(op.operationId) ? 2 : Number(op.method === 'DELETE'));
      const ordered = [...OPERATIONS].sort((x, y) => rank(x) - rank(y));
      for (const op of ordered) {
        const orgPath = op.access.kind === 'organization';
        for (const caller of CALLERS) {
          if (usesSession(caller) && ENDS_SESSIONS.has(op.operationId)) w.keys.session = await w.newSession();
          for (const target of orgPath ? TARGETS : (['own org'] as Target[])) {
            const want = expected(op, caller, target, role.id);
            const res = await call(w, op, caller, target);
            const body = res.body.length < 2000 ? res.body : `${res.body.slice(0, 2000)}…`;
            const orgNotFound = res.statusCode === 404 && /Organization not found/.test(res.body);
            const ok =
              want === 'allowed'
                ? res.statusCode !== 401 && res.statusCode !== 403 && !orgNotFound && res.statusCode < 500 && (res.statusCode !== 422 || !!op.multipart)
                : want === 404
                  ? orgNotFound
                  : res.statusCode === 403;
            if (!ok) mismatches.push(`${op.operationId} by ${caller} in ${target}: expected ${want}, got ${res.statusCode} ${body}`);
          }
        }
      }
      expect(mismatches).toEqual([]);
      // Nothing a refused request could have done: the person still has both organizations and their account.
      const orgs = await w.t.request('GET', '/v0/organizations', { key: w.keys.personal });
      expect(orgs.statusCode).toBe(200);
      // Some 500 requests per role, growing with every operation: more than the default 20 s on PostgreSQL on a busy machine.
    }, 60_000);
  }
});
