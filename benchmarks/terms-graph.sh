#!/usr/bin/env bash
# The durability term's effect on the graph suite's comparison of MariaDB and PostgreSQL: MySQL/PostgreSQL ops/s
# ratios of the write workloads (Unum's 2021 ratios: upsertEdge 0.67 to 0.85, removeEdge 0.69 to 1.05), each from
# one invocation of both databases, on the servers `bench server start postgresql,mariadb` runs in the cache.
#
#   benchmarks/terms-graph.sh <out dir> [<before revision>] [bench run flags]
#
# Phases, each `bench run --suite graph --db postgresql,mysql` into <out dir>/<phase>:
#   before   the harness at <before revision> (a temporary git worktree), with MariaDB set back to its former
#            default, innodb_flush_log_at_trx_commit=1, and PostgreSQL's writes at synchronous_commit=off: the
#            unequal terms the comparison ran under before (skipped without a revision)
#   after    this harness at its defaults: both databases under the relaxed term, set and read back
#   durable  --durability durable: both databases fsync every commit
# Then the ratios, one line per phase and write workload. For a loaded machine, run it beside a CPU hog on both
# cores:  for i in 1 2; do (while :; do :; done) & done   (and kill them after).
# The server's MariaDB client (`mariadb`) sets the before phase's setting; BENCH_CACHE_DIR chooses the cache.
set -euo pipefail
if [ "$#" -lt 1 ]; then sed -n '5p' "$0" | sed 's/^# //' >&2; exit 2; fi
out=$1
before=${2:-}
shift $(( $# >= 2 ? 2 : 1 ))
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "$out"

if [ -n "$before" ]; then
  tree=$(mktemp -d)
  trap 'git -C "$root" worktree remove --force "$tree" >/dev/null 2>&1 || true' EXIT
  git -C "$root" worktree add --detach --force "$tree" "$before" >/dev/null
  ln -s "$root/node_modules" "$tree/node_modules"
  port=$(node "$root/bin/bench.js" server status mariadb --quiet | sed -n 's/.* on 127\.0\.0\.1:\([0-9]*\) .*/\1/p')
  mariadb -h 127.0.0.1 -P "$port" -u root -e 'SET GLOBAL innodb_flush_log_at_trx_commit = 1'
  echo "== before ($before)" >&2
  (cd "$tree" && node bin/bench.js run --suite graph --db postgresql,mysql --out "$out/before" --quiet "$@" > "$out/before.txt")
fi
echo "== after" >&2
node "$root/bin/bench.js" run --suite graph --db postgresql,mysql --out "$out/after" --quiet "$@" > "$out/after.txt"
echo "== durable" >&2
node "$root/bin/bench.js" run --suite graph --db postgresql,mysql --durability durable --out "$out/durable" --quiet "$@" > "$out/durable.txt"

node --input-type=module - "$out" <<'JS'
import { readdirSync, readFileSync } from 'node:fs';
const dir = process.argv[2];
for (const phase of ['before', 'after', 'durable']) {
  let files;
  try { files = readdirSync(`${dir}/${phase}`); } catch { continue; }
  const rate = {};
  const terms = [];
  for (const file of files) {
    const result = JSON.parse(readFileSync(`${dir}/${phase}/${file}`, 'utf8'));
    terms.push(`${result.db.id} ${result.terms?.durability?.term ?? 'no term recorded'}`);
    for (const name of ['upsertEdge', 'removeEdge', 'upsertEdges', 'removeEdges']) {
      const entry = result.workloads[name];
      if (entry?.summary) (rate[name] ??= {})[result.db.id] = entry.ops / (entry.summary.medianMs / 1000);
    }
  }
  console.log(`${phase}: ${terms.join(', ')}`);
  for (const [name, by] of Object.entries(rate)) {
    console.log(`  ${name.padEnd(12)} mysql ${Math.round(by.mysql)}/s, postgresql ${Math.round(by.postgresql)}/s, mysql/postgresql ${(by.mysql / by.postgresql).toFixed(2)}`);
  }
}
JS
