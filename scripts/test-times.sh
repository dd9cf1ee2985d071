#!/usr/bin/env bash
# Prints the stages `make test` ran with scripts/timed.sh: when each started (seconds after the
# first), its wall time, its CPU time (user + system) as `time` counts it (the processes waited
# for) and as the kernel counted it for the stage's cgroup (every process; "-" where none could be
# made), and the totals. Wall is what a person waits; the second CPU column, summed, over the
# machine's cores, is the least any arrangement of the stages could take here.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d build/test-times ] || { echo "no stage times recorded (build/test-times)"; exit 0; }
shopt -s nullglob
records=(build/test-times/*)
[ ${#records[@]} -gt 0 ] || { echo "no stage times recorded"; exit 0; }
cat "${records[@]}" | sort -k6,6n -k1,1 | awk -v end="$(date +%s)" '
    NR == 1 { first = $6 }
    { name[NR] = $1; wall[NR] = $2; cpu[NR] = $3 + $4; status[NR] = $5; at[NR] = $6 - first
      all[NR] = (NF >= 7 && $7 != "-") ? sprintf("%.1fs", $7) : "-"
      if (all[NR] != "-") total_all += $7; else missing = 1
      total_cpu += $3 + $4; n = NR }
    END {
        printf "\n%-18s %8s %9s %9s %9s  %s\n", "stage", "start", "wall", "CPU", "CPU, all", "result"
        for (i = 1; i <= n; i++)
            printf "%-18s %7ds %8.1fs %8.1fs %9s  %s\n", name[i], at[i], wall[i], cpu[i], all[i], status[i] == 0 ? "ok" : "FAILED (" status[i] ")"
        printf "%-18s %8s %8ds %8.1fs %9s\n", "make test", "", end - first, total_cpu, missing ? "-" : sprintf("%.1fs", total_all)
    }'
