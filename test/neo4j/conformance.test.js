// The shared conformance suite against the neo4j adapter, on the local server of `bench server start neo4j`
// (or BENCH_NEO4J_URL); skips with the reason when there is none, fails when BENCH_REQUIRE lists neo4j.
import { after, describe, test } from 'node:test';
import neo4j from '../../adapters/neo4j/description.js';
import { conformanceCases } from '../conformance/suite.js';
import { serverTarget } from '../helpers/servers.js';

const { options, skip } = serverTarget(neo4j, { namespace: 'dbshootout_conformance' });

describe('conformance: neo4j', { skip }, () => {
  // A server keeps what the suite created; the suite's namespaces are its own to remove.
  after(() => neo4j.testSupport.dropNamespace(options));
  for (const { name, run, skip: caseSkip } of conformanceCases(neo4j)) {
    test(name, { skip: caseSkip }, () => run({ options }));
  }
});
