// A dataset file (`role`: profiles or relations) as an adapter's rows, made on a thread of its own
// (import-rows-worker.js): reading, parsing and formatting run beside whatever the main thread does with the batch
// before, where readProfiles or readRelations would run them in turn with it. `format` is { module, name, input,
// options }: the module's export `name(input, options)` makes a batch's rows from the documents readProfiles gives,
// or from lines (an adapter's `profileRows` and `relationRows`, adapters/README.md).
//
// Yields { rows, count } for every batch: `batchSize` documents (the last may be smaller), or the lines of a chunk
// read. Once the file has
// been read to its end, `stats` holds what reading met (createReadStats) and `digest.sha256` the file's sha256
// as stored. A malformed line is the same error the reader on this thread raises; a reader stopped early ends the
// thread.
import { Worker } from 'node:worker_threads';
import { BenchError, ErrorCodes } from '../core/errors.js';
import { workerInbox } from './worker-inbox.js';

// Batches the worker may have ready before the main thread asks for them.
const AHEAD = 2;

export async function* readImportRows(file, { role = 'profiles', batchSize = 1000, skipBad = false, stats = null, digest = null, format }) {
  const worker = new Worker(new URL('./import-rows-worker.js', import.meta.url), {
    workerData: { file, role, batchSize, skipBad, hash: digest !== null, format },
  });
  const receive = workerInbox(worker);
  try {
    for (let i = 0; i < AHEAD; i += 1) worker.postMessage({ next: true });
    for (;;) {
      const { batch, done, error } = await receive();
      if (error) {
        throw error.bench ? new BenchError(error.code, error.message) : new BenchError(ErrorCodes.DATASET, `${file}: ${error.message}`);
      }
      if (done) {
        if (stats) Object.assign(stats, done.stats);
        if (digest) digest.sha256 = done.sha256;
        return;
      }
      worker.postMessage({ next: true });
      yield batch;
    }
  } finally {
    worker.removeAllListeners('exit');
    await worker.terminate();
  }
}
