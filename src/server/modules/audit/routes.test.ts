import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../../shared/audit.ts';
import { ROLE_IDS } from '../../../shared/roles.ts';
import { makeTestApp, type TestApp, type TestUser } from '../../testing/harness.ts';

const SECOND = 1000;

/** Every row of the table for an action, whatever the workspace: "exactly one row" means one in the whole database. */
const rowsOf = (t: TestApp, action: string, organizationId?: number) => {
  const query = t.db.selectFrom('audit_events').selectAll().where('action', '=', action);
  return (organizationId === undefined ? query : query.where('organization_id', '=', organizationId)).orderBy('id').execute();
};
const countAll = async (t: TestApp) =>
  Number(
    (
      await t.db
        .selectFrom('audit_events')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function ok(res: { statusCode: number; body: string; json: () => unknown }, status = 200) {
  expect(res.statusCode, res.body).toBe(status);
  return (res.body === '' ? undefined : res.json()) as never;
}

async function orgWorld() {
  const t = await makeTestApp();
  const owner = await t.user({ first: 'Olivia', last: 'Owner' });
  const admin = await t.user({ first: 'Adam', last: 'Admin' });
  const member = await t.user({ first: 'Mia', last: 'Member' });
  const viewer = await t.user({ first: 'Vic', last: 'Viewer' });
  const org = await t.org(owner, 'Acme');
  const adminKey = await t.member(org.organizationId, admin, ROLE_IDS.Admin);
  const memberKey = await t.member(org.organizationId, member, ROLE_IDS.Member);
  const viewerKey = await t.member(org.organizationId, viewer, ROLE_IDS.Viewer);
  const base = `/v0/organizations/${org.organizationId}`;
  const inOrg = { 'x-roster-organization': String(org.organizationId) };
  return { t, owner, admin, member, viewer, org, adminKey, memberKey, viewerKey, base, inOrg };
}

/** The single row of `action`, checked to be the only one and to name `actor`. */
async function onlyRow(t: TestApp, action: string, actor: TestUser, organizationId?: number) {
  const rows = await rowsOf(t, action, organizationId);
  expect(rows, action).toHaveLength(1);
  expect(rows[0]!.actor_user_id, action).toBe(actor.userId);
  return rows[0]!;
}

describe('the organization audit log', () => {
  it('records each change once, with who made it, in the organization’s log', async () => {
    const { t, owner, admin, member, org, base, inOrg } = await orgWorld();
    const outsider = await t.user({ first: 'Ian', last: 'Invitee' });

    // Invites: sent (by the Admin, with a named key), accepted (by the invitee), another one cancelled.
    const adminNamedKey = (await ok(await t.request('POST', '/v0/keys', { key: admin.apiKey, json: { name: 'Admin script' } }), 201)) as { api_key: string };
    const invite = (await ok(await t.request('POST', `${base}/invites`, { key: adminNamedKey.api_key, json: { email: outsider.email, role_id: 4 } }), 201)) as {
      id: string;
      token: string;
    };
    const sent = await onlyRow(t, 'invite.sent', admin);
    expect(sent).toMatchObject({
      organization_id: org.organizationId,
      user_id: null,
      actor_name: 'Adam Admin',
      actor_key_name: 'Admin script',
      target_label: outsider.email,
    });
    await ok(await t.request('POST', `/v0/invites/${invite.token}/accept`, { key: outsider.apiKey }));
    await onlyRow(t, 'invite.accepted', outsider);
    const second = (await ok(await t.request('POST', `${base}/invites`, { key: owner.apiKey, json: { email: 'later@example.com' } }), 201)) as { id: string };
    await ok(await t.request('DELETE', `${base}/invites/${second.id}`, { session: await t.session(owner) }), 204);
    const cancelled = await onlyRow(t, 'invite.cancelled', owner);
    // A session has no key: the person alone is named.
    expect(cancelled).toMatchObject({ actor_key_id: null, actor_key_name: null, actor_name: 'Olivia Owner', target_label: 'later@example.com' });

    // Members: role change, added, removed.
    await ok(await t.request('PATCH', `${base}/members/${member.userId}`, { key: owner.apiKey, json: { role_id: ROLE_IDS.Viewer } }));
    const changed = await onlyRow(t, 'member.role_changed', owner);
    expect(JSON.parse(changed.detail!)).toEqual({ from_role_id: ROLE_IDS.Member, role_id: ROLE_IDS.Viewer });
    expect(changed.target_label).toBe('Mia Member');
    const added = await t.user();
    await ok(await t.request('POST', `${base}/members`, { key: owner.apiKey, json: { user_id: added.userId, role_id: ROLE_IDS.Member } }), 201);
    await onlyRow(t, 'member.added', owner);
    await ok(await t.request('DELETE', `${base}/members/${added.userId}`, { key: admin.apiKey }), 204);
    await onlyRow(t, 'member.removed', admin);

    // Organization keys.
    const key = (await ok(await t.request('POST', `${base}/keys`, { key: admin.apiKey, json: { name: 'Dashboards', permissions: ['project:read'] } }), 201)) as {
      id: number;
    };
    // (The Admin's personal key above is in their personal log, not here.)
    expect(await onlyRow(t, 'key.created', admin, org.organizationId)).toMatchObject({ target_label: 'Dashboards' });
    await ok(await t.request('DELETE', `${base}/keys/${key.id}`, { key: owner.apiKey }));
    await ok(await t.request('DELETE', `${base}/keys/${key.id}`, { key: owner.apiKey })); // already revoked: nothing more
    await onlyRow(t, 'key.revoked', owner);

    // Assistants, projects, contexts, a rollback and a template import, through X-Roster-Organization.
    await ok(await t.request('POST', `/v0/organizations/${org.organizationId}/credits`, { key: owner.apiKey, json: { amount: 30 } }));
    const hired = (await ok(await t.request('POST', '/v0/assistant', { key: admin.apiKey, headers: inOrg, json: { first_name: 'Ada', surname: 'Lovelace' } }))) as {
      info: { agent_id: number };
    };
    expect(await onlyRow(t, 'assistant.hired', admin)).toMatchObject({ organization_id: org.organizationId, target_label: 'Ada Lovelace' });
    const assistantId = hired.info.agent_id;
    await ok(await t.request('PATCH', `/v0/assistant/${assistantId}/config`, { key: admin.apiKey, headers: inOrg, json: { about: 'Writes' } }));
    expect(JSON.parse((await onlyRow(t, 'assistant.reconfigured', admin)).detail!)).toEqual({ fields: ['about'] });
    await ok(await t.request('DELETE', `/v0/assistant/${assistantId}`, { key: owner.apiKey, headers: inOrg }));
    await onlyRow(t, 'assistant.deleted', owner);

    await ok(await t.request('POST', '/v0/project', { key: admin.apiKey, headers: inOrg, json: { name: 'demo', is_versioned: true } }));
    await onlyRow(t, 'project.created', admin);
    await ok(await t.request('POST', '/v0/project/demo/contexts', { key: admin.apiKey, headers: inOrg, json: { name: 'runs' } }));
    expect(await onlyRow(t, 'context.created', admin)).toMatchObject({ target_label: 'demo/runs' });
    await ok(await t.request('POST', '/v0/project/demo/contexts/runs/logs', { key: admin.apiKey, headers: inOrg, json: { entries: [{ a: 1 }] } }));
    const commit = (
      (await ok(await t.request('POST', '/v0/project/demo/contexts/runs/commit', { key: admin.apiKey, headers: inOrg, json: {} }))) as { commit_hash: string }
    ).commit_hash;
    await ok(await t.request('POST', '/v0/project/demo/contexts/runs/rollback', { key: owner.apiKey, headers: inOrg, json: { commit_hash: commit } }));
    expect(JSON.parse((await onlyRow(t, 'context.rolled_back', owner)).detail!)).toEqual({ commit_hash: commit });

    const iface = (
      (await ok(await t.request('POST', '/v0/project/demo/interfaces', { key: admin.apiKey, headers: inOrg, json: { name: 'Main' } }), 201)) as { info: { id: string } }
    ).info;
    const tab = (
      (await ok(await t.request('POST', `/v0/interface/${iface.id}/tabs`, { key: admin.apiKey, headers: inOrg, json: { name: 'Overview' } }), 201)) as {
        info: { id: string };
      }
    ).info;
    const template = { name: 'Imported', type: 'Table', position: { x: 0, y: 0, width: 6, height: 4 }, context: 'runs', table_tile: { table_type: 'default' } };
    await ok(await t.request('POST', '/v0/tile/import_template', { key: admin.apiKey, headers: inOrg, json: { project: 'demo', tab_id: tab.id, template } }));
    expect(await onlyRow(t, 'template.imported', admin)).toMatchObject({ target_label: 'demo: Imported' });

    await ok(await t.request('DELETE', '/v0/project/demo/contexts/runs', { key: admin.apiKey, headers: inOrg }));
    await onlyRow(t, 'context.deleted', admin);
    await ok(await t.request('DELETE', '/v0/project/demo', { key: admin.apiKey, headers: inOrg }));
    await onlyRow(t, 'project.deleted', admin);

    // Ownership transfer: in the organization's log and in the previous owner's own.
    await ok(await t.request('POST', `${base}/transfer-ownership`, { key: owner.apiKey, json: { user_id: admin.userId, confirm_name: 'Acme' } }));
    const transfers = await rowsOf(t, 'organization.ownership_transferred');
    expect(transfers.map((r) => [r.organization_id, r.user_id, r.actor_user_id])).toEqual([
      [org.organizationId, null, owner.userId],
      [null, owner.userId, owner.userId],
    ]);
    // Leaving.
    await ok(await t.request('POST', `${base}/leave`, { key: outsider.apiKey, json: { confirm_name: 'Acme' } }));
    await onlyRow(t, 'member.left', outsider);

    // The API answers them newest first, in words a client can filter on.
    const page = (await ok(await t.request('GET', `${base}/audit`, { key: admin.apiKey }))) as { events: AuditEvent[]; next_cursor: string | null };
    expect(page.next_cursor).toBeNull();
    expect(page.events[0]).toMatchObject({ action: 'member.left', actor: { user_id: outsider.userId, name: 'Ian Invitee', key_id: expect.any(Number) } });
    expect(page.events.map((e) => e.action).at(-1)).toBe('organization.created');
    expect(page.events.findLast((e) => e.action === 'invite.sent')).toMatchObject({
      actor: { user_id: admin.userId, name: 'Adam Admin', key_name: 'Admin script' },
      target: { type: 'invite', label: outsider.email },
      detail: { role_id: 4 },
    });
  });

  it('writes nothing when the change fails', async () => {
    const { t, owner, admin, org, base, inOrg } = await orgWorld();
    const before = await countAll(t);
    // An invalid address, an unknown role, an Owner invite, a member already there.
    expect((await t.request('POST', `${base}/invites`, { key: owner.apiKey, json: { email: 'not-an-address' } })).statusCode).toBe(422);
    expect((await t.request('POST', `${base}/invites`, { key: owner.apiKey, json: { email: 'a@example.com', role_id: 1 } })).statusCode).toBe(400);
    expect((await t.request('POST', `${base}/invites`, { key: owner.apiKey, json: { email: admin.email } })).statusCode).toBe(409);
    // Hiring with too few credits (the organization has none): 402, no assistant, no row.
    const broke = await t.request('POST', '/v0/assistant', { key: owner.apiKey, headers: inOrg, json: { first_name: 'Nope' } });
    expect(broke.statusCode).toBe(402);
    // A rollback to a commit of another context.
    await ok(await t.request('POST', '/v0/project', { key: owner.apiKey, headers: inOrg, json: { name: 'p', is_versioned: true } }));
    for (const name of ['a', 'b']) await ok(await t.request('POST', '/v0/project/p/contexts', { key: owner.apiKey, headers: inOrg, json: { name } }));
    await ok(await t.request('POST', '/v0/project/p/contexts/a/logs', { key: owner.apiKey, headers: inOrg, json: { entries: [{ x: 1 }] } }));
    const foreign = ((await ok(await t.request('POST', '/v0/project/p/contexts/a/commit', { key: owner.apiKey, headers: inOrg, json: {} }))) as { commit_hash: string })
      .commit_hash;
    const afterSetup = await countAll(t);
    expect(afterSetup).toBe(before + 3); // the project and its two contexts
    const rollback = await t.request('POST', '/v0/project/p/contexts/b/rollback', { key: owner.apiKey, headers: inOrg, json: { commit_hash: foreign } });
    expect(rollback.statusCode).toBe(400);
    // A duplicate project or context, the owner's role, a Member's key management.
    expect((await t.request('POST', '/v0/project', { key: owner.apiKey, headers: inOrg, json: { name: 'p' } })).statusCode).toBe(400);
    expect((await t.request('POST', '/v0/project/p/contexts', { key: owner.apiKey, headers: inOrg, json: { name: 'a' } })).statusCode).toBe(400);
    expect((await t.request('PATCH', `${base}/members/${owner.userId}`, { key: admin.apiKey, json: { role_id: 2 } })).statusCode).toBe(400);
    expect((await t.request('POST', `${base}/keys`, { key: admin.apiKey, json: { name: 'x', permissions: ['org:delete'] } })).statusCode).toBe(422);
    expect((await t.request('POST', `${base}/transfer-ownership`, { key: owner.apiKey, json: { user_id: admin.userId, confirm_name: 'wrong' } })).statusCode).toBe(400);
    expect(await countAll(t)).toBe(afterSetup);
    expect(org.organizationId).toBeGreaterThan(0);
  });

  it('is for Owners and Admins: Members and Viewers get 403, outsiders 404, organization keys need org:write', async () => {
    const { t, owner, admin, member, viewer, memberKey, viewerKey, adminKey, base } = await orgWorld();
    for (const key of [owner.apiKey, admin.apiKey, adminKey]) expect((await t.request('GET', `${base}/audit`, { key })).statusCode).toBe(200);
    expect((await t.request('GET', `${base}/audit`, { session: await t.session(admin) })).statusCode).toBe(200);
    for (const key of [member.apiKey, viewer.apiKey, memberKey, viewerKey]) {
      const res = await t.request('GET', `${base}/audit`, { key });
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toMatch(/Missing permission org:write/);
    }
    // An Admin's key limited to reading projects cannot read the log either.
    const narrow = (await ok(
      await t.request('POST', `${base}/keys`, { key: admin.apiKey, json: { name: 'Narrow', permissions: ['project:read', 'org:read'] } }),
      201,
    )) as {
      api_key: string;
    };
    expect((await t.request('GET', `${base}/audit`, { key: narrow.api_key })).statusCode).toBe(403);
    const outsider = await t.user();
    expect((await t.request('GET', `${base}/audit`, { key: outsider.apiKey })).statusCode).toBe(404);
  });

  it('never shows another organization’s events, nor the personal ones', async () => {
    const { t, owner, base, inOrg } = await orgWorld();
    const other = await t.user();
    const otherOrg = await t.org(other, 'Elsewhere');
    await ok(
      await t.request('POST', '/v0/project', { key: other.apiKey, headers: { 'x-roster-organization': String(otherOrg.organizationId) }, json: { name: 'theirs' } }),
    );
    await ok(await t.request('POST', '/v0/project', { key: owner.apiKey, json: { name: 'mine-personal' } }));
    await ok(await t.request('POST', '/v0/project', { key: owner.apiKey, headers: inOrg, json: { name: 'ours' } }));
    const events = ((await ok(await t.request('GET', `${base}/audit`, { key: owner.apiKey }))) as { events: AuditEvent[] }).events;
    expect(events.map((e) => e.target?.label)).toEqual(['ours', 'Acme']);
    // The other organization's id in the path: not a member, 404; its owner's key for ours: 404 too.
    expect((await t.request('GET', `/v0/organizations/${otherOrg.organizationId}/audit`, { key: owner.apiKey })).statusCode).toBe(404);
    expect((await t.request('GET', `${base}/audit`, { key: otherOrg.ownerKey })).statusCode).toBe(404);
    const personal = ((await ok(await t.request('GET', '/v0/user/audit', { key: owner.apiKey }))) as { events: AuditEvent[] }).events;
    expect(personal.map((e) => [e.action, e.target?.label])).toEqual([['project.created', 'mine-personal']]);
  });

  it('pages newest first with a stable cursor, and filters by person and action', async () => {
    const { t, owner, admin, base, inOrg } = await orgWorld();
    for (let i = 0; i < 7; i++) {
      const who = i % 2 === 0 ? owner : admin;
      await ok(await t.request('POST', '/v0/project', { key: who.apiKey, headers: inOrg, json: { name: `p${i}` } }));
      if (i < 4) t.clock.advance(SECOND); // the last ones share a timestamp: the id breaks the tie
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `?action=project.created&limit=3${cursor ? `&cursor=${cursor}` : ''}`;
      const page = (await ok(await t.request('GET', `${base}/audit${query}`, { key: owner.apiKey }))) as { events: AuditEvent[]; next_cursor: string | null };
      seen.push(...page.events.map((e) => e.target!.label!));
      cursor = page.next_cursor;
      pages++;
      // A change made while paging lands on top and neither repeats nor shifts the pages that follow.
      if (pages === 1) await ok(await t.request('POST', '/v0/project', { key: owner.apiKey, headers: inOrg, json: { name: 'late' } }));
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(['p6', 'p5', 'p4', 'p3', 'p2', 'p1', 'p0']);

    const byAdmin = (await ok(await t.request('GET', `${base}/audit?actor=${admin.userId}`, { key: owner.apiKey }))) as { events: AuditEvent[] };
    expect(byAdmin.events.map((e) => e.target!.label)).toEqual(['p5', 'p3', 'p1']);
    const invites = (await ok(await t.request('GET', `${base}/audit?action=invite.sent`, { key: owner.apiKey }))) as { events: AuditEvent[] };
    expect(invites.events).toEqual([]);

    expect((await t.request('GET', `${base}/audit?action=bogus`, { key: owner.apiKey })).statusCode).toBe(422);
    expect((await t.request('GET', `${base}/audit?limit=101`, { key: owner.apiKey })).statusCode).toBe(422);
    const badCursor = await t.request('GET', `${base}/audit?cursor=nonsense`, { key: owner.apiKey });
    expect(badCursor.statusCode).toBe(400);
    expect(badCursor.json().detail).toMatch(/pass next_cursor/);
  });
});

describe('the personal audit log', () => {
  it('records keys, sign-outs and the personal workspace’s changes, for the person only', async () => {
    const t = await makeTestApp();
    const me = await t.user({ first: 'Pat', last: 'Person' });
    const someone = await t.user();
    const session = await t.session(me);
    const key = (await ok(await t.request('POST', '/v0/keys', { session, json: { name: 'Laptop' } }), 201)) as { id: number; api_key: string };
    expect(await onlyRow(t, 'key.created', me)).toMatchObject({ user_id: me.userId, organization_id: null, actor_key_id: null, target_label: 'Laptop' });
    await ok(await t.request('DELETE', `/v0/keys/${key.id}`, { key: me.apiKey }));
    expect(await onlyRow(t, 'key.revoked', me)).toMatchObject({ actor_key_name: expect.stringMatching(/^rk_/) });
    await ok(await t.request('POST', '/v0/assistant', { key: me.apiKey, json: { first_name: 'Solo' } }));
    await onlyRow(t, 'assistant.hired', me);
    await ok(await t.request('DELETE', '/v0/sessions', { session }));
    expect(JSON.parse((await onlyRow(t, 'sessions.signed_out_everywhere', me)).detail!)).toEqual({ sessions_ended: 1 });
    await ok(await t.request('POST', '/v0/keys/revoke-all', { key: me.apiKey, json: { confirm: 'revoke all my keys' } }));
    await onlyRow(t, 'key.revoked_all', me);
    const fresh = (await rowsOf(t, 'key.revoked_all'))[0]!;
    expect(JSON.parse(fresh.detail!)).toEqual({ revoked: 1 });

    // Too few credits: nothing hired, nothing logged.
    const poor = await t.user({ credits: 0 });
    expect((await t.request('POST', '/v0/assistant', { key: poor.apiKey, json: { first_name: 'Nope' } })).statusCode).toBe(402);
    expect(await rowsOf(t, 'assistant.hired')).toHaveLength(1);

    // Read back with a new session (every key was just revoked): newest first, the other person sees none of it.
    const page = (await ok(await t.request('GET', '/v0/user/audit', { session: await t.session(me) }))) as { events: AuditEvent[] };
    expect(page.events.map((e) => e.action)).toEqual(['key.revoked_all', 'sessions.signed_out_everywhere', 'assistant.hired', 'key.revoked', 'key.created']);
    expect(((await ok(await t.request('GET', '/v0/user/audit', { key: someone.apiKey }))) as { events: AuditEvent[] }).events).toEqual([]);
  });

  it('names the actor as their rows read when they act: a person renamed in between, with a key or a session', async () => {
    const t = await makeTestApp();
    const me = await t.user({ first: 'Pat', last: 'Person' });
    const session = await t.session(me);
    const named = (await ok(await t.request('POST', '/v0/keys', { session, json: { name: 'Laptop' } }), 201)) as { id: number; api_key: string };
    const create = (name: string, auth: { key: string } | { session: string }) => t.request('POST', '/v0/project', { ...auth, json: { name } });
    await ok(await create('one', { key: named.api_key }));
    await ok(await create('two', { session }));
    await ok(await create('three', { key: me.apiKey }));
    // No endpoint renames a person or a key: on the database, as an administrator's tool would.
    await t.db.updateTable('users').set({ first_name: 'Robin', last_name: null }).where('id', '=', me.userId).execute();
    await t.db.updateTable('api_keys').set({ name: 'Desktop' }).where('id', '=', named.id).execute();
    await ok(await create('four', { key: named.api_key }));
    await ok(await create('five', { session }));
    const rows = await rowsOf(t, 'project.created');
    expect(rows.map((r) => [r.target_label, r.actor_name, r.actor_key_name])).toEqual([
      ['one', 'Pat Person', 'Laptop'],
      ['two', 'Pat Person', null],
      ['three', 'Pat Person', expect.stringMatching(/^rk_.*…$/)],
      ['four', 'Robin', 'Desktop'],
      ['five', 'Robin', null],
    ]);
  });

  it('refuses organization keys (403)', async () => {
    const t = await makeTestApp();
    const me = await t.user();
    const org = await t.org(me);
    const res = await t.request('GET', '/v0/user/audit', { key: org.ownerKey });
    expect(res.statusCode).toBe(403);
  });
});
