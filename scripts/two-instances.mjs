// `npm run test:two-instances` (issue 8): two server processes on one PostgreSQL, one S3-compatible
// bucket (s3rver) and one SMTP server behave as one service. Each instance has its own data directory,
// so nothing can be shared through local disk or process memory. Checks: an invite created on one is
// accepted on the other; a photo uploaded to one is served by the other; one key's rate limit is
// counted across both; the outbox delivers an invite mail exactly once although both workers poll;
// 25 concurrent assistant hires split across both, with credits for exactly 10, create exactly 10; a
// browser session signed in on one is used and signed out on the other.
// Ends with `N passed, N failed`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { SMTPServer } from 'smtp-server';
import { startCluster } from './pg-cluster.mjs';

const root = path.resolve(import.meta.dirname, '..');
const RATE_LIMIT = 30;
let passed = 0;
let failed = 0;
const check = (name, problem) => {
  if (!problem) {
    passed++;
    console.log(`ok   ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}: ${problem}`);
  }
};

const cleanups = [];
const servers = [];
try {
  const cluster = startCluster();
  cleanups.push(() => cluster.stop());

  const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'roster-two-s3-'));
  const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir, configureBuckets: [{ name: 'roster', configs: [] }] });
  const s3Address = await s3.run();
  cleanups.push(() => s3.close());

  const mails = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        mails.push(session.envelope.rcptTo.map((r) => r.address).join(','));
        callback();
      });
    },
  });
  await new Promise((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => smtp.close(resolve)));
  const smtpPort = smtp.server.address().port;

  const basePort = 21000 + Math.floor(Math.random() * 20000);
  const envFor = (i) => ({
    ...process.env,
    DATABASE_URL: cluster.url,
    ROSTER_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), `roster-two-${i}-`)),
    ROSTER_WEB_DIR: 'none',
    ROSTER_SEED_DEMO: 'false',
    ROSTER_LOG_LEVEL: 'warn',
    ROSTER_S3_ENDPOINT: `http://127.0.0.1:${s3Address.port}`,
    ROSTER_S3_BUCKET: 'roster',
    ROSTER_S3_ACCESS_KEY_ID: 'S3RVER',
    ROSTER_S3_SECRET_ACCESS_KEY: 'S3RVER',
    ROSTER_SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    ROSTER_RATE_LIMIT: String(RATE_LIMIT),
    ROSTER_RATE_LIMIT_ANON: '1000',
    PORT: String(basePort + i),
    ROSTER_PUBLIC_URL: `http://127.0.0.1:${basePort + i}`,
  });

  // Asynchronous: the bucket and the SMTP server run in this process and must go on answering while
  // the CLI (a whole app, which stores the preset voice samples on start) talks to them.
  const cli = (...args) =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['scripts/roster.mjs', ...args], { cwd: root, env: envFor(9), stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve(JSON.parse(stdout)) : reject(new Error(`roster ${args.join(' ')}: ${stderr}`))));
    });

  // Both start at once: migrations on one database must serialize, not collide.
  const start = (i) =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['scripts/roster.mjs', 'serve'], { cwd: root, env: envFor(i), stdio: ['ignore', 'pipe', 'pipe'] });
      servers.push(child);
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('Roster is running')) resolve(`http://127.0.0.1:${basePort + i}`);
      });
      child.stderr.on('data', (d) => (out += d));
      child.on('exit', (code, signal) => {
        if (signal !== 'SIGTERM') console.error(`instance ${i} exited (${code ?? signal}):\n${out.slice(-3000)}`);
        reject(new Error(`instance ${i} exited with ${code ?? signal}`));
      });
      setTimeout(() => reject(new Error(`instance ${i} did not start: ${out}`)), 90_000).unref();
    });
  const [a, b] = await Promise.all([start(0), start(1)]);

  /**
   * Asks B again every 10 ms while it still answers 200, for at most 5 s (the caches' bound should a
   * notification be lost), and prints how long B took to refuse after the change on A answered.
   */
  const askUntilRefused = async (ask, who, change) => {
    const from = Date.now();
    let answer = await ask();
    while (answer.status === 200 && Date.now() - from < 5_000) {
      await new Promise((r) => setTimeout(r, 10));
      answer = await ask();
    }
    console.log(`  (B refused ${who} ${Date.now() - from} ms after ${change} answered)`);
    return answer;
  };

  const call = async (base, key, method, url, json) => {
    const res = await fetch(base + url, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await res.text();
    let body = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    return { status: res.status, body, raw: text };
  };

  // 1. An invite made on A is accepted on B.
  const owner = await cli('user', 'create', '--email', 'owner@example.com', '--credits', '100');
  const guest = await cli('user', 'create', '--email', 'guest@example.com');
  const org = await call(a, owner.api_key, 'POST', '/v0/organizations', { name: 'Two Instances Ltd' });
  const orgId = org.body?.id;
  const invite = await call(a, owner.api_key, 'POST', `/v0/organizations/${orgId}/invites`, { email: 'guest@example.com' });
  const accepted = await call(b, guest.api_key, 'POST', `/v0/invites/${invite.body?.token}/accept`);
  const members = await call(a, owner.api_key, 'GET', `/v0/organizations/${orgId}/members`);
  const memberList = members.body?.members ?? members.body ?? [];
  check(
    'an invite created on A is accepted on B and the member shows on A',
    org.status !== 201
      ? `create org → ${org.status} ${org.raw}`
      : invite.status !== 201
        ? `invite → ${invite.status} ${invite.raw}`
        : accepted.status !== 200
          ? `accept on B → ${accepted.status} ${accepted.raw}`
          : memberList.length !== 2
            ? `members on A: ${members.raw}`
            : null,
  );

  // 2. A photo uploaded to A is served by B (and lives in the bucket, not on either disk).
  // A valid 1×1 PNG: photos are decoded and re-encoded, so a header alone would be refused (422).
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
  const form = new FormData();
  form.append('file', new Blob([png], { type: 'image/png' }), 'me.png');
  const upload = await fetch(`${a}/v0/assistant/photo/upload`, { method: 'POST', headers: { authorization: `Bearer ${owner.api_key}` }, body: form });
  const uploaded = await upload.json();
  const filePath = uploaded.info ? new URL(uploaded.info.url).pathname : null;
  const served = filePath ? await fetch(b + filePath) : null;
  const bytes = served ? Buffer.from(await served.arrayBuffer()) : Buffer.alloc(0);
  // What is stored is the re-encoded image, so B must serve exactly what A stored and says it stored.
  const fromA = filePath ? Buffer.from(await (await fetch(a + filePath)).arrayBuffer()) : Buffer.alloc(0);
  check(
    'a photo uploaded to A is served by B from the bucket',
    upload.status !== 201
      ? `upload on A → ${upload.status} ${JSON.stringify(uploaded)}`
      : served?.status !== 200
        ? `GET on B → ${served?.status}`
        : bytes.length !== uploaded.info.size || !bytes.equals(fromA) || !bytes.subarray(0, 8).equals(png.subarray(0, 8))
          ? `bytes differ (B served ${bytes.length}, A ${fromA.length}, stored size ${uploaded.info.size})`
          : null,
  );

  // 4. The outbox sends the invite mail once, though both instances' workers poll it.
  const deadline = Date.now() + 20_000;
  while (!mails.includes('guest@example.com') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  await new Promise((r) => setTimeout(r, 6_000)); // several more polls of both workers
  const sent = mails.filter((m) => m === 'guest@example.com').length;
  check('the invite mail is delivered exactly once by two polling workers', sent === 1 ? null : `delivered ${sent} times`);

  // 5. Credits: concurrent hires split across both instances cannot overspend.
  const buyer = await cli('user', 'create', '--email', 'buyer@example.com', '--credits', '100'); // 10 hires at the default cost of 10
  // 25 stays under the key's rate limit, so every refusal is the credit check's.
  const hires = await Promise.all(
    Array.from({ length: 25 }, (_, i) =>
      call(i % 2 ? a : b, buyer.api_key, 'POST', '/v0/assistant', { name: `Hire ${i}` }).catch((e) => ({ status: 0, raw: String(e.cause ?? e) })),
    ),
  );
  const created = hires.filter((h) => h.status === 200).length;
  const short = hires.filter((h) => h.status === 402).length;
  const credits = await call(b, buyer.api_key, 'GET', '/v0/credits');
  const listed = await call(a, buyer.api_key, 'GET', '/v0/assistant');
  const count = (listed.body?.info ?? listed.body?.assistants ?? listed.body ?? []).length;
  check(
    `25 concurrent hires over two instances with credits for 10: ${created} created, ${short} refused (402), balance ${credits.body?.credits}`,
    created === 10 && short === 15 && credits.body?.credits === 0 && count === 10
      ? null
      : `listed ${count}; statuses ${[...new Set(hires.map((h) => h.status))].join(',')}`,
  );
  // 6. A session signed in on A works on B (the session row is in the shared database), and signing out on
  // A ends it on B. Sent as the dashboard sends cookie requests: same origin and the CSRF header.
  const dashboard = (base, cookie) => ({ origin: base, 'x-roster-csrf': '1', 'content-type': 'application/json', ...(cookie ? { cookie } : {}) });
  const { link } = await cli('login-link', '--email', 'owner@example.com');
  const signIn = await fetch(`${a}/v0/sessions`, { method: 'POST', headers: dashboard(a), body: JSON.stringify({ token: new URL(link).hash.slice('#token='.length) }) });
  const cookie = signIn.headers.get('set-cookie')?.split(';')[0] ?? '';
  const onB = await fetch(`${b}/v0/user/basic-info`, { headers: { cookie } });
  const meOnB = onB.status === 200 ? await onB.json() : null;
  const changeOnB = await fetch(`${b}/v0/project`, { method: 'POST', headers: dashboard(b, cookie), body: JSON.stringify({ name: 'made-by-session-on-b' }) });
  const signOutOnA = await fetch(`${a}/v0/sessions/current`, { method: 'DELETE', headers: dashboard(a, cookie) });
  // B kept the session between requests: it drops it when the sign-out's commit notification arrives
  // (auth/session-repository.ts), within milliseconds; 5 s is the bound should a notification be lost.
  const afterOnB = await askUntilRefused(() => fetch(`${b}/v0/user/basic-info`, { headers: { cookie } }), 'the signed-out session', 'the sign-out on A');
  check(
    'a session signed in on A acts on B, and signing out on A ends it on B (at the commit notification)',
    signIn.status !== 201 || !cookie
      ? `sign-in on A → ${signIn.status} ${await signIn.text()}`
      : meOnB?.email !== 'owner@example.com' || meOnB?.key?.kind !== 'session'
        ? `basic-info on B → ${onB.status} ${JSON.stringify(meOnB)}`
        : changeOnB.status !== 200
          ? `create project on B → ${changeOnB.status} ${await changeOnB.text()}`
          : signOutOnA.status !== 204 || afterOnB.status !== 401
            ? `sign out on A → ${signOutOnA.status}, then B → ${afterOnB.status}`
            : null,
  );

  // 6b. A member acting in the organization's workspace (X-Roster-Organization) on B, removed on A: B keeps the
  // membership between requests (auth/principal.ts) and drops it at the commit notification; 5 s is the bound.
  const asGuestInOrgOnB = () => fetch(`${b}/v0/projects`, { headers: { authorization: `Bearer ${guest.api_key}`, 'x-roster-organization': String(orgId) } });
  const inOrgBefore = await asGuestInOrgOnB();
  await asGuestInOrgOnB(); // now kept on B
  const removed = await call(a, owner.api_key, 'DELETE', `/v0/organizations/${orgId}/members/${guest.user_id}`);
  const inOrgAfter = await askUntilRefused(asGuestInOrgOnB, 'the removed member', 'the removal on A');
  check(
    "a member removed on A is refused on B in the organization's workspace (at the commit notification)",
    inOrgBefore.status !== 200
      ? `in the workspace on B before → ${inOrgBefore.status} ${await inOrgBefore.text()}`
      : removed.status !== 204
        ? `remove on A → ${removed.status} ${removed.raw}`
        : inOrgAfter.status !== 404
          ? `in the workspace on B after → ${inOrgAfter.status} ${await inOrgAfter.text()}`
          : null,
  );

  // 7. The logs API over two instances: logs written on A are read with a filter on B; increments of one
  // field sent to both at once all count (the atomic update locks the row in the shared database).
  const logger = await cli('user', 'create', '--email', 'logger@example.com');
  await call(a, logger.api_key, 'POST', '/v0/project', { name: 'runs' });
  const written = await call(a, logger.api_key, 'POST', '/v0/logs', {
    project_name: 'runs',
    context: { name: 'eval/a' },
    entries: Array.from({ length: 10 }, (_, i) => ({ step: i, score: i / 10, n: 0 })),
  });
  const ids = written.body?.log_event_ids ?? [];
  const increments = await Promise.all(
    Array.from({ length: 20 }, (_, i) => call(i % 2 ? a : b, logger.api_key, 'PATCH', `/v0/logs/${ids[0]}/fields/n/atomic`, { operation: '+1' }).then((r) => r.status)),
  );
  const read = await call(
    b,
    logger.api_key,
    'GET',
    `/v0/logs?project_name=runs&context=eval/a&filter=${encodeURIComponent('score >= 0.5')}&sorting=${encodeURIComponent('{"step": "ascending"}')}`,
  );
  const counted = await call(b, logger.api_key, 'GET', `/v0/logs?project_name=runs&context=eval/a&from_ids=${ids[0]}`);
  check(
    'logs written on A are read with a filter on B; 20 increments split over both count 20',
    written.status !== 200 || ids.length !== 10
      ? `POST /v0/logs on A → ${written.status} ${written.raw.slice(0, 300)}`
      : read.status !== 200 || read.body?.count !== 5 || read.body?.logs?.[0]?.entries?.step !== 5
        ? `filtered read on B → ${read.status} ${read.raw.slice(0, 300)}`
        : increments.some((st) => st !== 200) || counted.body?.logs?.[0]?.entries?.n !== 20
          ? `increments ${[...new Set(increments)].join(',')}, n = ${JSON.stringify(counted.body?.logs?.[0]?.entries?.n)}`
          : null,
  );

  // 3. One key's rate limit is one budget across both instances. Run last: after this burst of 429s on
  // PostgreSQL, one later request on a reused keep-alive socket was seen cut off ("other side closed");
  // not yet understood, noted in the issue.
  const limited = await cli('user', 'create', '--email', 'busy@example.com');
  // Windows are fixed and aligned to the clock (ROSTER_RATE_LIMIT_WINDOW, 60 s): a burst that straddles a
  // minute's end is counted in two windows (seen once on a loaded machine: 51 answered, 9 refused). Start
  // it with at least 30 s of the window left.
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 30_000) await new Promise((resolve) => setTimeout(resolve, left + 200));
  const statuses = await Promise.all(
    Array.from({ length: 2 * RATE_LIMIT }, (_, i) => call(i % 2 ? a : b, limited.api_key, 'GET', '/v0/user/basic-info').then((r) => r.status)),
  );
  const ok = statuses.filter((s) => s === 200).length;
  const refused = statuses.filter((s) => s === 429).length;
  check(
    `one key's rate limit (${RATE_LIMIT}/window) is shared: ${ok} answered, ${refused} refused of ${statuses.length}`,
    ok === RATE_LIMIT && refused === RATE_LIMIT ? null : `expected ${RATE_LIMIT} and ${RATE_LIMIT}`,
  );
} catch (error) {
  console.error(error);
  failed++;
} finally {
  for (const child of servers) child.kill('SIGTERM');
  await Promise.all(servers.map((c) => new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r() : c.on('exit', r)))));
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch (error) {
      console.error('cleanup:', error.message);
    }
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
