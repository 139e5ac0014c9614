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

. "$(dirname "$0")/across-databases.sh"
across_databases graph 2,14 yes '--scale small --runs 3' "$@"
