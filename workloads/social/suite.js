// The social-network suite: the classic nosql-tests workloads on the Pokec network (a synthetic one of the same
// shape, or SNAP's real files). Its data is a dataset imported once and reused while its marker matches; every
// run measures the selected workloads in order over one connection at the run's concurrency.
import { usageError } from '../../core/errors.js';
import { DEFAULT_DURABILITY, workloadDurability } from '../../core/terms.js';
import { prepareDataset } from '../../datasets/dataset.js';
import { importDataset } from '../../import/import.js';
import { loadExpected } from './expected.js';
import { limitDataset } from './presets.js';
import { WORKLOADS } from './workloads.js';

function describeDataset(dataset) {
  return {
    id: dataset.id,
    name: dataset.name,
    scale: dataset.scale,
    seed: dataset.seed,
    profiles: dataset.profiles,
    relations: dataset.relations,
    sha256: dataset.sha256,
    // What preparing the dataset met in its files: lines repaired (invalid UTF-8) or skipped (--skip-bad),
    // relations dropped (the real Pokec's duplicates and dangling ids); null for a dataset prepared without.
    readStats: dataset.readStats ?? null,
  };
}

export default {
  id: 'social',
  name: 'social network',
  description: 'reads, writes, an aggregation, neighbourhoods and shortest paths on the Pokec social network',
  workloads: WORKLOADS,
  // The warm-up prepares the measured workloads, so a selection always keeps it.
  alwaysRun: ['warmup'],
  // The flags of `bench run` that only this suite takes, and its defaults of the shared ones. (--preset serves
  // every suite: workloads/presets.js.)
  flags: ['scale', 'dataset', 'skip-bad', 'reimport', 'import-path'],
  defaults: { runs: 5, concurrency: [25] },
  // `settings`: the run's flags with --concurrency as a list; `preset`: the preset's limits, or null.
  prepare: async (settings, { progress, preset }) => limitDataset(await prepareDataset({
    scale: settings.scale,
    seed: settings.seed,
    cacheDir: settings['cache-dir'],
    dataset: settings.dataset,
    skipBad: settings['skip-bad'],
    onProgress: progress?.phases(`dataset ${settings.scale}`),
  }), preset?.limits),
  configure(settings) {
    if (settings.concurrency.length > 1) {
      throw usageError('the social suite runs at one --concurrency; a list of levels is for --suite crud');
    }
    return { concurrency: settings.concurrency[0], importPath: settings['import-path'] ?? 'auto' };
  },
  describeData: describeDataset,
  // The bulk import, or the reuse of an earlier one; `sha256` is what the import read (or what the marker of the
  // reused one matched). `server`, the local server the run knows, lets an adapter take its offline path, as
  // --import-path allows.
  load: ({ adapter, description, options, data, reimport, progress, server, config }) => importDataset({
    adapter, description, options, dataset: data, force: reimport, progress, server, offline: config?.importPath ?? 'auto',
  }),
  context: (data, workloads) => loadExpected(data, workloads),
  rounds({ config, workloads }) {
    // A write step's params say whether its writes are durable (the run's term, or singleWriteSync's own).
    const steps = workloads.map((workload) => {
      const term = workloadDurability(workload, config.durability ?? DEFAULT_DURABILITY);
      return { key: workload.name, workload, params: term ? { durable: term === 'durable' } : null };
    });
    return Array.from({ length: config.runs }, (_, i) => ({
      run: i + 1, label: `run ${i + 1}/${config.runs}`, concurrency: config.concurrency, steps,
    }));
  },
};
