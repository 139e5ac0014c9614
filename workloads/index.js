// The suites: each one a benchmark family described as data (its workloads, the data they need, how a run is
// divided into rounds), run by the one runner in runner/run.js and rendered by the one report.
import { usageError } from '../core/errors.js';
import social from './social/suite.js';
import crud from './crud/suite.js';
import mixed from './mixed/suite.js';
import queries from './queries/suite.js';
import graph from './graph/suite.js';

export const SUITES = Object.freeze({ social, crud, mixed, queries, graph });
export const DEFAULT_SUITE = 'social';

export function suiteIds() {
  return Object.keys(SUITES);
}

export function getSuite(id) {
  if (!Object.hasOwn(SUITES, id)) {
    throw usageError(`unknown suite "${id}"; valid suites: ${suiteIds().join(', ')}`);
  }
  return SUITES[id];
}

// The operations a suite's workloads call, each once, in the order the workloads name them.
export function suiteOperations(suite) {
  return [...new Set(suite.workloads.map((workload) => workload.operation))];
}

export function isSupported(description, workload) {
  return description.supports.includes(workload.operation);
}
