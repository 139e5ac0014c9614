// The queries suite's workloads as data: one per query case (cases.js), each a single query per run over the
// collection of one size, answered whole (request sent to last row received), then checked row by row against the
// case's reference off the clock.
import { CASES } from './cases.js';
import { answerProblem, canonicalRows, digestOf } from './check.js';

// What a workload's check needs: the digest of each case's reference per size, computed once per invocation.
export function queriesContext() {
  const digests = new Map();
  return {
    reference(queryCase, documents, params) {
      const key = `${queryCase.sameReferenceAs ?? queryCase.name} ${documents}`;
      if (!digests.has(key)) digests.set(key, digestOf(canonicalRows(queryCase.reference(documents, params), queryCase.order)));
      return digests.get(key);
    },
  };
}

export const WORKLOADS = CASES.map((queryCase) => ({
  name: queryCase.name,
  operation: queryCase.name,
  compared: true,
  description: queryCase.description,
  inputs: (ctx, { documents }) => [queryCase.params(documents)],
  call: (adapter, input, { collection }) => adapter.query(queryCase.name, collection, input),
  check(ctx, inputs, answers, adapter, { documents }) {
    const [params] = inputs;
    const reference = ctx.reference(queryCase, documents, params);
    const problem = answerProblem(queryCase, answers[0], reference, () => queryCase.reference(documents, params));
    return problem ? [{ input: `${queryCase.name} on ${documents} documents`, problem }] : [];
  },
  // Recorded with each valid run: how many rows the query returned.
  tally: (inputs, answers) => ({ rows: Array.isArray(answers[0]) ? answers[0].length : null }),
}));
