import type { Access } from '../../shared/operation.ts';
import type { Permission } from '../../shared/roles.ts';
import { PERMISSIONS, roleById } from '../../shared/roles.ts';
import { authEpochOf, type Conn } from '../db/connection.ts';
import { cachePerDatabase, type MaybePromise } from '../db/epoch-cache.ts';
import { runPrepared } from '../db/prepared.ts';
import { badRequest, forbidden, notFound, unauthorized } from '../http/errors.ts';
import { hashOnConnection, type KeyKind } from './keys.ts';
import { recordKeyUse } from './last-used.ts';
import { actorNamesOf, type ActorNames } from '../modules/audit/actor-names.ts';
import { findLiveSession, type LiveSession, type SessionRow } from './session-repository.ts';

/** What a request is signed in with: an API key of either kind, or a browser session (which acts as a personal key). */
export type CallerKind = KeyKind | 'session';

/** Who is calling, and what the key or session in use opens. */
export interface Principal {
  userId: string;
  keyKind: CallerKind;
  /** The API key in use; null for a session. */
  keyId: number | null;
  keyPrefix: string | null;
  /** The session in use; null for an API key. */
  session: SessionRow | null;
  /** Set for organization keys only. */
  organizationId: number | null;
  organizationName: string | null;
  roleId: number | null;
  roleName: string | null;
  /** What the key may do in its own scope: everything for a personal key, the role's for an org key. */
  permissions: ReadonlySet<Permission>;
  /** An instance administrator (users.is_admin); what they may do as one needs a personal key or a session. */
  isAdmin: boolean;
  /** How the audit log names the person and the key, read with them (no read per audited change). */
  names: ActorNames;
}

/** What a disabled account's keys, sessions and sign-in links are answered. */
export const ACCOUNT_DISABLED = 'This account has been disabled by an instance administrator. Ask one of them to enable it again.';

const ALL = new Set<Permission>(PERMISSIONS);

const BEARER = /^Bearer +([A-Za-z0-9_-]{10,200})$/i; // schemes are case-insensitive (RFC 9110 §11.1)

const keyLookup = (db: Conn) =>
  db
    .selectFrom('api_keys as k')
    .leftJoin('memberships as m', 'm.id', 'k.membership_id')
    .leftJoin('organizations as o', 'o.id', 'k.organization_id')
    .innerJoin('users as u', 'u.id', 'k.user_id')
    .select([
      'k.id as key_id',
      'k.kind',
      'k.prefix',
      'k.user_id',
      'k.organization_id',
      'k.revoked_at',
      'k.last_used_at',
      'k.permissions',
      'm.role_id',
      'o.name as organization_name',
      'u.is_admin',
      'u.disabled_at',
      'u.first_name',
      'u.last_name',
      'u.email',
      'k.name as key_name',
    ])
    .where('k.key_hash', '=', '?'); // unique: at most one row

/** The caller's role in an organization (every org-path request asks): prepared once, like the key lookup. */
const membershipLookup = (db: Conn) =>
  db
    .selectFrom('memberships as m')
    .innerJoin('organizations as o', 'o.id', 'm.organization_id')
    .select(['m.role_id', 'o.name'])
    .where('m.organization_id', '=', 0)
    .where('m.user_id', '=', '');

type KeyRow = Awaited<ReturnType<ReturnType<typeof keyLookup>['execute']>>[number];
type MembershipRow = Awaited<ReturnType<ReturnType<typeof membershipLookup>['execute']>>[number];

/**
 * What a key's row resolves to, worked out once per read of it: the principal it authenticates (frozen:
 * shared by every request with the key until the row is read again), or the 401 it gets; and when the key
 * was last used, in milliseconds. Built per request, the principal and the parsed date were ~8 % of a cached
 * GET /v0/user/basic-info's CPU together with the key's hash.
 */
type KeyResolution = { principal: Principal; lastUsedMs: number | null } | { refusal: string };

function resolveKey(row: KeyRow | undefined): KeyResolution | undefined {
  if (!row || row.revoked_at !== null) return undefined;
  if (row.disabled_at !== null) return { refusal: ACCOUNT_DISABLED };
  const lastUsedMs = row.last_used_at === null ? null : new Date(row.last_used_at).getTime();
  const names = actorNamesOf(row.user_id, row, { name: row.key_name, prefix: row.prefix });
  if (row.kind === 'organization') {
    // An org key whose membership is gone is dead even if revocation was missed.
    const role = row.role_id === null ? undefined : roleById(row.role_id);
    if (!role || row.organization_id === null) return undefined;
    const principal: Principal = {
      userId: row.user_id,
      keyKind: 'organization',
      keyId: row.key_id,
      keyPrefix: row.prefix,
      session: null,
      organizationId: row.organization_id,
      organizationName: row.organization_name,
      roleId: role.id,
      roleName: role.name,
      permissions: keyPermissions(role.permissions, row.permissions),
      isAdmin: row.is_admin === 1,
      names,
    };
    return { principal: Object.freeze(principal), lastUsedMs };
  }
  const principal = personalPrincipal(row.user_id, row.is_admin === 1, { keyKind: 'personal', keyId: row.key_id, keyPrefix: row.prefix, session: null, names });
  return { principal, lastUsedMs };
}

/** A principal acting as the person, in their personal space with every permission: a personal key's or a session's. */
function personalPrincipal(userId: string, isAdmin: boolean, caller: Pick<Principal, 'keyKind' | 'keyId' | 'keyPrefix' | 'session' | 'names'>): Principal {
  return Object.freeze({ userId, ...caller, organizationId: null, organizationName: null, roleId: null, roleName: null, permissions: ALL, isAdmin });
}

/**
 * The two reads of every authenticated request, cached per database while nothing they depend on has
 * changed (db/epoch-cache.ts: any write to keys, memberships, organizations or users, here or in another
 * process, and at most the epoch's bound).
 */
const keyCache = cachePerDatabase<KeyResolution | undefined>(authEpochOf);
const membershipCache = cachePerDatabase<MembershipRow | undefined>(authEpochOf);

/** The person's membership of the organization (their role and its name), through the cache above. */
function membershipOf(db: Conn, organizationId: number, userId: string): MaybePromise<MembershipRow | undefined> {
  return membershipCache(db).get(`${organizationId}:${userId}`, async () => (await runPrepared(db, 'org-membership', membershipLookup, [organizationId, userId]))[0]);
}

/**
 * What an organization key may do: the lesser of its own permissions (null: no limit of its own) and its
 * member's current role.
 */
export function keyPermissions(rolePermissions: readonly Permission[], own: string | null): Set<Permission> {
  if (own === null) return new Set(rolePermissions);
  const allowed = new Set(JSON.parse(own) as Permission[]);
  return new Set(rolePermissions.filter((p) => allowed.has(p)));
}

/**
 * Resolves the Authorization header sent on `connection` to a principal, or throws the 401 semantics.md §1
 * names. Records the key's use (coarsely).
 */
export async function authenticate(db: Conn, header: string | undefined, now: Date, connection: object): Promise<Principal> {
  const match = header ? BEARER.exec(header.trim()) : null;
  if (!match) throw unauthorized('Not authenticated');
  const hash = hashOnConnection(connection, match[1]);
  const key = await keyCache(db).get(hash, async () => resolveKey((await runPrepared(db, 'authenticate', keyLookup, [hash]))[0]));
  if (!key) throw unauthorized('Invalid API key.');
  if ('refusal' in key) throw unauthorized(key.refusal);
  await recordKeyUse(db, key.principal.keyId!, key.lastUsedMs, now);
  return key.principal;
}

/** A session's principal, made once per read of its row (the session cache's), like a key's. */
const sessionPrincipals = new WeakMap<LiveSession, Principal>();

/**
 * Resolves a session cookie's value to a principal that acts as the person, like their personal key:
 * their personal space, account operations, and in an organization their current role there. An
 * unknown or ended session is a 401 (the route clears the cookie).
 */
export async function authenticateSession(db: Conn, rawId: string, now: Date, connection: object): Promise<Principal> {
  const row = await findLiveSession(db, hashOnConnection(connection, rawId), now);
  if (!row) throw unauthorized('Your session has ended. Sign in again.');
  if (row.disabled_at !== null) throw unauthorized(ACCOUNT_DISABLED);
  let principal = sessionPrincipals.get(row);
  if (!principal) {
    const names = actorNamesOf(row.user_id, row, undefined);
    principal = personalPrincipal(row.user_id, row.is_admin === 1, { keyKind: 'session', keyId: null, keyPrefix: null, session: row, names });
    sessionPrincipals.set(row, principal);
  }
  return principal;
}

const ORGANIZATION_ID = /^[1-9]\d{0,14}$/;

/**
 * A principal acting in an organization, made once per caller's principal and membership row: both are
 * shared until their rows are read again, so a workspace's requests share one principal too (and
 * GET /v0/user/basic-info's kept answer serves them).
 */
const actingPrincipals = new WeakMap<MembershipRow, WeakMap<Principal, Principal>>();

/**
 * The workspace a request names with X-Roster-Organization (shared/workspace-header.ts). A session or a
 * personal key then acts in that organization as an organization key of the person's current role would:
 * scope operations see its projects, assistants…, with the role's permissions. Membership is read through
 * the auth cache, which any write to memberships, organizations or users clears, so a removed member is
 * refused at once (by another server: within the cache's bound, as a revoked key is). Not a member (or no
 * such organization) → 404. An organization key may only name its own organization (it acts there anyway);
 * any other is 404, as on organization paths. Account operations still act on the person's account (it is
 * the person calling).
 */
export async function actInOrganization(db: Conn, principal: Principal, header: string): Promise<Principal> {
  if (!ORGANIZATION_ID.test(header.trim())) throw badRequest('X-Roster-Organization must be the id of an organization you belong to (a positive whole number).');
  const organizationId = Number(header.trim());
  if (principal.keyKind === 'organization') {
    if (principal.organizationId !== organizationId) throw notFound('Organization not found.');
    return principal;
  }
  const row = await membershipOf(db, organizationId, principal.userId);
  const role = row ? roleById(row.role_id) : undefined;
  if (!row || !role) throw notFound('Organization not found.');
  let made = actingPrincipals.get(row);
  if (!made) actingPrincipals.set(row, (made = new WeakMap()));
  let acting = made.get(principal);
  if (!acting) {
    acting = Object.freeze({
      ...principal,
      organizationId,
      organizationName: row.name,
      roleId: role.id,
      roleName: role.name,
      permissions: new Set(role.permissions),
    });
    made.set(principal, acting);
  }
  return acting;
}

/** The organization an `organization` operation acts in, and the caller's role there. */
export interface OrganizationAccess {
  id: number;
  name: string;
  roleId: number;
}

/** Key-scoped operations: the key's own scope must allow `permission`. */
function requireKeyPermission(principal: Principal, permission: Permission): void {
  if (!principal.permissions.has(permission)) {
    throw forbidden(`Missing permission ${permission} in organization ${principal.organizationId}.`);
  }
}

/**
 * Organization-path operations. A personal key (or a session) acts as the person: their current role in the
 * organization of the path decides. An organization key acts only in its own organization (any other is
 * not found, even where the person is Owner) with the lesser of its own permissions and its member's
 * current role. Not a member → 404 (existence is not revealed); a role without the permission → 403.
 */
async function requireOrgPermission(db: Conn, principal: Principal, organizationId: number, permission: Permission): Promise<OrganizationAccess> {
  if (principal.keyKind === 'organization' && principal.organizationId !== organizationId) throw notFound('Organization not found.');
  const row = await membershipOf(db, organizationId, principal.userId);
  if (!row) throw notFound('Organization not found.');
  const role = roleById(row.role_id);
  const keyAllows = principal.keyKind !== 'organization' || principal.permissions.has(permission);
  if (!role?.permissions.includes(permission) || !keyAllows) {
    throw forbidden(`Missing permission ${permission} in organization ${organizationId}.`);
  }
  return { id: organizationId, roleId: row.role_id, name: row.name };
}

/** Account operations act on the person's account: an organization key must not (a leaked one would delete the account). */
function requirePersonalKey(principal: Principal): void {
  if (principal.keyKind === 'organization') {
    throw forbidden('This changes your account: use your personal API key, not an organization key.');
  }
}

/** Instance administration: an administrator, acting as themselves (a personal key or a session). */
function requireInstanceAdmin(principal: Principal): void {
  if (!principal.isAdmin) throw forbidden('Only instance administrators can do this.');
  if (principal.keyKind === 'organization') throw forbidden('Instance administration needs your personal API key or a signed-in session, not an organization key.');
}

/**
 * Applies an operation's access rule (shared/operation.ts) to an authenticated caller; `params` are
 * the validated path parameters. Returns the organization for `organization` operations.
 */
export function authorize(db: Conn, principal: Principal, access: Access, params: Record<string, unknown>): MaybePromise<OrganizationAccess | null> {
  switch (access.kind) {
    case 'public':
    case 'signed-in':
      return null;
    case 'account':
      requirePersonalKey(principal);
      return null;
    case 'instance-admin':
      requireInstanceAdmin(principal);
      return null;
    case 'scope':
      requireKeyPermission(principal, access.permission);
      return null;
    case 'organization': {
      const id = params.organization_id;
      if (typeof id !== 'number') throw new Error('An organization operation needs an organization_id path parameter');
      return requireOrgPermission(db, principal, id, access.permission);
    }
  }
}

/** Where a key-scoped resource lives: the user's personal space or the key's organization. */
export interface Scope {
  userId: string;
  organizationId: number | null;
}

export function scopeOf(principal: Principal): Scope {
  return { userId: principal.userId, organizationId: principal.organizationId };
}
