#!/usr/bin/env bash
# The query shootout across databases: the queries suite on each database named, one after the other, each
# collection loaded afresh (--reimport, so every load is timed), then one `bench report --suite queries` of them
# all: the published table per database, the load time of each size per database, and the normalised comparison.
#
#   benchmarks/queries.sh "<db> [<db> ...]" [bench run flags]
#   benchmarks/queries.sh "memory sqlite duckdb" --size 1M --runs 3
#   benchmarks/queries.sh "postgresql postgresql_tabular mysql neo4j orientdb" --size 1M --runs 1 --stall-timeout 1800
#
# The server databases must be running (`npx bench server start postgresql,mariadb,neo4j,orientdb`). The bench run
# flags default to `--size 10k,100k,1M`. Result files go to $OUT/<db>/ (OUT: default bench-results/queries); the
# report also to $OUT/report.txt. A database whose run fails is named at the end; the others are reported.
set -uo pipefail

if [ "$#" -lt 1 ]; then
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
read -r -a databases <<< "$1"
shift
if [ "$#" -gt 0 ]; then flags=("$@"); else flags=(--size 10k,100k,1M); fi
out=${OUT:-bench-results/queries}
root=$(cd "$(dirname "$0")/.." && pwd)
bench() { node "$root/bin/bench.js" "$@"; }

failed=()
for db in "${databases[@]}"; do
  echo "== $db" >&2
  bench run --suite queries --db "$db" --reimport "${flags[@]}" --out "$out/$db" || failed+=("$db")
done
dirs=()
for db in "${databases[@]}"; do [ -d "$out/$db" ] && dirs+=("$out/$db"); done
[ "${#dirs[@]}" -gt 0 ] && bench report "${dirs[@]}" --suite queries | tee "$out/report.txt"
if [ "${#failed[@]}" -gt 0 ]; then
  echo "not every database passed: ${failed[*]}" >&2
  exit 1
fi
