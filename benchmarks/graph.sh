#!/usr/bin/env bash
# The graph operations across databases: the graph suite on each database named, one after the other, each edge
# collection loaded afresh (--reimport, so every load is timed against the floor), then one `bench report --suite
# graph` of them all: requests per second per workload as the publication tabulated them with its gains, the import
# against the parse floor, bytes read and written per request, size on disk (the HTML page charts them).
#
#   benchmarks/graph.sh "<db> [<db> ...]" [bench run flags]
#   benchmarks/graph.sh "sqlite duckdb postgresql mysql neo4j orientdb" --scale medium --runs 3
#   benchmarks/graph.sh "sqlite postgresql mysql" --dataset cit-patents --runs 3
#
# The server databases must be running (`npx bench server start postgresql,mariadb,neo4j,orientdb`). The bench run
# flags default to `--scale small --runs 3`. Result files go to $OUT/<db>/ (OUT: default bench-results/graph); the
# report to $OUT/report.txt and $OUT/report.html. A database whose run fails is named at the end; the others are
# reported.
set -uo pipefail

if [ "$#" -lt 1 ]; then
  sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
read -r -a databases <<< "$1"
shift
if [ "$#" -gt 0 ]; then flags=("$@"); else flags=(--scale small --runs 3); fi
out=${OUT:-bench-results/graph}
root=$(cd "$(dirname "$0")/.." && pwd)
bench() { node "$root/bin/bench.js" "$@"; }

failed=()
for db in "${databases[@]}"; do
  echo "== $db" >&2
  bench run --suite graph --db "$db" --reimport "${flags[@]}" --out "$out/$db" || failed+=("$db")
done
dirs=()
for db in "${databases[@]}"; do [ -d "$out/$db" ] && dirs+=("$out/$db"); done
if [ "${#dirs[@]}" -gt 0 ]; then
  bench report "${dirs[@]}" --suite graph | tee "$out/report.txt"
  bench report "${dirs[@]}" --suite graph --format html --out "$out/report.html"
fi
if [ "${#failed[@]}" -gt 0 ]; then
  echo "not every database passed: ${failed[*]}" >&2
  exit 1
fi
