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

. "$(dirname "$0")/across-databases.sh"
across_databases queries 2,12 no '--size 10k,100k,1M' "$@"
