// Conformance cases of the queries suite: a collection of 1,000 generated documents (10 groups) loaded through the adapter's
// bulk path in two batches, counted, indexed; every supported case answered and checked against the reference
// (the same check a run makes); a leftover collection replaced by a second load; the collection dropped.
// suite.js includes them; it passes in its helpers.
import assert from 'node:assert/strict';
import { CASES, CASE_NAMES } from '../../workloads/queries/cases.js';
import { answerProblem, canonicalRows, digestOf } from '../../workloads/queries/check.js';
import { queryDocuments } from '../../workloads/queries/data.js';

const DOCUMENTS = 1_000;
const COLLECTION = 'conformance_values';
export const QUERY_METHODS = ['createQueryCollection', 'importQueryDocuments', 'indexQueryCollection',
  'countQueryDocuments', 'dropQueryCollection', 'query'];

async function load(adapter, count) {
  await adapter.createQueryCollection(COLLECTION);
  await adapter.importQueryDocuments(COLLECTION, queryDocuments(0, count / 2, count));
  await adapter.importQueryDocuments(COLLECTION, queryDocuments(count / 2, count, count));
  await adapter.indexQueryCollection(COLLECTION);
}

export function queryCases(description, { withAdapter }) {
  const supported = CASES.filter((queryCase) => description.supports.includes(queryCase.name));
  const none = supported.length === 0 ? 'no query case is supported' : false;
  const cases = [];
  const add = (name, run, skip = none) => cases.push({ name, run, skip });

  add('queries: every case not supported has its reason in description.unsupported', async () => {
    for (const name of CASE_NAMES) {
      if (description.supports.includes(name)) continue;
      assert.equal(typeof description.unsupported?.[name], 'string', `description.unsupported gives the reason ${name} is not supported`);
    }
  });

  add('queries: a collection loads in batches, counts, and a second load replaces it', async ({ options }) => {
    await withAdapter(description, options, async (adapter) => {
      // As a run does, the suite claims the namespace before it loads anything into it.
      if ((await adapter.inspectNamespace()).state === 'absent') await adapter.resetNamespace();
      await adapter.dropQueryCollection(COLLECTION);
      assert.equal(await adapter.countQueryDocuments(COLLECTION), 0, 'an absent collection counts 0');
      await load(adapter, 200);
      assert.equal(await adapter.countQueryDocuments(COLLECTION), 200);
      await load(adapter, DOCUMENTS);
      assert.equal(await adapter.countQueryDocuments(COLLECTION), DOCUMENTS, 'the second load replaced the first');
    });
  });

  for (const queryCase of supported) {
    add(`queries: ${queryCase.name} answers the reference`, async ({ options }) => {
      await withAdapter(description, options, async (adapter) => {
        const params = queryCase.params(DOCUMENTS);
        const answer = await adapter.query(queryCase.name, COLLECTION, params);
        const expected = () => queryCase.reference(DOCUMENTS, params);
        const reference = digestOf(canonicalRows(expected(), queryCase.order));
        assert.equal(answerProblem(queryCase, answer, reference, expected), null);
      });
    });
  }

  add('queries: the collection drops, and dropping it again does nothing', async ({ options }) => {
    await withAdapter(description, options, async (adapter) => {
      // As a run does, the suite claims the namespace before it loads anything into it.
      if ((await adapter.inspectNamespace()).state === 'absent') await adapter.resetNamespace();
      await adapter.dropQueryCollection(COLLECTION);
      assert.equal(await adapter.countQueryDocuments(COLLECTION), 0);
      await adapter.dropQueryCollection(COLLECTION);
    });
  });
  return cases;
}
