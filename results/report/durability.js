// Crash tests (`bench crash` result documents, which carry a `durability` section and no dataset) in a report:
// per database and write mode, the crashes of all its documents pooled, against what its adapter declares.
import { formatCount } from '../format.js';

export const isCrashDocument = ({ result }) => result.durability !== null && typeof result.durability === 'object';

// [{ id, name, version, files, modes: [{ operation, trials, acknowledged, lost, durablePerWrite, claim, verdict }] }],
// databases and modes in the order the documents first name them.
export function durabilityReport(documents) {
  const databases = new Map();
  for (const { file, result } of documents) {
    if (!databases.has(result.db.id)) {
      databases.set(result.db.id, { id: result.db.id, name: result.db.name, version: result.db.version ?? null, files: [], modes: new Map() });
    }
    const database = databases.get(result.db.id);
    database.files.push(file);
    for (const [operation, figures] of Object.entries(result.durability)) {
      const mode = database.modes.get(operation)
        ?? { operation, trials: 0, acknowledged: 0, lost: 0, durablePerWrite: figures.durablePerWrite, claim: figures.claim,
          // A cluster's node-loss test (durability/cluster.js) counts more.
          ...(['node-kill', 'network-cut'].includes(figures.kind) && { kind: figures.kind, written: figures.operation, errored: 0, refusedMs: { max: 0 }, rejoinMs: { max: 0 }, inconsistent: 0, cutNodeAnswered: 0 }) };
      mode.trials += figures.trials;
      mode.acknowledged += figures.acknowledged;
      mode.lost += figures.lost;
      if (mode.kind === 'node-kill' || mode.kind === 'network-cut') {
        mode.errored += figures.errored;
        mode.inconsistent += figures.inconsistent;
        mode.cutNodeAnswered += figures.cutNodeAnswered ?? 0;
        mode.refusedMs.max = Math.max(mode.refusedMs.max, figures.refusedMs.max);
        mode.rejoinMs.max = Math.max(mode.rejoinMs.max, figures.rejoinMs.max);
      }
      database.modes.set(operation, mode);
    }
  }
  return [...databases.values()].map((database) => ({
    ...database,
    modes: [...database.modes.values()].map((mode) => ({
      ...mode,
      verdict: !mode.durablePerWrite ? 'not claimed' : mode.lost === 0 && !mode.inconsistent ? 'verified' : 'failed',
    })),
  }));
}

// "verified: 0 of 4,210 acknowledged writes lost across 5 node kills; ..." for a cluster's node-loss test.
export function nodeLossLine(mode) {
  const fault = mode.kind === 'network-cut' ? 'network cut' : 'node kill';
  const counts = `${formatCount(mode.lost)} of ${formatCount(mode.acknowledged)} acknowledged writes lost across ${formatCount(mode.trials)} ${fault}${mode.trials === 1 ? '' : 's'}`;
  const rest = `${formatCount(mode.errored)} writes errored, writes held for ${(mode.refusedMs.max / 1000).toFixed(1)} s at most, rejoined within ${(mode.rejoinMs.max / 1000).toFixed(1)} s`
    + `, ${mode.inconsistent === 0 ? 'every node ended with the same rows' : `${mode.inconsistent} trial(s) ended with nodes holding different rows`}`;
  const cut = mode.kind === 'network-cut'
    ? `; the cut-off node ${mode.cutNodeAnswered ? `ANSWERED a read in ${mode.cutNodeAnswered} of ${mode.trials} cuts (a node outside the primary component should refuse)` : 'refused reads in every cut'}` : '';
  return `${mode.verdict === 'verified' ? 'verified' : 'FAILED'}: ${counts}; ${rest}${cut}`;
}

export function durabilityLine(mode) {
  if (mode.kind === 'node-kill' || mode.kind === 'network-cut') return nodeLossLine(mode);
  const counts = `${formatCount(mode.lost)} of ${formatCount(mode.acknowledged)} acknowledged writes lost in ${formatCount(mode.trials)} crashes`;
  if (mode.verdict === 'verified') return `verified: ${counts}`;
  if (mode.verdict === 'failed') return `FAILED: ${counts}, though declared durable per write`;
  return `${counts} (not declared durable per write)`;
}

const NOTE = 'a process crash (SIGKILL to the database\'s process tree under write load), not a power loss: the operating system\'s page cache survives it';

// The report's blocks for its crash tests; a report of crash tests alone opens with a summary of its own.
export function durabilityBlocks(report) {
  if (!report.durability || report.durability.length === 0) return [];
  const summary = report.databases.length > 0 ? [] : [{
    kind: 'text', id: 'summary', title: 'db-shootout report',
    lines: [`crash tests: ${report.durability.map((d) => d.id).join(', ')}`, NOTE],
  }];
  return [
    ...summary,
    {
      kind: 'table', id: 'durability', title: 'Durability (bench crash): acknowledged writes lost in crashes of the database process, not power losses',
      header: ['database', 'write mode', 'declared', 'result'],
      numeric: [],
      rows: report.durability.flatMap((database) => database.modes.map((mode, index) => [
        index === 0 ? database.id : '', mode.kind ? `${mode.kind === 'network-cut' ? 'network cut' : 'node kill'} (${mode.written} on the others)` : mode.operation,
        mode.kind ? 'survives a minority lost' : mode.durablePerWrite ? 'durable per write' : 'no per-write claim', durabilityLine(mode),
      ])),
    },
    {
      kind: 'list', id: 'durability-claims', title: 'What each adapter declares',
      items: report.durability.flatMap((database) => database.modes.map((mode) => ({ label: `${database.id} ${mode.operation}`, lines: [mode.claim ?? 'nothing declared'] }))),
    },
  ];
}
