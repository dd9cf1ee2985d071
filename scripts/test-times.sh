#!/usr/bin/env bash
# Prints the stages `make test` ran with scripts/timed.sh: when each started (seconds after the
# first), its wall time and its CPU time (user + system, children included), and the totals.
# Wall is what a person waits on this machine; CPU does not grow when others load the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d build/test-times ] || { echo "no stage times recorded (build/test-times)"; exit 0; }
shopt -s nullglob
records=(build/test-times/*)
[ ${#records[@]} -gt 0 ] || { echo "no stage times recorded"; exit 0; }
cat "${records[@]}" | sort -k6,6n -k1,1 | awk -v end="$(date +%s)" '
    NR == 1 { first = $6 }
    { name[NR] = $1; wall[NR] = $2; cpu[NR] = $3 + $4; status[NR] = $5; at[NR] = $6 - first
      total_cpu += $3 + $4; n = NR }
    END {
        printf "\n%-18s %8s %9s %9s  %s\n", "stage", "start", "wall", "CPU", "result"
        for (i = 1; i <= n; i++)
            printf "%-18s %7ds %8.1fs %8.1fs  %s\n", name[i], at[i], wall[i], cpu[i], status[i] == 0 ? "ok" : "FAILED (" status[i] ")"
        printf "%-18s %8s %8ds %8.1fs\n", "make test", "", end - first, total_cpu
    }'
