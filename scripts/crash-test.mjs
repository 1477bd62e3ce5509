// `npm run test:crash` (issue 8): writers (projects, rows, commits, organizations, invites, and
// assistants with photos when that module is present) run against a real server that is killed with SIGKILL in the
// middle of the load, ten times over on one SQLite database. After each kill the server is restarted and
// checked: every write that was answered 2xx is there, PRAGMA integrity_check is ok, each credit ledger
// sums to its balance, and no stored file reference points at a missing file. A last round checks that
// SIGTERM drains in-flight requests instead of dropping them. Ends with `N passed, N failed`.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';

const root = path.resolve(import.meta.dirname, '..');
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 10);
const WORKERS = 8;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roster-crash-'));
const dbFile = path.join(dataDir, 'roster.db');
const port = 20000 + Math.floor(Math.random() * 20000);
const base = `http://127.0.0.1:${port}`;
const env = {
  ...process.env,
  DATABASE_URL: '',
  ROSTER_DATA_DIR: dataDir,
  ROSTER_WEB_DIR: 'none',
  ROSTER_SEED_DEMO: 'false',
  ROSTER_RATE_LIMIT: '0',
  ROSTER_RATE_LIMIT_ANON: '0',
  ROSTER_MAIL_WORKER: 'false',
  ROSTER_LOG_LEVEL: 'warn',
  PORT: String(port),
};

function cli(...args) {
  const res = spawnSync(process.execPath, ['scripts/roster.mjs', ...args], { cwd: root, env, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`roster ${args.join(' ')} failed: ${res.stderr}`);
  return JSON.parse(res.stdout);
}

async function startServer() {
  const child = spawn(process.execPath, ['scripts/roster.mjs', 'serve'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${out}`);
    if (Date.now() > deadline) throw new Error(`server did not start: ${out}`);
    try {
      if ((await fetch(`${base}/v0/health`)).ok) return { child, output: () => out };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

const exited = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode ?? child.signalCode);
    else child.on('exit', (code, signal) => resolve(code ?? signal));
  });

/** A valid 1×1 PNG (decodable, so it survives re-encoding). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

function client(key) {
  const call = async (method, url, json) => {
    const res = await fetch(base + url, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  call.raw = async (method, url, form) => {
    const res = await fetch(base + url, { method, headers: { authorization: `Bearer ${key}` }, body: form });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  return call;
}

/** What the server confirmed with a 2xx: each must survive the crash. */
function newLedger() {
  return { projects: [], rows: [], commits: [], organizations: [], invites: [], assistants: [], photos: [] };
}

async function writer(call, round, worker, acked, stop) {
  const project = `r${round}-w${worker}`;
  let i = 0;
  while (!stop.now) {
    i++;
    try {
      if (i === 1) {
        if ((await call('POST', '/v0/project', { name: project })).status === 200) acked.projects.push(project);
        const ctx = await call('POST', `/v0/project/${project}/contexts`, { name: 'ctx', is_versioned: true, unique_keys: { n: 'int' } });
        if (ctx.status !== 200) return;
        continue;
      }
      const kind = i % 10;
      if (kind < 6) {
        const res = await call('POST', `/v0/project/${project}/contexts/ctx/logs`, { entries: [{ n: i, payload: 'x'.repeat(200) }] });
        if (res.status === 200) acked.rows.push({ project, id: res.body.ids[0] });
      } else if (kind < 8) {
        const res = await call('POST', `/v0/project/${project}/contexts/ctx/commit`, { commit_message: `c${i}` });
        if (res.status === 200) acked.commits.push({ project, hash: res.body.commit_hash });
      } else if (kind === 8 && worker === 0) {
        const res = await call('POST', '/v0/organizations', { name: `Crash org ${round}-${i}` });
        if (res.status === 200 || res.status === 201) {
          const orgId = res.body.organization_id ?? res.body.id;
          acked.organizations.push(orgId);
          const inv = await call('POST', `/v0/organizations/${orgId}/invites`, { email: `guest${round}-${i}@example.com` });
          if (inv.status === 200 || inv.status === 201) acked.invites.push({ orgId, id: inv.body.id });
        }
      } else if (kind === 9 && acked.hasAssistants) {
        const res = await call('POST', '/v0/assistant', { name: `Crash ${round}-${worker}-${i}`, first_name: 'Crash', last_name: `R${round}` });
        if (res.status === 200 || res.status === 201) {
          const id = res.body.info?.agent_id ?? res.body.assistant_id ?? res.body.id;
          acked.assistants.push(id);
          const form = new FormData();
          form.append('assistant_id', String(id));
          form.append('file', new Blob([PNG], { type: 'image/png' }), 'crash.png');
          const photo = await call.raw('POST', '/v0/assistant/photo/upload', form);
          if (photo.status === 201) acked.photos.push(photo.body.info.url);
        }
      }
    } catch {
      // The connection died with the server: this write's outcome is unknown and not checked.
      return;
    }
  }
}

async function verify(call, acked) {
  const problems = [];
  const projects = new Set((await call('GET', '/v0/projects')).body);
  for (const p of acked.projects) if (!projects.has(p)) problems.push(`project ${p} lost`);
  const byProject = new Map();
  for (const r of acked.rows) byProject.set(r.project, [...(byProject.get(r.project) ?? []), r.id]);
  for (const [project, ids] of byProject) {
    const commits = (await call('GET', `/v0/project/${project}/contexts/ctx/commits`)).body;
    const list = Array.isArray(commits) ? commits : commits.commits;
    const hashes = new Set(list.map((c) => c.commit_hash));
    for (const c of acked.commits.filter((c) => c.project === project)) if (!hashes.has(c.hash)) problems.push(`commit ${c.hash} of ${project} lost`);
    const logs = (await call('GET', `/v0/project/${project}/contexts/ctx/logs?limit=1000`)).body;
    const present = new Set(logs.logs.map((l) => l.id));
    for (const id of ids) if (!present.has(id)) problems.push(`row ${id} of ${project} lost`);
  }
  const orgs = (await call('GET', '/v0/organizations')).body;
  const orgIds = new Set((Array.isArray(orgs) ? orgs : orgs.organizations).map((o) => o.id ?? o.organization_id));
  for (const id of acked.organizations) if (!orgIds.has(id)) problems.push(`organization ${id} lost`);
  for (const inv of acked.invites) {
    const list = (await call('GET', `/v0/organizations/${inv.orgId}/invites`)).body;
    if (!(list.invites ?? list).some((i) => i.id === inv.id)) problems.push(`invite ${inv.id} lost`);
  }
  for (const url of acked.photos) {
    const res = await fetch(base + new URL(url).pathname);
    await res.arrayBuffer();
    if (res.status !== 200) problems.push(`photo ${url} → ${res.status}`);
  }
  if (acked.hasAssistants) {
    const list = (await call('GET', '/v0/assistant')).body;
    const ids = new Set((Array.isArray(list) ? list : (list.info ?? list.assistants ?? list.items ?? [])).map((a) => a.agent_id ?? a.id ?? a.assistant_id));
    for (const id of acked.assistants) if (!ids.has(id)) problems.push(`assistant ${id} lost`);
  }
  return problems;
}

/** Checks on the database file itself, with the server stopped. */
function verifyDatabase() {
  const problems = [];
  const db = new SQLite(dbFile, { readonly: true });
  try {
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') problems.push(`integrity_check: ${integrity}`);
    const fk = db.pragma('foreign_key_check');
    if (fk.length > 0) problems.push(`foreign_key_check: ${fk.length} dangling rows`);
    const unbalanced = db
      .prepare(
        `select a.id, a.credits_micros, coalesce(sum(l.delta_micros), 0) as ledger
         from billing_accounts a left join credit_ledger l on l.account_id = a.id
         group by a.id, a.credits_micros having a.credits_micros != coalesce(sum(l.delta_micros), 0)`,
      )
      .all();
    for (const a of unbalanced) problems.push(`billing account ${a.id}: balance ${a.credits_micros} ≠ ledger ${a.ledger}`);
    // Every stored-file reference must name a file that exists (local storage under the data dir).
    const exists = (key) => fs.existsSync(path.join(dataDir, 'files', key));
    const tables = new Set(
      db
        .prepare("select name from sqlite_master where type = 'table'")
        .all()
        .map((t) => t.name),
    );
    const references = [
      ['stored_files', 'select key as k from stored_files'],
      ['voices.sample_key', 'select sample_key as k from voices where sample_key is not null'],
      ['assistants.profile_photo', "select substr(profile_photo, instr(profile_photo, '/v0/files/') + 10) as k from assistants where profile_photo like '%/v0/files/%'"],
    ];
    for (const [what, query] of references) {
      if (!tables.has(what.split('.')[0])) continue;
      for (const row of db.prepare(query).all()) if (!exists(row.k)) problems.push(`${what} → missing file ${row.k}`);
    }
  } finally {
    db.close();
  }
  return problems;
}

let passed = 0;
let failed = 0;
const report = (name, problems) => {
  if (problems.length === 0) {
    passed++;
    console.log(`ok   ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}\n  ${problems.slice(0, 20).join('\n  ')}`);
  }
};

try {
  const { api_key: key } = cli('user', 'create', '--email', 'crash@example.com', '--credits', '100000');
  const call = client(key);
  const acked = newLedger();
  for (let round = 1; round <= ROUNDS; round++) {
    const server = await startServer();
    acked.hasAssistants = (await call('GET', '/v0/assistant')).status === 200;
    const stop = { now: false };
    const load = Array.from({ length: WORKERS }, (_, w) => writer(call, round, w, acked, stop));
    // Kill at a random moment once the writers are well under way.
    await new Promise((r) => setTimeout(r, 800 + Math.random() * 1500));
    server.child.kill('SIGKILL');
    stop.now = true;
    await Promise.all(load);
    await exited(server.child);

    const restarted = await startServer();
    const problems = await verify(call, acked);
    restarted.child.kill('SIGTERM');
    const code = await exited(restarted.child);
    if (code !== 0) problems.push(`server exited with ${code} on SIGTERM`);
    problems.push(...verifyDatabase());
    report(
      `round ${round}: SIGKILL under load, ${acked.rows.length} rows / ${acked.commits.length} commits / ${acked.projects.length} projects / ${acked.invites.length} invites / ${acked.assistants.length} assistants acknowledged so far, ${acked.photos.length} photos`,
      problems,
    );
  }

  // SIGTERM drains: requests in flight when the signal arrives are answered, not dropped.
  const server = await startServer();
  const rows = (i) => Array.from({ length: 500 }, (_, j) => ({ n: 10_000_000 + i * 1000 + j }));
  const inflight = Array.from({ length: 40 }, (_, i) =>
    call('POST', '/v0/project/r1-w0/contexts/ctx/logs', { entries: rows(i) }).catch((e) => ({ status: 0, code: e.cause?.code ?? e.code ?? String(e) })),
  );
  await new Promise((r) => setTimeout(r, 150));
  server.child.kill('SIGTERM');
  const results = await Promise.all(inflight);
  const code = await exited(server.child);
  const answered = results.filter((r) => r.status === 200).length;
  const refused = results.filter((r) => r.status === 503 || r.code === 'ECONNREFUSED').length;
  const problems = [];
  if (code !== 0) problems.push(`exit code ${code}`);
  if (answered === 0) problems.push('no in-flight request was answered');
  // Refusing new work while closing is fine (503 or a closed port); a request cut off mid-way is not.
  for (const r of results) if (r.status !== 200 && r.status !== 503 && r.code !== 'ECONNREFUSED') problems.push(`request ended with ${r.status || r.code}`);
  report(`SIGTERM drains in-flight requests (${answered} answered, ${refused} refused while closing)`, problems);
} catch (error) {
  console.error(error);
  failed++;
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
