// yargs' usage messages in the harness's words (cli/usage.js), and the real CLI answering each bad choice, unknown
// command, unknown flag and empty value in one line naming what was typed and what it takes (exit code 2).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { closest, emptyValue, invalidValues, orList, usageMessage } from '../cli/usage.js';
import { spawnBench } from './helpers/cli.js';

const COMMANDS = ['run', 'import', 'list', 'server', 'data', 'report'];

test('yargs\' "Invalid values" read as the flag or argument, the value and its choices', () => {
  const message = 'Invalid values:\n  Argument: scale, Given: "huge", Choices: "tiny", "small", "medium", "full"\n  Argument: suite, Given: "x y", Choices: "social", "crud"';
  assert.deepEqual(invalidValues(message), [
    { name: 'scale', given: 'huge', choices: ['tiny', 'small', 'medium', 'full'] },
    { name: 'suite', given: 'x y', choices: ['social', 'crud'] },
  ]);
  assert.equal(invalidValues('Unknown argument: x'), null);
  assert.equal(usageMessage(message, ['run', '--scale', 'huge', '--suite', 'x y'], COMMANDS),
    '--scale huge is not a choice: tiny, small, medium or full\n--suite x y is not a choice: social or crud');
  assert.equal(usageMessage('Invalid values:\n  Argument: action, Given: "frob", Choices: "install", "start"', ['server', 'frob', 'postgresql'], COMMANDS),
    'bench server: "frob" is not an action it knows: install or start');
  assert.equal(orList(['a']), 'a');
  assert.equal(orList(['a', 'b', 'c']), 'a, b or c');
});

test('an unknown command is named as such, with yargs\' suggestion; an unknown flag with the command and the flag it is near', () => {
  assert.equal(usageMessage('Did you mean run?', ['rn'], COMMANDS), 'unknown command "rn" (did you mean "run"?); the commands: run, import, list, server, data or report');
  assert.equal(usageMessage('Unknown argument: zzz', ['zzz', '--x'], COMMANDS), 'unknown command "zzz"; the commands: run, import, list, server, data or report');
  assert.equal(usageMessage('Unknown argument: concurency', ['run', '--concurency', '5'], COMMANDS, ['concurrency', 'db']),
    'bench run takes no --concurency (did you mean --concurrency?): see "bench run --help"');
  assert.equal(usageMessage('Unknown arguments: a1, b2', ['run', '--a1', '--b2'], COMMANDS, ['db']), 'bench run takes no --a1 or --b2: see "bench run --help"');
  // A missing required flag: the command, each flag with what it takes, in one line.
  assert.equal(usageMessage('Missing required argument: out\nname the merged result file: --out <file>', ['merge', 'x'], [...COMMANDS, 'merge']),
    'bench merge needs --out <file> (the merged result file)');
  assert.equal(usageMessage('Missing required arguments: db, shards, image\nname the database: --db <id>\nname the number of shards: --shards <n>'
    + '\nname the harness image, built from the Dockerfile: --image <image>', ['k8s', 'job'], [...COMMANDS, 'k8s']),
  'bench k8s needs --db <id> (the database), --shards <n> (the number of shards) and --image <image> (the harness image, built from the Dockerfile)');
  assert.equal(usageMessage('Missing required argument: out', ['merge', 'x'], [...COMMANDS, 'merge']), 'bench merge needs --out', 'without a hint, the flag alone');
  assert.equal(usageMessage('Implications failed:\n  a -> b', ['merge', 'x'], [...COMMANDS, 'merge']), null, 'other messages keep their words');
  assert.equal(closest('concurency', ['concurrency', 'clients']), 'concurrency');
  assert.equal(closest('xy', ['db', 'out']), null, 'a short name is no typo of another short one');
});

test('a string flag typed without its value is found, whatever follows it', () => {
  const strings = ['workload', 'db', 'suite'];
  assert.equal(emptyValue(['run', '--workload', ''], strings), '--workload needs a value');
  assert.equal(emptyValue(['run', '--workload='], strings), '--workload needs a value');
  assert.equal(emptyValue(['run', '--db', '--runs', '1'], strings, { db: 'sqlite, duckdb' }), '--db needs a value: sqlite, duckdb');
  assert.equal(emptyValue(['run', '--suite'], strings), '--suite needs a value');
  assert.equal(emptyValue(['run', '--db', 'sqlite', '--quiet'], strings), null);
  assert.equal(emptyValue(['run', '--quiet'], strings), null, 'a boolean flag has no value to give');
  assert.equal(emptyValue(['k8s', 'job', '--', '--workload', ''], strings), null, 'the flags after "--" are another command\'s');
});

test('the CLI answers every bad choice, command, flag and empty value in one line, exit code 2', { timeout: 240_000 }, async () => {
  const cases = [
    [['run', '--suite', 'nosuch'], /^error: --suite nosuch is not a choice: social, crud, mixed, queries or graph$/],
    [['run', '--suite', 'crud', '--shape', 'x'], /^error: --shape x is not a choice: uniform or varied$/],
    [['run', '--scale', 'huge'], /^error: --scale huge is not a choice: tiny, small, medium or full$/],
    [['report', 'x', '--format', 'pdf'], /^error: --format pdf is not a choice: table, markdown, csv, json or html$/],
    [['server', 'frobnicate', 'postgresql'], /^error: bench server: "frobnicate" is not an action it knows: install, start, stop or status$/],
    [['data', 'fetch', 'nosuch'], /^error: bench data: "nosuch" is not a dataset it knows: pokec or cit-patents$/],
    [['frob'], /^error: unknown command "frob" \(did you mean "run"\?\); the commands: run, import, list, generate, check, server, crash, data, report, compare, merge or k8s$/],
    [['run', '--workload', ''], /^error: --workload needs a value: all, or a comma-separated list of the suite's workloads \(`bench list` names them\)$/],
    [['run', '--suite'], /^error: --suite needs a value: social, crud, mixed, queries, graph$/],
    [['run', '--db', '--runs', '1'], /^error: --db needs a value: sqlite, duckdb, /],
    [['run', '--scale='], /^error: --scale needs a value: tiny, small, medium, full$/],
    [['report', 'x', '--quiet'], /^error: bench report takes no --quiet: see "bench report --help"$/],
  ];
  for (const [args, message] of cases) {
    const { code, stderr } = await spawnBench(args, { timeoutMs: 30_000 });
    assert.equal(code, 2, `${args.join(' ')}: ${stderr}`);
    assert.match(stderr.split('\n')[0], message, args.join(' '));
    assert.doesNotMatch(stderr, /Invalid values|Did you mean|Unknown argument/, args.join(' '));
  }
});

test('bench crash names the databases it takes when it cannot take the one given', { timeout: 60_000 }, async () => {
  const { code, stderr } = await spawnBench(['crash', '--db', 'memory'], { timeoutMs: 30_000 });
  assert.equal(code, 2, stderr);
  assert.match(stderr, /^error: nothing to crash: In-process memory keeps nothing outside the harness's process; bench crash takes sqlite, duckdb, pglite, postgresql, postgresql_tabular, mysql, neo4j, orientdb, ferretdb, couchdb$/m);
});

test('the newcomer\'s other answers: a missing required flag in one line, a suite that cannot be sharded said first, a stop of nothing', { timeout: 60_000 }, async () => {
  const merge = await spawnBench(['merge', 'results'], { timeoutMs: 30_000 });
  assert.equal(merge.code, 2);
  assert.equal(merge.stderr.split('\n')[0], 'error: bench merge needs --out <file> (the merged result file)');
  const k8s = await spawnBench(['k8s', 'job', '--suite', 'mixed'], { timeoutMs: 30_000 });
  assert.equal(k8s.code, 2);
  assert.equal(k8s.stderr.split('\n')[0], 'error: bench k8s needs --db <id> (the database), --shards <n> (the number of shards) and --image <image> (the harness image, built from the Dockerfile)');
  const shard = await spawnBench(['run', '--shard', '0/2'], { timeoutMs: 30_000 });
  assert.equal(shard.code, 2);
  assert.match(shard.stderr, /^error: --shard runs the mixed suite; the social suite's checks/);
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'bench-stop-'));
  try {
    const stop = await spawnBench(['server', 'stop', 'postgresql', '--cache-dir', cacheDir], { timeoutMs: 30_000 });
    assert.equal(stop.code, 0, stop.stderr);
    assert.equal(stop.stdout, 'PostgreSQL is not running: nothing to stop\n');
    assert.equal(stop.stderr, '', 'no progress of a stop that does not happen');
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
});
