/**
 * The logs issue's figures (issue 23), on whichever database the bench's server runs on: a batch of 10 000
 * logs, 1 000 single-log writes in sequence against the same number of calls to the bare route, a filtered
 * and sorted read of 1 000 logs out of 100 000, a grouped metric over them, and the server's memory while
 * every one of the 100 000 logs is read.
 */
import http from 'node:http';

export interface LogsFigure {
  name: string;
  /** Milliseconds, or requests per second when `unit` says so. */
  value: number;
  unit: 'ms' | 'req/s' | 'MB';
  /** For `ms`: below this; for `req/s`: the bare route's figure it is compared with. */
  target?: number;
  met?: boolean;
  note?: string;
}

type Api = <T = unknown>(method: string, url: string, body?: unknown) => Promise<T>;

const PROJECT = 'bench-logs-100k';
const CONTEXT = 'runs';
const TOTAL = 100_000;
const BATCH = 10_000;
const MODELS = ['gpt', 'claude', 'llama', 'mistral'];

/** Log i of the 100 000: a score spread over [0, 1), a tag that holds "x" in two thirds, a model among four. */
const logAt = (i: number) => ({ score: ((i * 7919) % 1000) / 1000, tag: i % 3 ? 'xa' : 'b', n: i, model: MODELS[i % 4], text: `run ${i}` });

/** A GET with keep-alive reused, timed to the last byte (the body is read, not parsed). */
function timedGet(base: string, key: string, agent: http.Agent) {
  return (url: string): Promise<{ ms: number; status: number; bytes: number }> =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const req = http.get(base + url, { agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
        let bytes = 0;
        res.on('data', (d: Buffer) => (bytes += d.length));
        res.on('end', () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0, bytes }));
        res.on('error', reject);
      });
      req.on('error', reject);
    });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number) => Math.round(x * 10) / 10;

export async function logsFigures(opts: { api: Api; base: string; key: string; refUrl: string; rssMb: () => number }): Promise<LogsFigure[]> {
  const { api, base, key } = opts;
  const figures: LogsFigure[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = timedGet(base, key, agent);
  await api('POST', '/v0/project', { name: PROJECT, is_versioned: true });

  // 100 000 logs in batches of 10 000; each batch is a whole POST /v0/logs, timed end to end.
  const batches: number[] = [];
  for (let b = 0; b < TOTAL / BATCH; b++) {
    const entries = Array.from({ length: BATCH }, (_, j) => logAt(b * BATCH + j));
    const started = performance.now();
    await api('POST', '/v0/logs', { project_name: PROJECT, context: CONTEXT, entries });
    batches.push(performance.now() - started);
  }
  const batchMs = round(median(batches));
  figures.push({
    name: 'one batch of 10 000 logs (median of 10)',
    value: batchMs,
    unit: 'ms',
    target: 1000,
    met: batchMs < 1000,
    note: `slowest ${round(Math.max(...batches))} ms`,
  });

  // 1 000 single-log writes, one after the other, and 1 000 calls to the bare route the same way.
  const single = async (run: () => Promise<unknown>) => {
    const started = performance.now();
    for (let i = 0; i < 1000; i++) await run();
    return Math.round(1000 / ((performance.now() - started) / 1000));
  };
  const bareAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const bare = await single(
    () => new Promise<void>((resolve, reject) => http.get(opts.refUrl, { agent: bareAgent }, (res) => res.on('data', () => {}).on('end', resolve)).on('error', reject)),
  );
  const writes = await single(() => api('POST', '/v0/logs', { project_name: PROJECT, context: 'single', entries: { score: 0.5, tag: 'x' } }));
  figures.push({
    name: '1 000 single-log writes in sequence',
    value: writes,
    unit: 'req/s',
    target: bare,
    note: `${(writes / bare).toFixed(2)}× the bare route in sequence (${bare} req/s)`,
  });

  const query = (params: Record<string, string>) => `?${new URLSearchParams({ project_name: PROJECT, context: CONTEXT, ...params })}`;
  const sample = async (name: string, url: string, targetMs: number) => {
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      const r = await get(url);
      if (r.status !== 200) throw new Error(`${name}: ${r.status}`);
      times.push(r.ms);
    }
    const ms = round(median(times.slice(2)));
    // The first read also counts the matches; later ones find the count kept (logs/repository.ts countLogs).
    figures.push({ name, value: ms, unit: 'ms', target: targetMs, met: ms < targetMs, note: `median of reads 3–7; the first took ${round(times[0]!)} ms` });
  };
  const filter = "score > 0.5 and 'x' in tag";
  await sample(`read of 1 000 of 100 000: ${filter}, by n descending`, `/v0/logs${query({ filter, sorting: JSON.stringify({ n: 'descending' }), limit: '1000' })}`, 100);
  await sample(`read of 1 000 of 100 000: ${filter}, newest first`, `/v0/logs${query({ filter, limit: '1000' })}`, 100);
  await sample('mean of score by model over 100 000', `/v0/logs/metric/mean${query({ key: 'score', group_by: 'model' })}`, 300);
  await sample('count by model over 100 000 (groups)', `/v0/logs/groups${query({ key: 'model' })}`, 300);

  // Every log read, a page of 1 000 at a time as the clients page: the server's memory stays flat.
  const before = opts.rssMb();
  let peak = before;
  const started = performance.now();
  for (let offset = 0; offset < TOTAL; offset += 1000) {
    const r = await get(`/v0/logs${query({ limit: '1000', offset: String(offset) })}`);
    if (r.status !== 200) throw new Error(`page at ${offset}: ${r.status}`);
    peak = Math.max(peak, opts.rssMb());
  }
  figures.push({
    name: 'server RSS while reading all 100 000 logs in pages of 1 000',
    value: peak,
    unit: 'MB',
    target: 300,
    met: peak < 300,
    note: `${before} MB before; ${Math.round(performance.now() - started)} ms for the 100 pages`,
  });
  agent.destroy();
  bareAgent.destroy();
  return figures;
}
