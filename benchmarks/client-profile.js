// Where the harness's own time goes on the mixed suite: `bench run --suite mixed --workload read-only` against a
// server (the local PostgreSQL by default) at each concurrency, each in a process run with V8's CPU profiler. Prints
// per concurrency the harness's CPU per operation and its share of the mean latency (the figures the client-bound
// flag reads), then where the profiled CPU went: by package and by function, self time, the timed loop and the
// setup together. The profiles stay in --keep <dir> for a flame graph (Chrome DevTools or speedscope read them).
//
//   node benchmarks/client-profile.js [--db postgresql] [--concurrency 1,32] [--records 10000] [--ops 100000]
//     [--cache-dir <dir>] [--keep <dir>] [--top 15] [--driver pg|postgres|pg-native]
//
// With --driver pg-native the timed operations run in client processes (one per operation in flight), each
// profiled too: the figures then follow for the client processes together, and for the harness's own process.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'postgresql' },
    concurrency: { type: 'string', default: '1,32' },
    records: { type: 'string', default: '10000' },
    ops: { type: 'string', default: '100000' },
    'cache-dir': { type: 'string' },
    keep: { type: 'string' },
    top: { type: 'string', default: '15' },
    driver: { type: 'string' },
  },
});

// Self time per function and per package of a .cpuprofile, in ms, and the whole.
function summarise(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const self = new Map();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const byFunction = new Map();
  const byPackage = new Map();
  let total = 0;
  for (const [id, ms] of self) {
    const { functionName, url, lineNumber } = nodes.get(id);
    const where = url.replace(/^file:\/\//, '').replace(`${root}/`, '');
    const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url)?.[1]
      ?? (url.startsWith('node:') ? 'node (built-in modules)' : url ? where.split('/')[0] : `(${functionName || 'native'})`);
    const name = `${functionName || '(anonymous)'} ${where.replace(/.*node_modules\//, '')}${url ? `:${lineNumber + 1}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + ms);
    total += ms;
  }
  return { total, byFunction, byPackage };
}

const top = (map, n, total) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n)
  .map(([name, ms]) => `  ${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${name}`);

const keep = args.keep ? path.resolve(args.keep) : null;
if (keep) mkdirSync(keep, { recursive: true });
const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-client-profile-'));
try {
  for (const level of args.concurrency.split(',')) {
    const profiles = keep ? path.join(keep, `c${level}`) : path.join(scratch, `c${level}`);
    const out = path.join(scratch, `results-c${level}`);
    const run = spawnSync(process.execPath, [`--cpu-prof`, `--cpu-prof-dir=${profiles}`, path.join(root, 'bin', 'bench.js'), 'run',
      '--suite', 'mixed', '--db', args.db, '--workload', 'read-only', '--records', args.records, '--ops', args.ops,
      '--concurrency', level, '--runs', '1', '--quiet', '--json', '--out', out,
      ...(args['cache-dir'] ? ['--cache-dir', args['cache-dir']] : []), ...(args.driver ? ['--driver', args.driver] : [])],
    { encoding: 'utf8', maxBuffer: 256 * 2 ** 20 });
    if (run.status !== 0) {
      process.stderr.write(run.stderr);
      process.exit(run.status ?? 1);
    }
    const result = JSON.parse(run.stdout);
    const [entry] = Object.values(result.workloads);
    const [timed] = entry.runs;
    const { client } = timed.resources;
    // The harness's own profile is named by its pid; any other is a client process's (a blocking driver's).
    const files = readdirSync(profiles).filter((name) => name.endsWith('.cpuprofile'));
    const own = files.filter((name) => name.split('.')[3] === String(run.pid));
    const workers = files.filter((name) => !own.includes(name));
    const loop = client.eventLoopUtilization === null ? 'event loop not measured (a blocking driver)' : `event loop busy ${Math.round(client.eventLoopUtilization * 100)}%`;
    console.log(`${result.db.name} ${result.db.version}${result.db.driver ? ` through ${result.db.driver.name}` : ''}, read-only, ${entry.ops} operations at concurrency ${level}: `
      + `${timed.opsPerSec} ops/s, mean latency ${timed.latencyMs.mean} ms; the harness ${client.cpuPct}% of one core, `
      + `${client.cpuPerOpUs} us of CPU per operation (every process of it), ${Math.round(client.latencyShare * 100)}% of the mean latency, `
      + `${loop}${timed.resources.clientBound ? ' (client-bound)' : ''}`);
    for (const [label, group] of [['the client processes together', workers], ['the harness\'s own process', own]]) {
      if (group.length === 0) continue;
      const parts = group.map((file) => summarise(path.join(profiles, file)));
      const total = parts.reduce((sum, part) => sum + part.total, 0);
      const add = (maps) => maps.reduce((sum, map) => { for (const [k, v] of map) sum.set(k, (sum.get(k) ?? 0) + v); return sum; }, new Map());
      console.log(`profiled CPU of ${label} (${group.length} process${group.length === 1 ? '' : 'es'}, setup included): ${total.toFixed(0)} ms; by package:`);
      console.log(top(add(parts.map((part) => part.byPackage)), 8, total).join('\n'));
      console.log('by function (self time):');
      console.log(top(add(parts.map((part) => part.byFunction)), Number(args.top), total).join('\n'));
      if (keep) console.log(`profiles: ${group.map((file) => path.join(profiles, file)).join(', ')}`);
    }
    console.log('');
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
