/**
 * `npm run bench`: API throughput on loopback with 50 connections, each endpoint against a bare Fastify
 * constant route and the platform's own Python stack (bench/peer.ts) started in the same run (the machine is
 * noisy; only the ratios are comparable), then the
 * scale figures (10 000 contexts, a 100 000-row context, 1 000 commits) and the server's memory.
 * Then the logs figures (bench/logs.ts). Prints everything and writes it as JSON to bench/results/.
 * `BENCH_SECONDS` sets the load duration (6), `BENCH_ROUNDS` the rounds per endpoint (3); `BENCH_ONLY=throughput|scale|logs` runs one part;
 * `BENCH_DATABASE=postgres` runs the server (and so every figure) on a throwaway PostgreSQL cluster.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { CONNECTIONS, load, loadTool, type LoadResult, type LoadSpec } from './load.ts';
import { PEER_KEY, peerUnavailable, startPeer } from './peer.ts';
import { logsFigures, type LogsFigure } from './logs.ts';
import { startCluster } from '../scripts/pg-cluster.mjs';

const root = path.resolve(import.meta.dirname, '..');
const DURATION = Number(process.env.BENCH_SECONDS || 6);
/**
 * This machine is a VM whose speed flips for seconds at a time (the same server, pinned or not, read 41 then
 * 85 µs of CPU per request, system time doubling too): a ratio of two runs taken a minute apart measured the
 * machine as much as the code. So each endpoint is measured in `BENCH_ROUNDS` rounds, each between two runs
 * of the reference, and its figures are the medians over the rounds (the ratio: of the rounds' ratios, each to
 * the mean of the reference's runs before and after it).
 */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS || 3));
const ONLY = process.env.BENCH_ONLY;
/** `BENCH_ENDPOINTS=basic-info,projects`: only the endpoints whose name contains one of these (the reference and the peer still run). */
const ENDPOINTS = process.env.BENCH_ENDPOINTS?.split(',')
  .map((part) => part.trim())
  .filter(Boolean);
const P99_TARGET_MS = 25;
const ON_POSTGRES = process.env.BENCH_DATABASE === 'postgres';
/** Set by main() when the bench runs on PostgreSQL: the server and the CLI share it. */
let databaseEnv: Record<string, string> = {};

interface ScaleResult {
  name: string;
  ms: number;
  targetMs: number;
  met: boolean;
}

function start(command: string[], env: Record<string, string>, ready: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, command, { cwd: root, env: { ...process.env, ...env } });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      if (out.includes(ready)) resolve(child);
    });
    child.stderr!.on('data', (d) => (out += d));
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.on('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Runs the roster CLI; `T` is the JSON it prints. */
async function cli<T>(dataDir: string, ...args: string[]): Promise<T> {
  const child = spawn(process.execPath, [path.join(root, 'scripts/roster.mjs'), ...args], {
    cwd: root,
    env: { ...process.env, ROSTER_DATA_DIR: dataDir, ROSTER_LOG_LEVEL: 'silent', ...databaseEnv },
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`CLI ${args.join(' ')} failed`);
  return JSON.parse(out);
}

/** A JSON client for setting data up; throws with the answer on non-2xx. */
function client(base: string, key: string) {
  return async <T = unknown>(method: string, url: string, body?: unknown): Promise<T> => {
    const res = await fetch(base + url, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url} → ${res.status}: ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : null) as T;
  };
}

/**
 * Time to the last byte of a GET that accepts brotli, as a browser asks: what the server takes. The bytes
 * are read but not decoded or parsed (on a 2.3 MB list, fetch's own decoding added ~10 ms of the bench's
 * CPU to the figure).
 */
function download(base: string, key: string) {
  return (url: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = http.get(base + url, { headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'br' } }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`GET ${url} → ${res.statusCode}`));
        res.on('data', () => {});
        res.on('end', () => resolve());
        res.on('error', reject);
      });
      req.on('error', reject);
    });
}

/** Runs `count` setup calls with a few in flight at once. */
async function many(count: number, run: (i: number) => Promise<unknown>, parallel = 8): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) await run(next++);
    }),
  );
}

/** Median wall time of a request, over `times` runs. */
async function timed(run: () => Promise<unknown>, times = 5): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    await run();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return Math.round(samples[Math.floor(samples.length / 2)]! * 10) / 10;
}

function rssMb(child: ChildProcess): number {
  try {
    const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024);
  } catch {
    return 0;
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** One row from several runs of the same load: each figure's median, the ratios' range, every run's errors. */
function medianOf(name: string, runs: LoadResult[]): LoadResult {
  const ratios = runs.map((r) => r.ratio).filter((x): x is number => x !== undefined);
  const cpu = runs.map((r) => r.cpuUs).filter((x): x is number => x !== undefined);
  return {
    name,
    requestsPerSec: Math.round(median(runs.map((r) => r.requestsPerSec))),
    p50: Number(median(runs.map((r) => r.p50)).toFixed(2)),
    p99: Number(median(runs.map((r) => r.p99)).toFixed(2)),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    ...(cpu.length ? { cpuUs: Math.round(median(cpu)) } : {}),
    ...(ratios.length
      ? { ratio: Number(median(ratios).toFixed(3)), ratioRange: [Math.min(...ratios), Math.max(...ratios)].map((x) => Number(x.toFixed(2))) as [number, number] }
      : {}),
  };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roster-bench-'));
  const refPort = 20000 + Math.floor(Math.random() * 10000);
  const apiPort = refPort + 1;
  const loads: LoadResult[] = [];
  const scale: ScaleResult[] = [];
  const skipped: string[] = [];
  const logs: LogsFigure[] = [];
  let peakRss = 0;
  /** The peak of each part of the run, to tell which one sets the overall peak. */
  const peakByPart: Record<string, number> = {};
  let part = 'start-up';
  const cluster: { url: string; stop(): void } | null = ON_POSTGRES ? startCluster() : null;
  if (cluster) databaseEnv = { DATABASE_URL: cluster.url };
  console.log(`Database: ${cluster ? 'PostgreSQL (throwaway cluster, fsync off)' : 'SQLite (the embedded default)'}`);

  const user = await cli<{ api_key: string }>(dataDir, 'user', 'create', '--email', 'bench@example.com', '--name', 'Bench User', '--credits', '100000000');
  const org = await cli<{ api_key: string; organization_id: number }>(dataDir, 'org', 'create', '--owner-email', 'bench@example.com', '--name', 'Bench Org');
  const server = await start(
    [path.join(root, 'scripts/roster.mjs'), 'serve'],
    // Limits stay on (their cost is part of each request) but high enough not to answer 429.
    {
      PORT: String(apiPort),
      ROSTER_DATA_DIR: dataDir,
      ROSTER_WEB_DIR: 'none',
      ROSTER_LOG_LEVEL: 'warn',
      ROSTER_SEED_DEMO: 'false',
      ROSTER_RATE_LIMIT: '1000000000',
      ...databaseEnv,
    },
    'Roster is running',
  );
  const sampleMemory = () => {
    const mb = rssMb(server);
    peakRss = Math.max(peakRss, mb);
    peakByPart[part] = Math.max(peakByPart[part] ?? 0, mb);
  };
  const memory = setInterval(sampleMemory, 250);
  const base = `http://127.0.0.1:${apiPort}`;
  const api = client(base, user.api_key);
  const headers = { authorization: `Bearer ${user.api_key}` };
  /** The bare route, up through the throughput rounds: stopped with the server if a load fails. */
  let referenceRunning: ChildProcess | null = null;

  try {
    if (ONLY === undefined || ONLY === 'throughput') {
      part = 'bare route and Python peer (server idle)';
      console.log(
        `Reference: bare Fastify constant route (${loadTool}, ${CONNECTIONS} connections, ${DURATION}s each; every endpoint in ${ROUNDS} rounds, each between two runs of the reference: medians)`,
      );
      const reference = await start([path.join(root, 'bench/reference-server.mjs')], { PORT: String(refPort) }, 'reference ready');
      referenceRunning = reference;
      const refRuns: LoadResult[] = [];
      const measureReference = async () => {
        const run = await load('reference (bare Fastify)', { url: `http://127.0.0.1:${refPort}/`, duration: DURATION, pid: reference.pid });
        refRuns.push(run);
        return run;
      };
      await load('warm-up', { url: `http://127.0.0.1:${refPort}/`, duration: 2 });
      await measureReference();
      const peer = await measurePeer(refPort + 2, skipped);

      let sessionCookie = '';
      const scenarios: { name: string; target: number; peerTarget?: number; setup?: () => Promise<void>; opts: Omit<LoadSpec, 'duration'> }[] = [
        { name: 'GET /v0/user/basic-info', target: 0.5, peerTarget: 20, opts: { url: `${base}/v0/user/basic-info`, headers } },
        {
          name: 'GET /v0/projects',
          target: 0.5,
          peerTarget: 20,
          setup: () => many(20, (i) => api('POST', '/v0/project', { name: `bench-${i}` })),
          opts: { url: `${base}/v0/projects`, headers },
        },
        {
          name: 'GET /v0/project/{p}/contexts (1 000)',
          target: 0.5,
          setup: async () => {
            await api('POST', '/v0/project', { name: 'bench-contexts' });
            await many(1000, (i) => api('POST', '/v0/project/bench-contexts/contexts', { name: `runs/${Math.floor(i / 100)}/${i}` }));
          },
          opts: { url: `${base}/v0/project/bench-contexts/contexts`, headers },
        },
        {
          name: 'GET /v0/assistant (200)',
          target: 0.5,
          setup: () => many(200, (i) => api('POST', '/v0/assistant', { first_name: `Bench${i}`, surname: 'Bot' })),
          opts: { url: `${base}/v0/assistant`, headers },
        },
        {
          name: 'GET /v0/user/basic-info (session cookie)',
          target: 0.5,
          setup: async () => {
            sessionCookie = await signInCookie(base, dataDir);
          },
          // Read when the load starts, after the setup signed in.
          get opts() {
            return { url: `${base}/v0/user/basic-info`, headers: { cookie: sessionCookie } };
          },
        },
        {
          name: 'GET /v0/logs, filtered and sorted (of 10 000)',
          target: 0.5,
          setup: async () => {
            await api('POST', '/v0/project', { name: 'bench-logs' });
            const entries = Array.from({ length: 10_000 }, (_, i) => ({ score: (i % 1000) / 1000, tag: i % 3 ? 'xa' : 'b', n: i }));
            await api('POST', '/v0/logs', { project_name: 'bench-logs', context: 'runs', entries });
          },
          opts: {
            url: `${base}/v0/logs?project_name=bench-logs&context=runs&limit=20&filter=${encodeURIComponent("score > 0.5 and 'x' in tag")}&sorting=${encodeURIComponent('{"n": "descending"}')}`,
            headers,
          },
        },
        {
          name: 'POST /v0/project',
          target: 0.2,
          opts: { url: `${base}/v0/project`, method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'load-{n}' }) },
        },
        {
          name: 'POST /v0/assistant',
          target: 0.2,
          opts: {
            url: `${base}/v0/assistant`,
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify({ first_name: 'Load', surname: 'Test', about: 'created by the bench' }),
          },
        },
        {
          name: 'GET /v0/organizations/{id}/invites',
          target: 0.5,
          setup: () => many(30, (i) => client(base, org.api_key)('POST', `/v0/organizations/${org.organization_id}/invites`, { email: `invitee${i}@example.com` }), 4),
          opts: { url: `${base}/v0/organizations/${org.organization_id}/invites`, headers: { authorization: `Bearer ${org.api_key}` } },
        },
      ];
      const selected = scenarios.filter((x) => !ENDPOINTS?.length || ENDPOINTS.some((part) => x.name.includes(part)));
      // A misspelt filter would otherwise print an empty table after a minute of measuring the reference.
      if (!selected.length) throw new Error(`BENCH_ENDPOINTS names none of: ${scenarios.map((x) => x.name).join(', ')}`);
      for (const s of selected) {
        part = s.name;
        try {
          await s.setup?.();
          const probe = await fetch(s.opts.url, { method: s.opts.method ?? 'GET', headers: s.opts.headers, body: s.opts.body?.replaceAll('{n}', 'probe') });
          if (!probe.ok) throw new Error(`${s.opts.method ?? 'GET'} answers ${probe.status}`);
        } catch (error) {
          skipped.push(`${s.name}: ${(error as Error).message}`);
          continue;
        }
        await load('warm-up', { ...s.opts, duration: 2 });
        const rounds: LoadResult[] = [];
        const brackets: NonNullable<LoadResult['rounds']> = [];
        // Each round is bracketed by the bare route, run just before and just after it: its ratio is to their
        // mean, so a speed change of the machine during the round weighs on both sides.
        let before = await measureReference();
        for (let i = 0; i < ROUNDS; i++) {
          const run = await load(s.name, { ...s.opts, duration: DURATION, pid: server.pid });
          const after = await measureReference();
          rounds.push({ ...run, ratio: run.requestsPerSec / ((before.requestsPerSec + after.requestsPerSec) / 2) });
          brackets.push({ requestsPerSec: run.requestsPerSec, referenceBefore: before.requestsPerSec, referenceAfter: after.requestsPerSec });
          before = after;
        }
        const r = { ...medianOf(s.name, rounds), rounds: brackets };
        r.target = s.target;
        r.met = (r.ratio ?? 0) >= s.target && r.p99 < P99_TARGET_MS && r.non2xx === 0;
        // Every row against the peer's GET /v0/projects, as every row is against the bare route's constant.
        if (peer) {
          const peerRatio = Number((r.requestsPerSec / peer.requestsPerSec).toFixed(1));
          r.peerRatio = peerRatio;
          if (s.peerTarget !== undefined) {
            r.peerTarget = s.peerTarget;
            r.met &&= peerRatio >= s.peerTarget;
          }
        }
        loads.push(r);
      }
      referenceRunning = null;
      await stop(reference);
      // The reference's row: the medians of all its runs; the peer's after it, its ratio to that row.
      const ref = { ...medianOf('reference (bare Fastify)', refRuns), ratio: 1 };
      if (peer) {
        peer.ratio = Number((peer.requestsPerSec / ref.requestsPerSec).toFixed(3));
        // The bare route's own multiple of the peer: the ceiling of every row's.
        ref.peerRatio = Number((ref.requestsPerSec / peer.requestsPerSec).toFixed(1));
      }
      loads.unshift(ref, ...(peer ? [peer] : []));
    }

    if (ONLY === undefined || ONLY === 'scale') {
      part = 'scale';
      await scaleFigures(api, download(base, user.api_key), scale, skipped);
    }
    if (ONLY === undefined || ONLY === 'logs') {
      part = 'logs';
      const reference = await start([path.join(root, 'bench/reference-server.mjs')], { PORT: String(refPort) }, 'reference ready');
      try {
        logs.push(...(await logsFigures({ api, base, key: user.api_key, refUrl: `http://127.0.0.1:${refPort}/`, rssMb: () => rssMb(server) })));
      } catch (error) {
        skipped.push(`logs figures: ${(error as Error).message}`);
      } finally {
        await stop(reference);
      }
    }
  } finally {
    if (referenceRunning) await stop(referenceRunning);
    clearInterval(memory);
    sampleMemory();
    await stop(server);
    cluster?.stop();
  }

  console.log('');
  console.log(
    'endpoint'.padEnd(44),
    'req/s'.padStart(8),
    'p50 ms'.padStart(7),
    'p99 ms'.padStart(7),
    'µs/req'.padStart(7),
    'ratio'.padStart(6),
    'rounds'.padStart(10),
    'vs peer'.padStart(8),
    ' target',
  );
  for (const r of loads) {
    const goal = r.target === undefined ? '' : ` ≥${r.target}${r.peerTarget ? `, ≥${r.peerTarget}× peer` : ''}, p99<${P99_TARGET_MS}${r.met ? ' ok' : ' MISSED'}`;
    console.log(
      r.name.padEnd(44),
      String(r.requestsPerSec).padStart(8),
      String(r.p50).padStart(7),
      String(r.p99).padStart(7),
      String(r.cpuUs ?? '').padStart(7),
      (r.ratio?.toFixed(3) ?? '').padStart(6),
      (r.ratioRange?.join('–') ?? '').padStart(10),
      (r.peerRatio === undefined ? '' : `${r.peerRatio}×`).padStart(8),
      goal,
    );
    if (r.non2xx > 0) console.log(`  ! ${r.non2xx} non-2xx responses or requests the load tool gave up on after 2 s`);
  }
  if (scale.length) {
    console.log('');
    for (const s of scale) console.log(`${s.name.padEnd(48)} ${String(s.ms).padStart(8)} ms   target < ${s.targetMs} ms${s.met ? ' ok' : ' MISSED'}`);
  }
  if (logs.length) {
    console.log(`\nlogs API (${cluster ? 'PostgreSQL' : 'SQLite'})`);
    for (const f of logs) {
      const goal = f.met === undefined ? '' : `   target < ${f.target} ${f.unit}${f.met ? ' ok' : ' MISSED'}`;
      console.log(`${f.name.padEnd(66)} ${String(f.value).padStart(8)} ${f.unit}${goal}${f.note ? `  (${f.note})` : ''}`);
    }
  }
  console.log(`\nserver peak RSS: ${peakRss} MB (target < 300 MB)${peakRss < 300 ? ' ok' : ' MISSED'}; the peak of each part (its setup included):`);
  for (const [name, mb] of Object.entries(peakByPart)) console.log(`  ${name.padEnd(46)} ${String(mb).padStart(5)} MB`);
  for (const s of skipped) console.log(`skipped: ${s}`);
  const outDir = path.join(root, 'bench/results');
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify(
      {
        at: new Date().toISOString(),
        database: cluster ? 'postgres' : 'sqlite',
        connections: CONNECTIONS,
        duration: DURATION,
        cpus: os.cpus().length,
        peakRssMb: peakRss,
        peakRssByPartMb: peakByPart,
        loads,
        scale,
        logs,
        skipped,
      },
      null,
      2,
    ),
  );
  console.log(`written to ${path.relative(root, file)}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/** Signs the bench user in as the dashboard does: a one-time link from the CLI, exchanged for the session cookie. */
async function signInCookie(base: string, dataDir: string): Promise<string> {
  const { link } = await cli<{ link: string }>(dataDir, 'login-link', '--email', 'bench@example.com');
  const token = new URL(link).hash.replace(/^#token=/, '');
  const res = await fetch(`${base}/v0/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base, 'x-roster-csrf': '1' },
    body: JSON.stringify({ token }),
  });
  const cookie = res.headers.get('set-cookie')?.split(';')[0];
  if (!res.ok || !cookie) throw new Error(`sign-in answered ${res.status}`);
  return cookie;
}

/** The platform's Python stack serving GET /v0/projects (20 projects), or null with the reason in `skipped`. */
async function measurePeer(port: number, skipped: string[]): Promise<LoadResult | null> {
  const why = peerUnavailable();
  if (why) {
    skipped.push(`Python peer: ${why}`);
    return null;
  }
  const peer = await startPeer(port);
  try {
    const spec = { url: `http://127.0.0.1:${port}/v0/projects`, headers: { authorization: `Bearer ${PEER_KEY}` } };
    await load('warm-up', { ...spec, duration: 2 });
    return await load('peer: FastAPI GET /v0/projects (20)', { ...spec, duration: DURATION, pid: peer.pid });
  } finally {
    await stop(peer);
  }
}

/** The projects issue's scale figures, each a median of a few timed calls. */
async function scaleFigures(api: ReturnType<typeof client>, get: ReturnType<typeof download>, scale: ScaleResult[], skipped: string[]) {
  const record = (name: string, ms: number, targetMs: number) => scale.push({ name, ms, targetMs, met: ms < targetMs });
  try {
    await api('POST', '/v0/project', { name: 'bench-scale', is_versioned: true });
    await many(10_000, (i) => api('POST', '/v0/project/bench-scale/contexts', { name: `ctx/${Math.floor(i / 1000)}/${i}` }), 16);
    record('list 10 000 contexts', await timed(() => get('/v0/project/bench-scale/contexts')), 50);
  } catch (error) {
    skipped.push(`10 000 contexts: ${(error as Error).message}`);
  }
  try {
    await api('POST', '/v0/project', { name: 'bench-rows', is_versioned: true });
    await api('POST', '/v0/project/bench-rows/contexts', { name: 'big', is_versioned: true });
    const logs = '/v0/project/bench-rows/contexts/big/logs';
    await many(100, (b) => api('POST', logs, { entries: Array.from({ length: 1000 }, (_, i) => ({ n: b * 1000 + i, label: `row ${b * 1000 + i}`, score: i % 97 })) }), 4);
    const first = await timed(() => api('POST', '/v0/project/bench-rows/contexts/big/commit', { commit_message: 'base' }), 1);
    const page = await api<{ logs: { id: number | string }[] }>('GET', `${logs}?limit=10`);
    for (const row of page.logs) await api('PATCH', `${logs}/${row.id}`, { entries: { n: -1, label: 'changed', score: 0 } });
    const second = await timed(() => api('POST', '/v0/project/bench-rows/contexts/big/commit', { commit_message: '10 rows changed' }), 1);
    record('commit of a 100 000-row context (first)', first, 2000);
    record('commit of a 100 000-row context (10 changed)', second, 2000);
    const commits = await api<{ commit_hash: string }[] | { commits?: { commit_hash: string }[] }>('GET', '/v0/project/bench-rows/contexts/big/commits');
    const list: { commit_hash: string }[] = Array.isArray(commits) ? commits : (commits.commits ?? []);
    const base = list[list.length - 1]!.commit_hash;
    const head = list[0]!.commit_hash;
    record('rollback of a 100 000-row context', await timed(() => api('POST', '/v0/project/bench-rows/contexts/big/rollback', { commit_hash: base }), 1), 2000);
    record('rollback forward again', await timed(() => api('POST', '/v0/project/bench-rows/contexts/big/rollback', { commit_hash: head }), 1), 2000);
  } catch (error) {
    skipped.push(`100 000-row context: ${(error as Error).message}`);
  }
  try {
    await api('POST', '/v0/project', { name: 'bench-history', is_versioned: true });
    await api('POST', '/v0/project/bench-history/contexts', { name: 'h', is_versioned: true });
    const { ids } = await api<{ ids: (number | string)[] }>('POST', '/v0/project/bench-history/contexts/h/logs', { entries: [{ step: 0 }] });
    for (let i = 1; i <= 1000; i++) {
      await api('PATCH', `/v0/project/bench-history/contexts/h/logs/${ids[0]}`, { entries: { step: i } });
      await api('POST', '/v0/project/bench-history/contexts/h/commit', { commit_message: `step ${i}` });
    }
    record('history of 1 000 commits', await timed(() => get('/v0/project/bench-history/contexts/h/commits')), 50);
  } catch (error) {
    skipped.push(`1 000 commits: ${(error as Error).message}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
