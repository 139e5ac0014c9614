#!/usr/bin/env bash
# Version against version: one suite against two releases of Neo4j or OrientDB, one after the other on this
# machine, then `bench compare` of the two result sets, printed at the end.
#
#   benchmarks/versions.sh <neo4j|orientdb> <release-a> <release-b> [bench run flags]
#   benchmarks/versions.sh neo4j 5.26.30 2025.10.1                       # the queries suite, --size 10k
#   benchmarks/versions.sh orientdb 3.2.8 3.2.25 --suite social --scale small --runs 3
#
# For each release: `bench server install` (from Maven Central, once), `start` on a port of its own, `bench run`,
# `stop`. The servers live in a cache of their own (BENCH_VERSIONS_CACHE, default $TMPDIR/db-shootout-versions),
# so a server of the same family in the default cache, on its default port, is left alone. The bench run flags
# default to `--suite queries --size 10k`. Result files go to $OUT/<family>-<release>/ (OUT: default
# bench-results/versions); the comparison also to $OUT/<family>-<a>-vs-<b>.txt.
set -euo pipefail

if [ "$#" -lt 3 ]; then
  sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
family=$1 a=$2 b=$3
shift 3
case "$family" in
  neo4j) port=${PORT:-57700} ;;
  orientdb) port=${PORT:-52500} ;;
  *) echo "error: versions.sh compares releases of neo4j or orientdb, not \"$family\"" >&2; exit 2 ;;
esac
if [ "$#" -gt 0 ]; then flags=("$@"); else flags=(--suite queries --size 10k); fi
cache=${BENCH_VERSIONS_CACHE:-${TMPDIR:-/tmp}/db-shootout-versions}
out=${OUT:-bench-results/versions}
root=$(cd "$(dirname "$0")/.." && pwd)
bench() { node "$root/bin/bench.js" "$@"; }

# Stopping a server this script did not start would take it from whoever uses it.
if bench server status "$family" --cache-dir "$cache" >/dev/null; then
  echo "error: a $family server already runs in $cache; stop it (npx bench server stop $family --cache-dir $cache) or set BENCH_VERSIONS_CACHE" >&2
  exit 2
fi
started=
failed=0
stop_started() { if [ -n "$started" ]; then bench server stop "$family" --cache-dir "$cache" --quiet || true; fi; }
trap stop_started EXIT
trap 'exit 130' INT TERM

for release in "$a" "$b"; do
  echo "== $family $release" >&2
  bench server install "$family" --version "$release" --cache-dir "$cache"
  bench server start "$family" --version "$release" --cache-dir "$cache" --port "$port" --quiet
  started=1
  rm -rf "$out/$family-$release"
  # A workload that fails validation (exit 1) still leaves a result to compare; the script ends with 1 then.
  code=0
  bench run --db "$family" --cache-dir "$cache" --out "$out/$family-$release" "${flags[@]}" || code=$?
  if [ "$code" -gt 1 ]; then exit "$code"; fi
  if [ "$code" -eq 1 ]; then failed=1; fi
  bench server stop "$family" --cache-dir "$cache" --quiet
  started=
done

echo "== $family $a against $b" >&2
bench compare "$out/$family-$a" "$out/$family-$b" | tee "$out/$family-$a-vs-$b.txt"
exit "$failed"
