// The shared conformance suite against an ArangoDB server named by BENCH_ARANGODB_URL (none can be installed on
// this project's machines); without one every case skips with that reason.
import { after, describe, test } from 'node:test';
import arangodb from '../../adapters/arangodb/description.js';
import { conformanceCases } from '../conformance/suite.js';
import { serverTarget } from '../helpers/servers.js';

const { options, skip } = serverTarget(arangodb, { namespace: 'dbshootout_conformance_arangodb' });

describe('conformance: arangodb', { skip }, () => {
  // The suite's namespaces are its own to remove; the server keeps nothing of this run.
  after(() => arangodb.testSupport.dropNamespace(options));
  for (const { name, run, skip: caseSkip } of conformanceCases(arangodb)) {
    test(name, { skip: caseSkip }, () => run({ options }));
  }
});
