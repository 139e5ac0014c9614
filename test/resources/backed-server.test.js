// A server that keeps its data in another local server (FerretDB on the local PostgreSQL): its figures are the sum
// of both process trees, so that the backend's disk writes and memory count (resources/measure.js). No server
// needed: state files in a throwaway cache, naming live processes (two sleeps of this test's own).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { backedServer, clusterFigures, measureServer } from '../../resources/measure.js';
import { stateFile } from '../../server/state.js';

const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'bench-backed-'));
const sleeps = [spawn('sleep', ['60']), spawn('sleep', ['60'])];
after(() => {
  for (const child of sleeps) child.kill();
  rmSync(cacheDir, { recursive: true, force: true });
});

function writeState(family, state) {
  const file = stateFile(cacheDir, family);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ family, host: '127.0.0.1', ...state }));
}

const server = { source: 'bench server', cacheDir, family: 'ferretdb' };

test('FerretDB on the local PostgreSQL: both process trees, named, with their pids', { timeout: 10_000 }, async () => {
  writeState('postgresql', { port: 55432, pid: sleeps[1].pid });
  writeState('ferretdb', { port: 57017, pid: sleeps[0].pid, backendServer: { family: 'postgresql', port: 55432, database: 'ferretdb' } });
  assert.deepEqual(backedServer(server), [
    { name: 'ferretdb', endpoint: '127.0.0.1:57017', pid: sleeps[0].pid, namespace: null },
    { name: 'postgresql (its backend)', endpoint: '127.0.0.1:55432', pid: sleeps[1].pid, namespace: null },
  ]);
  const meter = await measureServer(server);
  const figures = await meter.stop();
  assert.deepEqual(figures.parts.map(({ name, pid }) => [name, pid]), [['ferretdb', sleeps[0].pid], ['postgresql (its backend)', sleeps[1].pid]]);
  assert.ok(figures.rssPeakBytes >= figures.parts[0].rssPeakBytes + figures.parts[1].rssPeakBytes - 1, 'the sum of both');
});

test('a backend on another port, one not running, or none: the server alone', { timeout: 10_000 }, () => {
  writeState('postgresql', { port: 55433, pid: sleeps[1].pid });
  assert.equal(backedServer(server), null, 'another PostgreSQL than the one FerretDB keeps its data in');
  writeState('ferretdb', { port: 57017, pid: sleeps[0].pid });
  assert.equal(backedServer(server), null, 'FerretDB on SQLite has no backend server');
  assert.equal(backedServer({ source: '--server-pid', pid: sleeps[0].pid }), null);
  assert.equal(backedServer(null), null);
});

test('the sums: a CPU peak no part has stays unknown, not 0%', () => {
  const part = (cpuPeakPct) => ({ rssPeakBytes: 10, rssMeanBytes: 5, cpuPeakPct, cpuMeanPct: 2, samples: 2, ms: 400, io: null });
  const figures = clusterFigures([{ name: 'a', pid: 1, figures: part(null) }, { name: 'b', pid: 2, figures: part(null) }], 'parts');
  assert.equal(figures.cpuPeakPct, null);
  assert.equal(figures.cpuMeanPct, 4);
  assert.equal(figures.rssPeakBytes, 20);
  assert.deepEqual(figures.parts.map(({ name, pid }) => [name, pid]), [['a', 1], ['b', 2]]);
  assert.equal(figures.nodes, undefined);
  assert.equal(clusterFigures([{ name: 'a', figures: part(7) }, { name: 'b', figures: part(null) }]).cpuPeakPct, 7);
});
