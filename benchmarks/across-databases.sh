# Sourced by benchmarks/graph.sh and benchmarks/queries.sh: one suite on each database named, one after the other,
# each collection loaded afresh (--reimport, so every load is timed), then one `bench report` of them all.
#
#   across_databases <suite> <usage lines> <html: yes|no> <default flags> "<db> [<db> ...]" [bench run flags]
#
# <usage lines>: the lines of the calling script's header printed when it is called without databases; <default
# flags>: the bench run flags, as one word, used when none are given. Result files go to $OUT/<db>/ (OUT: default
# bench-results/<suite>); the report to $OUT/report.txt, and with html yes to $OUT/report.html too. A database
# whose run fails is named at the end, and the status is 1; the others are reported.
across_databases() {
  local suite=$1 usage=$2 html=$3 defaults=$4
  shift 4
  if [ "$#" -lt 1 ]; then
    sed -n "${usage}p" "$0" | sed 's/^# \{0,1\}//' >&2
    return 2
  fi
  local databases flags
  read -r -a databases <<< "$1"
  shift
  if [ "$#" -gt 0 ]; then flags=("$@"); else read -r -a flags <<< "$defaults"; fi
  local out=${OUT:-bench-results/$suite}
  local root
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

  local db failed=() dirs=()
  for db in "${databases[@]}"; do
    echo "== $db" >&2
    node "$root/bin/bench.js" run --suite "$suite" --db "$db" --reimport "${flags[@]}" --out "$out/$db" || failed+=("$db")
  done
  for db in "${databases[@]}"; do [ -d "$out/$db" ] && dirs+=("$out/$db"); done
  if [ "${#dirs[@]}" -gt 0 ]; then
    node "$root/bin/bench.js" report "${dirs[@]}" --suite "$suite" | tee "$out/report.txt"
    if [ "$html" = yes ]; then
      node "$root/bin/bench.js" report "${dirs[@]}" --suite "$suite" --format html --out "$out/report.html"
    fi
  fi
  if [ "${#failed[@]}" -gt 0 ]; then
    echo "not every database passed: ${failed[*]}" >&2
    return 1
  fi
}
