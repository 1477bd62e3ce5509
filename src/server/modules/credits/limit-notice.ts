import { sql } from 'kysely';
import type { Conn, Dialect } from '../../db/connection.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { workspacePath } from '../../../shared/pages.ts';
import { SYSTEM_ROLES } from '../../../shared/roles.ts';

// POST /v0/user/spending-limit-reached: the platform's clients stop at their own spending limit and report
// it. Besides the audit log entry (routes.ts), the people who manage the workspace's spending hear of it by
// e-mail: the person, for a personal workspace; an organization's Owner and Admins (billing:write). A
// client may report on every call past its limit, so each of them gets at most one such e-mail a day.

const BILLING_ROLE_IDS = SYSTEM_ROLES.filter((r) => r.permissions.includes('billing:write')).map((r) => r.id);

/** How much of the client's report the e-mail quotes (the whole object is in the audit log). */
const QUOTED_CHARS = 500;

interface Workspace {
  userId: string;
  organizationId: number | null;
}

/** The e-mail addresses of the workspace's billing managers (accounts without one, or disabled, are not told). */
async function billingManagers(tx: Conn, workspace: Workspace): Promise<{ emails: string[]; organizationName: string | null }> {
  if (workspace.organizationId === null) {
    const user = await tx.selectFrom('users').select('email').where('id', '=', workspace.userId).where('disabled_at', 'is', null).executeTakeFirst();
    return { emails: user?.email ? [user.email] : [], organizationName: null };
  }
  const organization = await tx.selectFrom('organizations').select('name').where('id', '=', workspace.organizationId).executeTakeFirst();
  const members = await tx
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('u.email')
    .where('m.organization_id', '=', workspace.organizationId)
    .where('m.role_id', 'in', BILLING_ROLE_IDS)
    .where('u.disabled_at', 'is', null)
    .orderBy('m.id')
    .execute();
  return { emails: members.flatMap((m) => (m.email ? [m.email] : [])), organizationName: organization?.name ?? null };
}

/** The e-mail's subject and body: what was reported (quoted, cut), and where to see spend and change the limit. */
function limitReachedMail(publicUrl: string, workspace: Workspace, organizationName: string | null, notice: unknown, now: Date) {
  const reported = JSON.stringify(notice);
  const quoted = reported.length > QUOTED_CHARS ? `${reported.slice(0, QUOTED_CHARS)}…` : reported;
  const where = organizationName === null ? 'your Roster account' : `the organization ${organizationName} on Roster`;
  const link = workspace.organizationId === null ? `${publicUrl}/account` : `${publicUrl}${workspacePath(workspace.organizationId, '/activity')}`;
  const subject = organizationName === null ? 'Your spending limit was reached on Roster' : `${organizationName} reached its spending limit on Roster`;
  const text = [
    `A client using ${where} reported on ${now.toUTCString()} that it reached its spending limit.`,
    '',
    `What it reported: ${quoted}`,
    '',
    'Roster does not stop spending by itself: the client stops at its own limit.',
    workspace.organizationId === null ? `See this month's spending and change the limit: ${link}` : `See the notice in the organization's activity: ${link}`,
    '',
    'You get at most one of these e-mails a day.',
  ].join('\n');
  return { subject, text };
}

/**
 * Queues the e-mail to each billing manager of the workspace who has not had one today (UTC), in the
 * caller's transaction. Returns how many were queued. Reports that arrive together are taken one at a time
 * per workspace: on PostgreSQL two transactions could both find no mail yet and both queue one (seen with
 * 24 reports at once: 4 mails); SQLite's write lock already orders them.
 */
export async function mailLimitReached(tx: Conn, dialect: Dialect, publicUrl: string, workspace: Workspace, notice: unknown, now: Date): Promise<number> {
  const scope = workspace.organizationId === null ? `user:${workspace.userId}` : `organization:${workspace.organizationId}`;
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtextextended(${`spending-limit:${scope}`}, 0))`.execute(tx);
  const { emails, organizationName } = await billingManagers(tx, workspace);
  const day = now.toISOString().slice(0, 10);
  let queued = 0;
  for (const email of emails) {
    const reference = `spending-limit:${scope}:${day}:${email}`;
    const sent = await tx.selectFrom('mail_outbox').select('id').where('reference', '=', reference).executeTakeFirst();
    if (sent) continue;
    await enqueueMail(
      tx,
      { to: email, ...limitReachedMail(publicUrl, workspace, organizationName, notice, now), reference, organizationId: workspace.organizationId },
      now,
    );
    queued += 1;
  }
  return queued;
}
