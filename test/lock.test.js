// The lock file between processes (core/lock.js), and what it guards: a dataset prepared in a shared cache is
// written by one process at a time, the others waiting for it and opening what it wrote.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tryLock, unlock, withLock } from '../core/lock.js';
import { prepareDataset } from '../datasets/dataset.js';
import { DEFAULT_SEED } from '../datasets/scales.js';

const LOCK_MODULE = fileURLToPath(new URL('../core/lock.js', import.meta.url));

function tempDir(t) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'db-shootout-lock-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// Another process holding `file` until it is killed: resolves with the child once it holds it.
function holder(t, file) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', `
    const { tryLock } = await import(${JSON.stringify(LOCK_MODULE)});
    if (!tryLock(${JSON.stringify(file)}).taken) process.exit(3);
    console.log('held');
    setInterval(() => {}, 1000);
  `], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(() => child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`the holder ended with ${code} before it held the lock`)));
  });
}

const exited = (child) => new Promise((resolve) => { child.once('exit', resolve); });

describe('lock files', { timeout: 60_000 }, () => {
  test('one taker at a time in one process, free again once unlocked', (t) => {
    const file = path.join(tempDir(t), 'x.lock');
    assert.deepEqual(tryLock(file), { taken: true });
    assert.equal(readFileSync(file, 'utf8'), `${process.pid}\n`);
    assert.deepEqual(tryLock(file), { taken: false, holder: 'this process' });
    unlock(file);
    assert.equal(existsSync(file), false);
    assert.deepEqual(tryLock(file), { taken: true });
    unlock(file);
  });

  test('a live process\'s lock is refused, naming it; a dead one\'s is taken over', async (t) => {
    const file = path.join(tempDir(t), 'x.lock');
    const child = await holder(t, file);
    assert.deepEqual(tryLock(file), { taken: false, holder: `process ${child.pid}` });
    child.kill('SIGKILL');
    await exited(child);
    assert.deepEqual(tryLock(file), { taken: true });
    unlock(file);
  });

  test('a lock file left without a pid is taken over once it is old, not while it may be being written', (t) => {
    const file = path.join(tempDir(t), 'x.lock');
    writeFileSync(file, '');
    assert.equal(tryLock(file).taken, false, 'just made: its taker may be writing its pid');
    const old = new Date(Date.now() - 60_000);
    utimesSync(file, old, old);
    assert.deepEqual(tryLock(file), { taken: true });
    unlock(file);
  });

  test('withLock waits for the holder, says so once, and runs once it is gone', async (t) => {
    const file = path.join(tempDir(t), 'x.lock');
    const child = await holder(t, file);
    const waited = [];
    let ran = false;
    const done = withLock(file, () => { ran = true; return 42; }, { onWait: (who) => waited.push(who), pollMs: 50 });
    await new Promise((resolve) => { setTimeout(resolve, 500); });
    assert.equal(ran, false, 'ran while another process held the lock');
    assert.deepEqual(waited, [`process ${child.pid}`]);
    child.kill('SIGKILL');
    assert.equal(await done, 42);
    assert.equal(existsSync(file), false, 'given back');
  });

  test('withLock gives up after waitMs, naming the holder', async (t) => {
    const file = path.join(tempDir(t), 'x.lock');
    const child = await holder(t, file);
    await assert.rejects(withLock(file, () => {}, { waitMs: 300, pollMs: 50 }), new RegExp(`still held by process ${child.pid} after 0 s`));
  });
});

test('a dataset another process is preparing is waited for, not written beside it', { timeout: 120_000 }, async (t) => {
  const cacheDir = tempDir(t);
  const dir = path.join(cacheDir, 'datasets', `synthetic-tiny-s${DEFAULT_SEED}`);
  mkdirSync(path.dirname(dir), { recursive: true });
  const child = await holder(t, `${dir}.lock`);
  const phases = [];
  let settled = false;
  const prepared = prepareDataset({ scale: 'tiny', cacheDir, onProgress: ({ phase }) => phases.push(phase) })
    .finally(() => { settled = true; });
  await new Promise((resolve) => { setTimeout(resolve, 1500); });
  assert.equal(settled, false, 'prepared while another process held the dataset\'s lock');
  assert.equal(existsSync(dir), false, 'wrote into the directory another process prepares');
  assert.deepEqual(phases, [`waiting for process ${child.pid}, which prepares it`]);
  child.kill('SIGKILL');
  const dataset = await prepared;
  assert.ok(dataset.profiles > 0);
  assert.equal(existsSync(`${dir}.lock`), false, 'the lock is given back');
});
