// Generation and preparation cost of one scale: `node benchmarks/generate.js [scale]` (default full).
// Works in a temporary directory and removes it.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeDataset } from '../datasets/dataset.js';
import { hasEdge, inDegree, outDegree } from '../datasets/graph.js';

const GENERATION_PHASES = new Set(['profiles', 'relations', 'writing relations']);

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const megabytes = (kilobytes) => `${Math.round(kilobytes / 1024)} MB`;

function weaklyConnected(g) {
  const parent = Int32Array.from({ length: g.n + 1 }, (_, i) => i);
  const root = (v) => {
    let r = v;
    while (parent[r] !== r) r = parent[r];
    for (let x = v; parent[x] !== r;) {
      const up = parent[x];
      parent[x] = r;
      x = up;
    }
    return r;
  };
  let components = g.n;
  for (let v = 1; v <= g.n; v += 1) {
    for (let e = g.outOffsets[v]; e < g.outOffsets[v + 1]; e += 1) {
      const a = root(v);
      const b = root(g.outTargets[e]);
      if (a !== b) {
        parent[a] = b;
        components -= 1;
      }
    }
  }
  return components === 1;
}

function shape(g) {
  let reciprocal = 0;
  let unlisted = 0;
  let silent = 0;
  for (let v = 1; v <= g.n; v += 1) {
    for (let e = g.outOffsets[v]; e < g.outOffsets[v + 1]; e += 1) {
      if (hasEdge(g, g.outTargets[e], v)) reciprocal += 1;
    }
    if (inDegree(g, v) === 0) unlisted += 1;
    if (outDegree(g, v) === 0) silent += 1;
  }
  return { reciprocity: reciprocal / g.outTargets.length, unlisted, silent, connected: weaklyConnected(g) };
}

async function main(scale = 'full') {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'db-shootout-generate-'));
  try {
    const begin = performance.now();
    const phaseStarts = [];
    let generationRss = 0;
    const onProgress = ({ phase }) => {
      if (phaseStarts.at(-1)?.phase === phase) return;
      if (!GENERATION_PHASES.has(phase) && generationRss === 0) generationRss = process.resourceUsage().maxRSS;
      phaseStarts.push({ phase, at: performance.now() });
    };
    const dataset = await writeDataset({ dir, scale, seed: 1, onProgress });
    const end = performance.now();
    const totalRss = process.resourceUsage().maxRSS;

    const timings = phaseStarts.map(({ phase, at }, i) => ({ phase, ms: (phaseStarts[i + 1]?.at ?? end) - at }));
    const generationMs = phaseStarts.find(({ phase }) => !GENERATION_PHASES.has(phase)).at - begin;
    const breakdown = (generation) => timings.filter(({ phase }) => GENERATION_PHASES.has(phase) === generation)
      .map(({ phase, ms }) => `${phase} ${seconds(ms)}`).join(', ');

    const { reciprocity, unlisted, silent, connected } = shape(await dataset.loadGraph());
    const ageUnset = (dataset.reference.ageHistogram['0'] ?? 0) / dataset.profiles;
    console.log(`scale ${scale}: ${dataset.profiles} profiles, ${dataset.relations} relations`);
    // The relations are drawn and written on a second thread while the profiles are written: their phases
    // show only the time left after the profiles.
    console.log(`generation: ${seconds(generationMs)} (${breakdown(true)}; the relation phases after the profiles, `
      + `beside which they ran), peak RSS ${megabytes(generationRss)}`);
    console.log(`graph + params + reference + checksums: ${seconds(end - begin - generationMs)} `
      + `(${breakdown(false)}), peak RSS ${megabytes(totalRss)}`);
    console.log(`mean out-degree ${(dataset.relations / dataset.profiles).toFixed(2)}, `
      + `reciprocity ${reciprocity.toFixed(3)}, AGE=0 ${ageUnset.toFixed(3)}, in-degree 0: ${unlisted}, out-degree 0: ${silent}, `
      + `weakly connected: ${connected ? 'yes' : 'no'}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main(process.argv[2]);
