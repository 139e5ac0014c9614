// The child process in which a crash test runs an embedded database: it inserts until it is killed and logs
// every acknowledged key itself (it is the process that receives the acknowledgements). Its one argument is
// the JSON of { db, options, mode, collection, concurrency, trial, logFile, documentsFile }.
import { loadAdapter } from '../adapters/index.js';
import { AckLog } from './ack-log.js';
import { insertFor, loadDocuments, streamInserts } from './load.js';

const spec = JSON.parse(process.argv[2]);
const description = await loadAdapter(spec.db);
const adapter = description.create(spec.options);
await adapter.connect();
const log = new AckLog(spec.logFile);
const load = streamInserts({
  adapter,
  insert: insertFor(description, spec.mode),
  collection: spec.collection,
  documents: await loadDocuments(spec.documentsFile),
  concurrency: spec.concurrency,
  log,
  trial: spec.trial,
});
// Only a failed insert ends the load before the kill.
const { error } = await load.done;
log.close();
process.stderr.write(`${error.message}\n`);
process.exitCode = 1;
