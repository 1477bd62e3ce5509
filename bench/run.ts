/**
 * `npm run bench`: API throughput on loopback with 50 connections, each endpoint against a bare Fastify
 * constant route started in the same run (the machine is noisy; only the ratio is comparable).
 * Prints req/s, p50, p99 and the ratio, and writes them as JSON to bench/results/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const root = path.resolve(import.meta.dirname, '..');
const DURATION = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = 50;

interface Result {
  name: string;
  requestsPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  ratio?: number;
  target?: number;
}

function start(command: string[], env: Record<string, string>, ready: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, command, { cwd: root, env: { ...process.env, ...env } });
    let out = '';
    const onData = (d: Buffer) => {
      out += d;
      if (out.includes(ready)) resolve(child);
    };
    child.stdout!.on('data', onData);
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

async function load(name: string, opts: autocannon.Options): Promise<Result> {
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts });
  return {
    name,
    requestsPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
  };
}

async function cli(dataDir: string, ...args: string[]): Promise<Record<string, any>> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/server/main.ts'), ...args], {
    cwd: root,
    env: { ...process.env, ROSTER_DATA_DIR: dataDir, ROSTER_LOG_LEVEL: 'silent' },
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`CLI ${args.join(' ')} failed`);
  return JSON.parse(out);
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roster-bench-'));
  const refPort = 20000 + Math.floor(Math.random() * 10000);
  const apiPort = refPort + 1;
  const results: Result[] = [];

  console.log(`Reference: bare Fastify constant route (${CONNECTIONS} connections, ${DURATION}s each)`);
  const reference = await start([path.join(root, 'bench/reference-server.mjs')], { PORT: String(refPort) }, 'reference ready');
  await load('warm-up', { url: `http://127.0.0.1:${refPort}/`, duration: 2 });
  const ref = await load('reference', { url: `http://127.0.0.1:${refPort}/` });
  await stop(reference);
  results.push(ref);

  const user = await cli(dataDir, 'user', 'create', '--email', 'bench@example.com', '--name', 'Bench User', '--credits', '100000');
  const server = await start(
    ['--import', 'tsx', path.join(root, 'src/server/main.ts'), 'serve'],
    // Limits stay on (their cost is part of each request) but high enough not to answer 429.
    { PORT: String(apiPort), ROSTER_DATA_DIR: dataDir, ROSTER_WEB_DIR: 'none', ROSTER_LOG_LEVEL: 'warn', ROSTER_SEED_DEMO: 'false', ROSTER_RATE_LIMIT: '1000000000' },
    'Roster is running',
  );
  const headers = { authorization: `Bearer ${user.api_key}` };
  const base = `http://127.0.0.1:${apiPort}`;
  try {
    const scenarios: { name: string; target: number; opts: autocannon.Options }[] = [
      { name: 'GET /v0/user/basic-info', target: 0.5, opts: { url: `${base}/v0/user/basic-info`, headers } },
    ];
    for (const s of scenarios) {
      await load('warm-up', { ...s.opts, duration: 2 });
      const r = await load(s.name, s.opts);
      r.ratio = Number((r.requestsPerSec / ref.requestsPerSec).toFixed(3));
      r.target = s.target;
      results.push(r);
    }
    const rss = await serverMemory(server);
    console.log('');
    console.log('endpoint'.padEnd(40), 'req/s'.padStart(8), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'ratio'.padStart(7), ' target');
    for (const r of results) {
      const verdict = r.target === undefined ? '' : r.ratio! >= r.target && r.p99 < 25 ? ' ok' : ' MISSED';
      console.log(
        r.name.padEnd(40),
        String(r.requestsPerSec).padStart(8),
        String(r.p50).padStart(8),
        String(r.p99).padStart(8),
        (r.ratio?.toFixed(2) ?? '1.00').padStart(7),
        r.target === undefined ? '' : ` ≥${r.target}, p99<25${verdict}`,
      );
      if (r.non2xx > 0) console.log(`  ! ${r.non2xx} non-2xx responses`);
    }
    if (rss) console.log(`\nserver RSS after the run: ${rss} MB`);
    const outDir = path.join(root, 'bench/results');
    fs.mkdirSync(outDir, { recursive: true });
    const file = path.join(outDir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    fs.writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), connections: CONNECTIONS, duration: DURATION, cpus: os.cpus().length, serverRssMb: rss, results }, null, 2));
    console.log(`written to ${path.relative(root, file)}`);
  } finally {
    await stop(server);
  }
}

/** Resident memory of the server process, from /proc (Linux). */
async function serverMemory(child: ChildProcess): Promise<number | null> {
  try {
    const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return Math.round(kb / 1024);
  } catch {
    return null;
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
