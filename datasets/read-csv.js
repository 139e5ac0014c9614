// The profile reader built on csv-parse, a general CSV parser: kept as an independent implementation that the
// tests and benchmarks/read.js hold the hand-written reader (read.js) against. It accepts only well-formed
// files: every malformed line is an error, with the same messages as read.js.
import { parse } from 'csv-parse';
import { rowToDocument } from './columns.js';
import { profileProblem } from './profile-parser.js';
import { lineError, openBytes, readError } from './read-source.js';

export async function* readProfilesCsv(file, { batchSize = 1000 } = {}) {
  const parser = parse({ delimiter: '\t', record_delimiter: '\n', quote: false, relax_column_count: true, info: true });
  const source = openBytes(file);
  source.on('error', (error) => parser.destroy(readError(file, error)));
  source.pipe(parser);
  let batch = [];
  try {
    for await (const { record, info } of parser) {
      const problem = profileProblem(record);
      if (problem !== null) throw lineError(file, info.lines, problem);
      batch.push(rowToDocument(record));
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
  } catch (error) {
    throw readError(file, error);
  } finally {
    source.destroy();
  }
  if (batch.length > 0) yield batch;
}
