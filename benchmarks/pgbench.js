// PostgreSQL's own C client as a contender: pgbench running one prepared SELECT of a document by a uniformly
// random key, its clients on 2 threads, for a number of seconds.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const PG_BIN_ROOT = '/usr/lib/postgresql';
const THREADS = 2;

// The newest installed PostgreSQL's pgbench, else the one on PATH.
function pgbenchPath() {
  if (!existsSync(PG_BIN_ROOT)) return 'pgbench';
  const versions = readdirSync(PG_BIN_ROOT).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(a) - Number(b));
  return versions.length > 0 ? path.join(PG_BIN_ROOT, versions.at(-1), 'bin', 'pgbench') : 'pgbench';
}

// `SELECT doc FROM <table> WHERE _key = '<keyPrefix>' || :id` with `\set id random(1, keys)`, on the server of
// the postgresql adapter's `options`, `concurrency` clients for `seconds`. `run()` resolves with pgbench's tps
// (without the initial connection time); `remove()` deletes the script's scratch directory.
export function pgbench({ options, concurrency, seconds, table, keyPrefix, keys }) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-pgbench-'));
  const script = path.join(scratch, 'select.sql');
  writeFileSync(script, [
    `\\set id random(1, ${keys})`,
    `SELECT doc FROM ${table} WHERE _key = '${keyPrefix}' || :id;`,
    '',
  ].join('\n'));
  const bin = pgbenchPath();
  const { password } = options;
  return {
    async run() {
      const { stdout } = await promisify(execFile)(bin, [
        '-h', options.host, '-p', String(options.port), '-U', options.user, '-n', '-M', 'prepared',
        '-c', String(concurrency), '-j', String(THREADS), '-T', String(seconds), '-f', script, options.database,
      ], { env: { ...process.env, ...(password === undefined ? {} : { PGPASSWORD: password }) } });
      const tps = stdout.match(/tps = ([\d.]+) \(without initial connection time\)/);
      if (!tps) throw new Error(`no tps in pgbench's output:\n${stdout}`);
      return Number(tps[1]);
    },
    remove() {
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
