// Load from many machines (`bench run --shard <i>/<n>`): n processes, anywhere, each run one share of every step's
// operations against the same database. They meet through the database itself: shard 0 alone prepares what a
// round needs (the mixed suite's loaded collection) and then announces, in the namespace's marker, the step and the
// wall-clock instant at which every shard starts it; each shard reports in a small coordination collection when it
// has finished and checked its share, and shard 0 waits for all of them before it tears the round down or announces
// the next step. Shard 0 is the marker's only writer; each shard writes only its own coordination documents.
//
// The split: an operation goes to the shard of its key, FNV-1a (32 bit) of the key's UTF-8 bytes modulo n, so that
// every read and write of one key runs in one shard, on one machine's clock, and each shard checks its own keys
// completely (the mixed suite's check of a read against the writes it overlapped needs every write of the key).
// An input without a key goes to shard (its position modulo n). The same inputs give the same split everywhere.
//
// Clocks: the shards start at one announced wall-clock instant, so they start together only as far as their clocks
// agree (NTP keeps machines of one data centre within a few milliseconds). Each shard records how late it started
// and, where the database can tell (PostgreSQL, MySQL), its clock's offset from the server's.
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { BenchError, ErrorCodes, usageError } from '../core/errors.js';

export const MAX_SHARDS = 1024;
// The suites whose checks are complete for one shard's keys (workloads/mixed: its check takes `params.owns`).
export const SHARDED_SUITES = Object.freeze(['mixed']);
// `--shard index/<n>`: the index from the variable Kubernetes sets in each pod of an Indexed Job.
export const INDEX_VARIABLE = 'JOB_COMPLETION_INDEX';
export const DEFAULT_WAIT_S = 600;
// How far ahead of its announcement a step starts: time for every shard to read the marker (polled this often).
const ANNOUNCE_LEAD_MS = 1000;
const POLL_MS = 100;
// An announcement written longer ago than this is one of an earlier run given the same id: a live one is read within
// a poll, since shard 0 announces nothing new before every shard has reported the step before done.
const STALE_MS = 10_000;
// The largest distance of --start-at from now: a past time means the shards would not start together; a far one
// is more likely a mistake than a plan.
const START_AT_PAST_MS = 5000;
const START_AT_FUTURE_MS = 3_600_000;
// A timer may fire late on a busy machine: the last stretch before a start is spun.
const SPIN_MS = 20;
const CLOCK_READINGS = 5;
// The coordination collection, in the namespace: one document per shard and step.
export const DONE_COLLECTION = 'shard_done';
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

// The wall clock with the monotonic clock's resolution (Date.now() has milliseconds).
export const wallNow = () => performance.timeOrigin + performance.now();

// "2/4" gives { index: 2, count: 4 }; "index/4" takes the index from JOB_COMPLETION_INDEX.
export function parseShard(text, env = process.env) {
  const match = /^(\d+|index)\/(\d+)$/.exec(String(text).trim());
  if (!match) throw usageError(`--shard must be <i>/<n> (shard i of n, counted from 0) or index/<n>, got "${text}"`);
  const count = Number(match[2]);
  if (!Number.isSafeInteger(count) || count < 1 || count > MAX_SHARDS) {
    throw usageError(`--shard ${text}: the number of shards must be from 1 to ${MAX_SHARDS}`);
  }
  let index;
  if (match[1] === 'index') {
    const value = env[INDEX_VARIABLE];
    if (value === undefined || !/^\d+$/.test(value)) {
      throw usageError(`--shard ${text} takes the shard's index from ${INDEX_VARIABLE}, which is ${value === undefined ? 'not set' : `"${value}"`}; `
        + `outside a Kubernetes Indexed Job give it: --shard <i>/${count}`);
    }
    index = Number(value);
  } else {
    index = Number(match[1]);
  }
  if (index >= count) throw usageError(`--shard ${text}: shard ${index} does not exist among ${count} (they count from 0)`);
  return { index, count };
}

// `--start-at`: an ISO time a little in the past at most, an hour ahead at most. Milliseconds since the epoch.
export function parseStartAt(text, now = Date.now()) {
  const at = Date.parse(text);
  if (!/^\d{4}-\d\d-\d\dT/.test(String(text)) || Number.isNaN(at)) {
    throw usageError(`--start-at must be an ISO time such as 2026-01-31T12:00:00Z, got "${text}"`);
  }
  if (at < now - START_AT_PAST_MS) {
    throw usageError(`--start-at ${text} is ${Math.round((now - at) / 1000)} s in the past: the shards could not start together`);
  }
  if (at > now + START_AT_FUTURE_MS) throw usageError(`--start-at ${text} is more than an hour ahead`);
  return at;
}

// What every shard of one run shares: --run-id, else one derived from --start-at and the run's other flags (all
// shards are given the same), so that shards of different runs never take each other's announcements.
export function runIdOf({ runId, startAt, args }) {
  if (runId !== undefined) {
    if (!RUN_ID.test(runId)) throw usageError(`--run-id must be 1 to 63 letters, digits, '.', '_' or '-', got "${runId}"`);
    return runId;
  }
  if (startAt === undefined) {
    throw usageError('--shard needs --run-id <id> or --start-at <ISO time>: the shards of one run must share an id');
  }
  const flags = args.filter((arg, i) => !/^--(shard|run-id)(=|$)/.test(arg) && !/^--(shard|run-id)$/.test(args[i - 1] ?? ''));
  return `run-${createHash('sha256').update(JSON.stringify([startAt, flags])).digest('hex').slice(0, 12)}`;
}

// The shard a `--shard` run may be of: only a suite whose check can be made for one shard's keys.
// `what`: the flag or command that asked for shards, as the user typed it (bench k8s job names its --suite).
export function checkShardedSuite(suiteId, what = '--shard runs') {
  if (!SHARDED_SUITES.includes(suiteId)) {
    throw usageError(`${what} the ${SHARDED_SUITES.join(', ')} suite; the ${suiteId} suite's checks read back what `
      + 'every client wrote, which one shard cannot check alone');
  }
}

// FNV-1a, 32 bit, of the UTF-8 bytes of `text`.
export function fnv1a32(text) {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export const keyShard = (key, count) => fnv1a32(key) % count;

const keyOf = (input) => (input !== null && typeof input === 'object' && typeof input.key === 'string' ? input.key : null);

// The inputs of shard `index` of `count`, in input order, and whether a key is its own (for the check). An
// operation that waits for another (`after`, an index into the whole list) gets the index of that one in the share.
export function shareOf(inputs, { index, count }) {
  const positions = [];
  inputs.forEach((input, i) => {
    const key = keyOf(input);
    if ((key === null ? i % count : keyShard(key, count)) === index) positions.push(i);
  });
  const local = new Map(positions.map((position, i) => [position, i]));
  const share = positions.map((position) => {
    const input = inputs[position];
    if (input === null || typeof input !== 'object') return input;
    const moved = { ...input };
    if (Number.isInteger(input.index)) moved.index = local.get(position);
    if (Number.isInteger(input.after)) {
      if (!local.has(input.after)) throw new Error(`internal: operation ${position} waits for ${input.after}, which another shard runs`);
      moved.after = local.get(input.after);
    }
    return moved;
  });
  return { inputs: share, owns: (key) => keyShard(key, count) === index };
}

// Waits until the wall-clock instant `at` (ms since the epoch): a timer, then a spin for the last milliseconds.
export async function sleepUntil(at) {
  const wait = at - wallNow() - SPIN_MS;
  if (wait > 0) await new Promise((resolve) => { setTimeout(resolve, wait); });
  while (wallNow() < at) {
    // spin
  }
}

// This machine's clock against the database server's, for a server whose driver the harness can ask for the time:
// of a few round trips, the shortest, with the server's time taken to be that of its midpoint. Null elsewhere.
const CLOCK_QUERIES = {
  pg: {
    against: 'the PostgreSQL server (clock_timestamp())',
    async read(options) {
      const { default: pg } = await import('pg');
      const client = new pg.Client({
        host: options.host, port: options.port, user: options.user, password: options.password, database: options.database,
        connectionTimeoutMillis: options.connectTimeoutMs,
      });
      await client.connect();
      return {
        now: async () => Number((await client.query('SELECT extract(epoch FROM clock_timestamp()) * 1000 AS ms')).rows[0].ms),
        close: () => client.end(),
      };
    },
  },
  mysql2: {
    against: 'the MySQL server (NOW(6))',
    async read(options) {
      const { default: mysql } = await import('mysql2/promise');
      const connection = await mysql.createConnection({
        host: options.host, port: options.port, user: options.user, password: options.password, database: options.database,
        connectTimeout: options.connectTimeoutMs,
      });
      return {
        now: async () => Number((await connection.query('SELECT UNIX_TIMESTAMP(NOW(6)) * 1000 AS ms'))[0][0].ms),
        close: () => connection.end(),
      };
    },
  },
};

// `queries`: the readers by driver (the tests give their own).
export async function measureClockOffset(description, options, queries = CLOCK_QUERIES) {
  const query = queries[description.driver];
  if (!query || description.kind !== 'server') return null;
  let reader;
  try {
    reader = await query.read(options);
    let best = null;
    for (let i = 0; i < CLOCK_READINGS; i += 1) {
      const before = wallNow();
      const server = await reader.now();
      const after = wallNow();
      if (!best || after - before < best.roundTripMs) best = { offsetMs: (before + after) / 2 - server, roundTripMs: after - before };
    }
    const round3 = (value) => Math.round(value * 1000) / 1000;
    return { offsetMs: round3(best.offsetMs), roundTripMs: round3(best.roundTripMs), against: query.against };
  } catch (error) {
    return { offsetMs: null, roundTripMs: null, against: query.against, error: error.message };
  } finally {
    await reader?.close().catch(() => {});
  }
}

const describeShard = ({ index, count }) => `shard ${index} of ${count}`;

// An error of the meeting itself (a shard gone, the others' announcement missing): it ends this shard's run, where a
// step's own error only fails the step.
function meetingError(code, message) {
  return Object.assign(new BenchError(code, message), { meeting: true });
}

const doneKey = (step, { index, count }) => `C${step * count + index + 1}`;

// The shards' meeting through the database, on a connection of its own. Steps are numbered from 0 in the order
// every shard runs them (the same plan everywhere). `waitMs` bounds every wait: for an announcement, and for the
// next shard to report a step done.
export function createCoordinator({ adapter, shard, runId, waitMs, log = () => {} }) {
  const name = describeShard(shard);
  const stored = async () => (await adapter.inspectNamespace()).marker ?? {};
  const announce = async (shards) => adapter.writeMarker({
    ...(await stored()), shards: { runId, count: shard.count, writtenMs: wallNow(), ...shards },
  });

  async function poll(what, test) {
    const deadline = performance.now() + waitMs;
    for (;;) {
      const found = await test();
      if (found !== undefined) return found;
      if (performance.now() > deadline) {
        throw meetingError(ErrorCodes.TIMEOUT, `${name} of run ${runId}: ${what} within ${Math.round(waitMs / 1000)} s`);
      }
      await new Promise((resolve) => { setTimeout(resolve, POLL_MS); });
    }
  }

  return {
    // Shard 0, before its load: a fresh coordination collection and no step announced yet.
    async open() {
      await adapter.createTempCollection(DONE_COLLECTION);
      await announce({ step: -1 });
    },
    // Shard 0: step `step` starts at `notBefore` or, when that is too soon for the others to read it, a moment later.
    async start(step, notBefore = 0) {
      const startAt = Math.max(notBefore, wallNow() + ANNOUNCE_LEAD_MS);
      await announce({ step, startAt: new Date(startAt).toISOString(), startAtMs: startAt });
      return startAt;
    },
    // Shard 0, when it stops on an error: the others stop waiting and say why.
    async abandon(message) {
      await announce({ step: null, failed: message }).catch(() => {});
    },
    // Every other shard: the start instant of `step`, once shard 0 has announced it.
    async awaitStart(step) {
      log(`${name}: waiting for shard 0 to announce step ${step + 1} of run ${runId}`);
      return poll(`shard 0 did not announce step ${step + 1} (is it running, against this namespace?)`, async () => {
        const { state, marker } = await adapter.inspectNamespace();
        if (state === 'foreign') throw meetingError(ErrorCodes.NAMESPACE_FOREIGN, `${name}: the namespace is not the harness's`);
        const shards = marker?.shards;
        if (shards?.runId !== runId || !(shards.writtenMs > wallNow() - STALE_MS)) return undefined;
        if (shards.failed) throw meetingError(undefined, `${name}: shard 0 stopped: ${shards.failed}`);
        if (shards.count !== shard.count) throw meetingError(ErrorCodes.USAGE, `${name}: shard 0 runs ${shards.count} shards, this one was given ${shard.count}`);
        return shards.step === step ? shards.startAtMs : undefined;
      });
    },
    // Every shard, its share of `step` run and checked (or failed).
    async done(step) {
      await adapter.insertDocument(DONE_COLLECTION, { _key: doneKey(step, shard), run: runId, step, shard: shard.index }, { durable: false });
    },
    // Shard 0: every shard has reported `step` done; the wait ends when none has reported for `waitMs`.
    async awaitDone(step) {
      let reported = -1;
      let since = performance.now();
      for (;;) {
        const docs = await adapter.readCollection(DONE_COLLECTION);
        const done = new Set(docs.filter((doc) => doc.run === runId && doc.step === step).map((doc) => doc.shard));
        if (done.size >= shard.count) return;
        if (done.size !== reported) {
          reported = done.size;
          since = performance.now();
        } else if (performance.now() - since > waitMs) {
          const missing = Array.from({ length: shard.count }, (_, index) => index).filter((index) => !done.has(index));
          throw meetingError(ErrorCodes.TIMEOUT, `${name} of run ${runId}: ${missing.map((index) => `shard ${index}`).join(', ')} `
            + `of ${shard.count} did not report step ${step + 1} done within ${Math.round(waitMs / 1000)} s (stopped, or killed?)`);
        }
        await new Promise((resolve) => { setTimeout(resolve, POLL_MS); });
      }
    },
    // Shard 0, after the last step.
    async close() {
      await adapter.dropTempCollection(DONE_COLLECTION);
    },
    release: () => adapter.close(),
  };
}

// The shard flags of `bench run` as runBenchmark takes them; null without --shard (and then the others are refused).
export function shardSettings(argv, args, { env = process.env, now = Date.now() } = {}) {
  if (argv.shard === undefined) {
    const stray = ['start-at', 'run-id', 'shard-wait'].find((flag) => argv[flag] !== undefined);
    if (stray) throw usageError(`--${stray} applies to a sharded run; add --shard <i>/<n>`);
    return null;
  }
  const { index, count } = parseShard(argv.shard, env);
  // Every shard would restart the server the others are measuring.
  if (argv['restart-cmd'] !== undefined) throw usageError('--restart-cmd cannot restart a server that other shards use; leave it out with --shard');
  const startAtMs = argv['start-at'] === undefined ? null : parseStartAt(argv['start-at'], now);
  const wait = argv['shard-wait'] ?? DEFAULT_WAIT_S;
  if (!(Number.isFinite(wait) && wait > 0 && wait <= 86_400)) {
    throw usageError(`--shard-wait must be a number of seconds above 0, at most 86,400, got ${argv['shard-wait']}`);
  }
  return {
    index, count, runId: runIdOf({ runId: argv['run-id'], startAt: argv['start-at'], args }), startAtMs, waitMs: Math.round(wait * 1000),
  };
}
