// The vendor's self-test: the conformance suite, then a validated one-run benchmark of every suite the adapter
// supports, small (the social suite on the tiny dataset, or --scale's), each in a namespace of its own so the
// benchmark's imported data stays untouched. A server that cannot be reached is said once, not once per case.
import { writeSync } from 'node:fs';
import { loadAdapter } from '../adapters/index.js';
import { serverSupportsAt } from '../adapters/server-supports.js';
import { CHECK_SCALE } from '../core/defaults.js';
import { failedWorkloads } from '../results/model.js';
import { formatTable } from '../results/table.js';
import { runBenchmark } from '../runner/run.js';
import { SUITES, isSupported } from '../workloads/index.js';
import { conformanceCases, conformanceNamespaces } from '../test/conformance/suite.js';
import { errorMessage, isConnectionFailure } from './errors.js';
import { adapterOptions, connectionRecord, serverProcess } from './options.js';
import { durabilityOf } from '../core/terms.js';
import { createProgress } from './progress.js';
import { ExitCodes } from './exit-codes.js';

// The other suites' sizes in a check: every phase and workload at two levels or one, every query case on 1,000
// documents, in seconds.
const CHECK_SETTINGS = Object.freeze({
  social: {},
  crud: { ops: [200], concurrency: [1, 4] },
  mixed: { records: 200, ops: [1000], concurrency: [4] },
  queries: { size: '1k', concurrency: [1] },
});

// { failed, notRun, unreachable }: after a case that could not connect, the others are not run.
async function runConformance(description, options, write, owned) {
  const cases = conformanceCases(description);
  let failed = 0;
  for (const [index, { name, run, skip }] of cases.entries()) {
    if (skip) {
      write(`  skip  ${name} (${skip})`);
      continue;
    }
    announce(name);
    try {
      await run({ options, owned });
      write(`  pass  ${name}`);
    } catch (error) {
      failed += 1;
      write(`  FAIL  ${name}\n        ${errorMessage(error).split('\n').join('\n        ')}`);
      if (isConnectionFailure(error)) {
        const notRun = cases.slice(index + 1).filter((c) => !c.skip).length;
        write(`  ${notRun} case(s) not run: cannot connect to the server`);
        return { failed, notRun, unreachable: true };
      }
    }
  }
  return { failed, notRun: 0, unreachable: false };
}

// Each case's name on stderr before it runs, written synchronously: when a native driver crashes the process
// (a segmentation fault), the last name on the screen is the case that crashed it.
function announce(name) {
  const line = `  run   ${name}\n`;
  try {
    writeSync(process.stderr.fd, line);
  } catch {
    // A non-blocking pipe that is full (EAGAIN): the stream queues the line instead.
    process.stderr.write(line);
  }
}

// Removes what the check created, each namespace after a look: one the harness owns goes (through
// testSupport.dropNamespace), an absent one is fine, a foreign one (someone else's data, or a planted one whose
// cleanup failed) stays. Says which namespaces remain, and why.
async function removeNamespaces(description, base, namespaces, write) {
  const drop = description.testSupport?.dropNamespace;
  const left = [];
  for (const namespace of namespaces) {
    const options = { ...base, namespace };
    try {
      const adapter = description.create(options);
      await adapter.connect();
      let state;
      try {
        ({ state } = await adapter.inspectNamespace());
      } finally {
        await adapter.close();
      }
      if (state === 'owned' && drop) await drop(options);
      else if (state === 'owned') left.push(`${namespace} (the adapter offers no testSupport.dropNamespace)`);
      else if (state === 'foreign') left.push(`${namespace} (it holds data without a db-shootout marker)`);
    } catch (error) {
      left.push(`${namespace} (${error.message})`);
    }
  }
  write(left.length === 0 ? `\nnothing of the check's namespaces is left (${namespaces.join(', ')})`
    : `\nleft behind: ${left.join('; ')}`);
}

// The description as the server answers it (../adapters/server-supports.js), each operation it lacks said with its
// reason; the declared one when the server cannot be reached, which the conformance suite's first connection then says.
async function checkedSupports(description, options, write) {
  let narrowed;
  try {
    narrowed = await serverSupportsAt(description, options);
  } catch (error) {
    if (isConnectionFailure(error)) return description;
    throw error;
  }
  for (const operation of description.supports.filter((name) => !narrowed.supports.includes(name))) {
    write(`  unsupported on this server: ${operation} (${narrowed.unsupported[operation]})`);
  }
  return narrowed;
}

export async function checkCommand(argv, { stdout = process.stdout } = {}) {
  const write = (line) => stdout.write(`${line}\n`);
  const declared = await loadAdapter(argv.db);
  const base = adapterOptions(declared, argv);

  const scale = argv.scale ?? CHECK_SCALE;
  write(`conformance suite: ${declared.name} (${declared.id})`);
  const description = await checkedSupports(declared, { ...base, namespace: `${argv.namespace}_conformance` }, write);
  // A server `bench server` runs: its server-wide terms may be set.
  const server = serverProcess(description, argv);
  const owned = server?.source === 'bench server';
  const conformance = await runConformance(description, { ...base, namespace: `${argv.namespace}_conformance` }, write, owned);
  if (conformance.unreachable) {
    write(`\nFAIL: cannot connect to ${description.name}; ${conformance.failed} conformance case(s) failed, `
      + `${conformance.notRun} not run; the validated run not run`);
    return ExitCodes.FAILED;
  }

  const progress = createProgress({ quiet: argv.quiet });
  const options = { ...base, namespace: `${argv.namespace}_check` };
  const failedRun = [];
  for (const suite of Object.values(SUITES)) {
    if (!suite.workloads.some((workload) => isSupported(description, workload))) {
      write(`\n${suite.id} suite: no workload supported, not run`);
      continue;
    }
    write(`\nvalidated run of every workload of the ${suite.id} suite${suite.id === 'social' ? ` on the ${scale} dataset` : ''}`);
    try {
      const settings = {
        ...suite.defaults, ...argv, scale, dataset: 'synthetic', concurrency: [argv.concurrency], ...CHECK_SETTINGS[suite.id],
      };
      const dataset = await suite.prepare(settings, { progress, preset: null });
      const result = await runBenchmark({
        suite, description, adapterOptions: options, dataset, workloads: suite.workloads, progress,
        config: {
          ...suite.configure(settings), runs: 1, workloads: suite.workloads.map((w) => w.name), restartCmd: null,
          stallTimeoutMs: 60_000, connection: connectionRecord(options), durability: durabilityOf(argv),
        },
        server,
        command: `bench ${process.argv.slice(2).join(' ')}`,
      });
      write(formatTable(result));
      failedRun.push(...failedWorkloads(result).map((name) => `${suite.id}: ${name}`));
    } catch (error) {
      write(`  FAIL  the ${suite.id} run stopped: ${errorMessage(error)}`);
      failedRun.push(`${suite.id}: run`);
    }
  }

  await removeNamespaces(description, base,
    [...conformanceNamespaces(`${argv.namespace}_conformance`), `${argv.namespace}_check`], write);
  const ok = conformance.failed === 0 && failedRun.length === 0;
  write(`\n${ok ? 'PASS' : 'FAIL'}: ${conformance.failed} conformance case(s) failed; ${failedRun.length} workload(s) failed${failedRun.length ? ` (${failedRun.join(', ')})` : ''}`);
  return ok ? ExitCodes.OK : ExitCodes.FAILED;
}
