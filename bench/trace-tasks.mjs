// `node bench/trace-tasks.mjs TRACE [MIN_MS]`: the long main-thread tasks of a page audited by
// `LIGHTHOUSE_TRACE=1 npm run lighthouse`, in the order they ran: when (ms after the page's HTML began to
// parse), how long, the longest events inside (layout, style, script, parsing…), and the JavaScript
// functions V8 sampled in it. Lighthouse's browser runs other renderers beside the audited page (its own
// pages): only the renderer that parsed our HTML counts. Its mobile audit multiplies this machine's task
// times by 4: a task longer than 12.5 ms here is a long task there (50 ms), and blocks for 4 × its length − 50.
import fs from 'node:fs';

const [file, minArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/trace-tasks.mjs TRACE.json [MIN_MS=12.5]');
  process.exit(2);
}
const minUs = Number(minArg ?? 12.5) * 1000;
const trace = JSON.parse(fs.readFileSync(file, 'utf8'));
const events = trace.traceEvents ?? trace;

const parse = events.find((e) => e.name === 'ParseHTML' && /127\.0\.0\.1|localhost/.test(e.args?.beginData?.url ?? ''));
if (!parse) throw new Error('no ParseHTML of the audited page in this trace');
const { pid } = parse;
const mainTid = events.find((e) => e.pid === pid && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')?.tid;
const onMain = events.filter((e) => e.pid === pid && e.tid === mainTid && e.ph === 'X').sort((a, b) => a.ts - b.ts);
const ms = (us) => (us / 1000).toFixed(1);

/** Sampled JavaScript frames of the renderer: [time, "function file:line"], from V8's profile chunks. */
function samples() {
  const profiles = new Map();
  for (const e of events) {
    if (e.pid !== pid) continue;
    if (e.name === 'Profile') profiles.set(e.id, { t: e.args.data.startTime, nodes: new Map(), samples: [], deltas: [] });
    const profile = e.name === 'ProfileChunk' ? profiles.get(e.id) : undefined;
    if (!profile) continue;
    for (const node of e.args.data.cpuProfile?.nodes ?? []) profile.nodes.set(node.id, node);
    profile.samples.push(...(e.args.data.cpuProfile?.samples ?? []));
    profile.deltas.push(...(e.args.data.timeDeltas ?? []));
  }
  const out = [];
  for (const profile of profiles.values()) {
    let t = profile.t;
    profile.samples.forEach((id, i) => {
      t += profile.deltas[i] ?? 0;
      const frame = profile.nodes.get(id)?.callFrame;
      if (!frame || frame.functionName === '(idle)' || frame.functionName === '(program)') return;
      out.push([t, `${frame.functionName || '(anonymous)'} ${String(frame.url).split('/').pop()}:${frame.lineNumber + 1}`]);
    });
  }
  return out;
}
const sampled = samples();

let blocking = 0;
for (const task of onMain.filter((e) => e.name === 'RunTask' && e.dur >= minUs)) {
  const end = task.ts + task.dur;
  const longest = new Map();
  for (const e of onMain) {
    if (e.ts < task.ts || e.ts + e.dur > end || e === task || e.name === 'RunTask' || e.dur < 1000) continue;
    const url = e.args?.data?.url ?? e.args?.beginData?.url;
    const label = url ? `${e.name} ${url.split('/').pop().split('#')[0]}` : e.name;
    longest.set(label, Math.max(longest.get(label) ?? 0, e.dur));
  }
  const functions = new Map();
  for (const [t, name] of sampled) if (t >= task.ts && t <= end) functions.set(name, (functions.get(name) ?? 0) + 1);
  blocking += Math.max(0, (task.dur / 1000) * 4 - 50);
  const inside = [...longest].sort((a, b) => b[1] - a[1]).slice(0, 5);
  console.log(`${ms(task.ts - parse.ts).padStart(7)} ms  ${ms(task.dur).padStart(6)} ms  ${inside.map(([n, d]) => `${n} ${ms(d)}`).join(' | ')}`);
  const top = [...functions].sort((a, b) => b[1] - a[1]).slice(0, 6);
  if (top.length) console.log(`${''.padStart(21)}samples: ${top.map(([n, c]) => `${n} ×${c}`).join(', ')}`);
}
console.log(`\nblocking time if every task above counted at 4× (Lighthouse counts those after the first paint): ${blocking.toFixed(0)} ms`);
