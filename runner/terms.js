// The run's terms, settled before any work: the adapter applies them where the harness owns the server, reads
// the server's effective settings back, and says what contradicts the term; a contradiction is an error (exit 1)
// when a planned workload writes under that term. The result records the term, how the database gets it and the
// settings read back, with where each came from.
import { BenchError, ErrorCodes } from '../core/errors.js';
import { formatSize, neededTerms, sameCache, termsRecord } from '../core/terms.js';

// `workloads`: the workloads the run will execute; `owned`: the connection goes to a server `bench server` runs;
// `cacheBytes`: --cache, which the server must report (a server the harness owns was started with it).
export async function settleTerms({ description, adapter, durability, source, workloads, owned, cacheBytes = null, cold = null }) {
  const verified = adapter.terms ? await adapter.terms({ durability, owned, cacheBytes }) : null;
  const problems = verified?.problems ?? [];
  const cache = {
    requested: cacheBytes,
    bytes: verified?.cache?.bytes ?? null,
    settings: verified?.cache?.settings ?? {},
    ...(cold ? { cold } : {}),
  };
  if (cacheBytes && !sameCache(cacheBytes, cache.bytes)) {
    const settings = Object.entries(cache.settings).map(([name, { value, source: from }]) => `${name} = ${value} (${from})`).join(', ');
    throw new BenchError(ErrorCodes.TERMS, cache.bytes === null
      ? `--cache ${formatSize(cacheBytes)}: ${description.name}'s adapter cannot read its cache size back, so the term cannot be verified`
      : `--cache ${formatSize(cacheBytes)}: ${description.name} reports a cache of ${formatSize(cache.bytes)} (${settings}); `
        + 'start its server with that cache (a server `bench server` runs is restarted with it), or run without --cache');
  }
  const needed = neededTerms(workloads, durability);
  if (problems.length > 0 && needed.includes(durability)) {
    throw new BenchError(ErrorCodes.TERMS, [
      `${description.name} does not run under the ${durability} durability term this run asks for:`,
      ...problems.map((problem) => `  ${problem}`),
      `  (or run it with --durability ${durability === 'relaxed' ? 'durable' : 'relaxed'}, and compare it only with results of that term)`,
    ].join('\n'));
  }
  const record = { ...termsRecord({ description, durability, source, verified }), cache };
  if (!verified) record.durability.verified = false;
  else record.durability.verified = problems.length === 0;
  if (problems.length > 0) record.durability.problems = problems;
  return record;
}
