/**
 * One load run for `npm run bench`: wrk (-t2, C, as the performance issue measured; installed with apt
 * when missing and running as root), otherwise autocannon, which runs in Node on the same two cores and so reads lower.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { aptInstall } from './apt.ts';

export const CONNECTIONS = 50;

export interface LoadSpec {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  /** `{n}` in the body becomes a number unique to each request (names that must not repeat). */
  body?: string;
  duration: number;
  /** The server's process: its CPU time over the run, per request answered, is reported too. */
  pid?: number;
}

const UNIQUE = '{n}';

export interface LoadResult {
  name: string;
  requestsPerSec: number;
  p50: number;
  p99: number;
  /** Answers other than 2xx, and requests the load tool gave up on (wrk: after 2 s; a queue, not an error). */
  non2xx: number;
  /**
   * The server's CPU time (user + system, all its threads) per request, in µs: steadier than req/s on a
   * shared machine, where the load tool and other work take turns on the same cores.
   */
  cpuUs?: number;
  ratio?: number;
  /** With several rounds (bench/run.ts): the lowest and highest of the rounds' ratios. */
  ratioRange?: [number, number];
  /** Each round's req/s and those of the bare route's runs around it (in the results file). */
  rounds?: { requestsPerSec: number; referenceBefore: number; referenceAfter: number }[];
  peerRatio?: number;
  target?: number;
  peerTarget?: number;
  met?: boolean;
}

const wrkFound = () => spawnSync('wrk', ['--version']).error === undefined;
const hasWrk = wrkFound() || (aptInstall(['wrk']) && wrkFound());
export const loadTool = hasWrk ? 'wrk -t2' : 'autocannon';

const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** A process's CPU time so far in µs (utime + stime of /proc/PID/stat), or NaN when it cannot be read. */
function cpuTimeUs(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1e6;
  } catch {
    return NaN;
  }
}

export async function load(name: string, spec: LoadSpec): Promise<LoadResult> {
  const before = cpuTimeUs(spec.pid);
  const result = hasWrk ? await wrk(name, spec) : await autocannonLoad(name, spec);
  const used = cpuTimeUs(spec.pid) - before;
  if (Number.isFinite(used) && result.total > 0) result.cpuUs = Math.round(used / result.total);
  const { total: _total, ...rest } = result;
  return rest;
}

type Measured = LoadResult & { total: number };

async function autocannonLoad(name: string, spec: LoadSpec): Promise<Measured> {
  const result = await autocannon({
    connections: CONNECTIONS,
    duration: spec.duration,
    url: spec.url,
    method: spec.method as autocannon.Request['method'],
    headers: spec.headers,
    body: spec.body,
  });
  return {
    name,
    requestsPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    total: result.requests.total,
  };
}

/** wrk's durations come as `812.00us`, `1.23ms` or `1.02s`. */
function millis(text: string): number {
  const m = /([\d.]+)(us|ms|s)/.exec(text);
  if (!m) return NaN;
  const value = Number(m[1]);
  return Math.round((m[2] === 'us' ? value / 1000 : m[2] === 's' ? value * 1000 : value) * 100) / 100;
}

async function wrk(name: string, spec: LoadSpec): Promise<Measured> {
  const args = ['-t2', `-c${CONNECTIONS}`, `-d${spec.duration}s`, '--latency'];
  for (const [k, v] of Object.entries(spec.headers ?? {})) args.push('-H', `${k}: ${v}`);
  let script: string | null = null;
  if (spec.method && spec.method !== 'GET') {
    script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'roster-wrk-')), 'request.lua');
    const [before, after] = (spec.body ?? '').split(UNIQUE, 2);
    const lua =
      after === undefined
        ? `wrk.body = ${JSON.stringify(before)}`
        : // wrk runs a Lua state per thread: setup() numbers the threads, each numbers its own requests, and
          // the run's own token keeps the warm-up's names apart from the measured run's.
          [
            'local threads = 0',
            'function setup(thread) threads = threads + 1; thread:set("id", threads) end',
            'local n = 0',
            `request = function() n = n + 1; return wrk.format(nil, nil, nil, ${JSON.stringify(before)} .. "${Date.now()}-" .. id .. "-" .. n .. ${JSON.stringify(after)}) end`,
          ].join('\n');
    fs.writeFileSync(script, `wrk.method = ${JSON.stringify(spec.method)}\n${lua}\n`);
    args.push('-s', script);
  }
  args.push(spec.url);
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn('wrk', args);
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    child.stderr.on('data', (d) => (text += d));
    child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited ${code}: ${text}`))));
  });
  if (script) fs.rmSync(path.dirname(script), { recursive: true, force: true });
  const line = (re: RegExp) => re.exec(out)?.[1] ?? '';
  return {
    name,
    requestsPerSec: Math.round(Number(line(/Requests\/sec:\s+([\d.]+)/))),
    p50: millis(line(/^\s+50%\s+(\S+)/m)),
    p99: millis(line(/^\s+99%\s+(\S+)/m)),
    non2xx: Number(line(/Non-2xx or 3xx responses:\s+(\d+)/) || 0) + Number(line(/Socket errors:.*timeout (\d+)/) || 0),
    total: Number(line(/(\d+) requests in/) || 0),
  };
}
