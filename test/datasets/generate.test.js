import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { PROFILES_FILE, RELATIONS_FILE, generate } from '../../datasets/generate.js';
import { buildGraph, inDegree, inNeighbors, outDegree, outNeighbors } from '../../datasets/graph.js';
import { loadRelationIds } from '../../datasets/read.js';
import { SCALES } from '../../datasets/scales.js';

async function tempDir(t) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'db-shootout-test-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function digests(dir) {
  const digest = async (name) => createHash('sha256').update(await readFile(path.join(dir, name))).digest('hex');
  return { profiles: await digest(PROFILES_FILE), relations: await digest(RELATIONS_FILE) };
}

async function generated(t, scale, seed) {
  const dir = await tempDir(t);
  const result = await generate({ dir, scale, seed });
  return { dir, result, digests: await digests(dir) };
}

for (const scale of ['tiny', 'small']) {
  test(`${scale}: the same seed gives byte-identical files, another seed other files`, async (t) => {
    const first = await generated(t, scale, 1);
    const again = await generated(t, scale, 1);
    const other = await generated(t, scale, 2);
    assert.deepEqual(again.digests, first.digests);
    assert.notEqual(other.digests.profiles, first.digests.profiles);
    assert.notEqual(other.digests.relations, first.digests.relations);
  });
}

// The files of GENERATOR_VERSION 1 as one thread wrote them, profiles and relations in turn: drawing the relations
// on a thread of their own beside the profiles must not change a byte (a cached dataset's id promises that).
const VERSION_1_DIGESTS = {
  tiny: {
    profiles: '48fdb27eef93b99cc2498167dcaa0af19190fbb33ce033eb5d85a4370474f1c7',
    relations: '3222897efc0b7d32754194d3d272ca948d797c3f2d60b600f3011c0f2770b9d2',
  },
  small: {
    profiles: '7aa608e9eebcec601ab2769073d84df0bbfc3532064b773a568174537e02a486',
    relations: 'd72048806fd77489f40bd0524b2391c73c7994dcdeb4f5a99152eb2418267f4f',
  },
};

for (const scale of ['tiny', 'small']) {
  test(`${scale}, seed 1: the files are those of generator version 1, byte for byte`, async (t) => {
    assert.deepEqual((await generated(t, scale, 1)).digests, VERSION_1_DIGESTS[scale]);
  });
}

test('a profiles file that cannot be written fails the generation with its error, while the relations thread runs', async (t) => {
  const dir = await tempDir(t);
  await mkdir(path.join(dir, PROFILES_FILE));
  await assert.rejects(generate({ dir, scale: 'small', seed: 1 }), { code: 'EISDIR' });
});

test('tiny: profile lines have 59 columns, a trailing tab, ids 1..N and realistic values', async (t) => {
  const dir = await tempDir(t);
  const { profiles } = await generate({ dir, scale: 'tiny', seed: 1 });
  assert.equal(profiles, SCALES.tiny.profiles);
  const text = await readFile(path.join(dir, PROFILES_FILE), 'utf8');
  assert.ok(text.endsWith('\t\n'));
  const lines = text.slice(0, -1).split('\n');
  assert.equal(lines.length, profiles);
  const timestamp = /^20\d\d-[01]\d-[0-3]\d [0-2]\d:[0-5]\d:[0-5]\d\.0$/;
  lines.forEach((line, i) => {
    const fields = line.split('\t');
    assert.equal(fields.length, 60, `line ${i + 1}`);
    assert.equal(fields[59], '');
    const [id, pub, completion, gender, region, lastLogin, registration, age] = fields;
    assert.equal(id, String(i + 1));
    assert.match(pub, /^[01]$/);
    assert.ok(Number(completion) >= 0 && Number(completion) <= 100 && /^\d+$/.test(completion));
    assert.match(gender, /^(0|1|null)$/);
    assert.match(region, /^([a-z]+ kraj, [a-z -]+|zahranicie, zahranicie)$/);
    assert.match(lastLogin, timestamp);
    assert.match(registration, timestamp);
    assert.ok(registration <= lastLogin, `line ${i + 1}: registered after the last login`);
    assert.ok(age === '0' || (Number(age) >= 14 && Number(age) <= 90), `line ${i + 1}: AGE ${age}`);
    assert.ok(fields.slice(0, 59).every((field) => field !== ''), `line ${i + 1}: empty field`);
  });
  assert.match(text, /[áäčďéíľĺňóôŕšťúýž]/);
  assert.match(text, /<br \/>/);
  assert.match(text, /bratislavsky kraj, bratislava - petrzalka/);
});

test('tiny: relations are sorted by source then target, distinct, without self loops, within 1..N', async (t) => {
  const dir = await tempDir(t);
  const { profiles, relations } = await generate({ dir, scale: 'tiny', seed: 1 });
  const text = await readFile(path.join(dir, RELATIONS_FILE), 'utf8');
  assert.ok(text.endsWith('\n'));
  const lines = text.slice(0, -1).split('\n');
  assert.equal(lines.length, relations);
  let previous = [0, 0];
  for (const line of lines) {
    assert.match(line, /^[1-9]\d*\t[1-9]\d*$/);
    const [s, d] = line.split('\t').map(Number);
    assert.ok(s <= profiles && d <= profiles);
    assert.notEqual(s, d, `self loop ${line}`);
    assert.ok(s > previous[0] || (s === previous[0] && d > previous[1]), `${line} after ${previous.join('\t')}`);
    previous = [s, d];
  }
});

function weaklyConnected(g) {
  const seen = new Uint8Array(g.n + 1);
  const queue = [1];
  seen[1] = 1;
  let count = 1;
  while (queue.length > 0) {
    const v = queue.pop();
    for (const w of [...outNeighbors(g, v), ...inNeighbors(g, v)]) {
      if (!seen[w]) {
        seen[w] = 1;
        count += 1;
        queue.push(w);
      }
    }
  }
  return count === g.n;
}

test('small: the graph has the shape of Pokec', async (t) => {
  const dir = await tempDir(t);
  const { profiles, relations } = await generate({ dir, scale: 'small', seed: 1 });
  const ids = await loadRelationIds(path.join(dir, RELATIONS_FILE));
  const g = buildGraph(profiles, ids.from, ids.to);
  assert.equal(g.outTargets.length, relations, 'the file holds no duplicates');

  const mean = relations / profiles;
  assert.ok(Math.abs(mean - 18.75) <= 18.75 * 0.1, `mean out-degree ${mean}`);

  let reciprocal = 0;
  let local = 0;
  for (let i = 0; i < ids.count; i += 1) {
    if (outNeighbors(g, ids.to[i]).includes(ids.from[i])) reciprocal += 1;
    if (Math.abs(ids.to[i] - ids.from[i]) <= 40) local += 1;
  }
  const reciprocity = reciprocal / ids.count;
  assert.ok(reciprocity >= 0.3 && reciprocity <= 0.6, `reciprocity ${reciprocity}`);
  assert.ok(local / ids.count > 0.15, `share of edges between nearby ids ${local / ids.count}`);

  let unlisted = 0;
  let silent = 0;
  let maxIn = 0;
  let maxOut = 0;
  for (let v = 1; v <= g.n; v += 1) {
    assert.ok(inDegree(g, v) + outDegree(g, v) > 0, `P${v} is isolated`);
    if (inDegree(g, v) === 0) unlisted += 1;
    if (outDegree(g, v) === 0) silent += 1;
    maxIn = Math.max(maxIn, inDegree(g, v));
    maxOut = Math.max(maxOut, outDegree(g, v));
  }
  assert.ok(unlisted >= 0.005 * profiles, `${unlisted} profiles with in-degree 0`);
  assert.ok(silent > 0, 'some profiles list nobody');
  assert.ok(maxIn > 10 * mean && maxOut > 10 * mean, `heavy tails: max in ${maxIn}, max out ${maxOut}`);
  assert.ok(maxOut < profiles);
  assert.ok(weaklyConnected(g), 'all profiles are weakly connected');

  const text = await readFile(path.join(dir, PROFILES_FILE), 'utf8');
  const ageUnset = text.split('\n').filter((line) => line.split('\t')[7] === '0').length / profiles;
  assert.ok(Math.abs(ageUnset - 1 / 3) < 0.03, `AGE = 0 for ${ageUnset}`);
});

test('tiny: a few profiles have in-degree 0 and a mean out-degree near 18.75', async (t) => {
  const dir = await tempDir(t);
  const { profiles, relations } = await generate({ dir, scale: 'tiny', seed: 1 });
  const ids = await loadRelationIds(path.join(dir, RELATIONS_FILE));
  const g = buildGraph(profiles, ids.from, ids.to);
  let unlisted = 0;
  for (let v = 1; v <= g.n; v += 1) if (inDegree(g, v) === 0 && outDegree(g, v) > 0) unlisted += 1;
  assert.ok(unlisted >= 3, `${unlisted} profiles with in-degree 0`);
  assert.ok(relations / profiles > 15 && relations / profiles < 20.7, `mean out-degree ${relations / profiles}`);
});

test('progress is reported per phase and ends at the total', async (t) => {
  const dir = await tempDir(t);
  const events = [];
  await generate({ dir, scale: 'tiny', seed: 1, onProgress: (event) => events.push(event) });
  const phases = [...new Set(events.map(({ phase }) => phase))];
  assert.deepEqual(phases, ['profiles', 'relations', 'writing relations']);
  for (const phase of phases) {
    const last = events.filter((event) => event.phase === phase).at(-1);
    assert.equal(last.done, last.total);
  }
});

test('an unknown scale is a usage error', async (t) => {
  const dir = await tempDir(t);
  await assert.rejects(generate({ dir, scale: 'huge', seed: 1 }), { code: 'E_USAGE', message: /tiny, small, medium, full/ });
});
