#!/usr/bin/env bash
# Runs one stage of `make test` and records what it took: wall seconds and the CPU seconds
# (user + system) of the stage and everything it started, which a busy machine does not
# inflate the way it inflates wall time. `scripts/test-times.sh` prints the records.
#
# Usage: scripts/timed.sh NAME COMMAND [ARG…]
# The command's output goes to build/test-logs/NAME.log and, when STAGE_OUTPUT=all, to the
# terminal as well; when the stage fails, its last STAGE_FAILURE_LINES (400) lines are printed,
# each marked with the stage's name. The exit status is the command's.
set -uo pipefail
name="$1"
shift
cd "$(dirname "$0")/.."
mkdir -p build/test-times build/test-logs
log="build/test-logs/$name.log"
echo "[$(date +%H:%M:%S)] $name: started"
TIMEFORMAT='%R %U %S'
start=$(date +%s)
if [ "${STAGE_OUTPUT:-}" = all ]; then
    { time "$@" > >(tee "$log") 2>&1 ; } 2> "build/test-times/$name.raw"
else
    { time "$@" > "$log" 2>&1 ; } 2> "build/test-times/$name.raw"
fi
status=$?
read -r wall user sys < <(tail -n 1 "build/test-times/$name.raw")
echo "$name $wall $user $sys $status $start" > "build/test-times/$name"
rm -f "build/test-times/$name.raw"
if [ "$status" -ne 0 ]; then
    echo "[$(date +%H:%M:%S)] $name: FAILED (exit $status) after ${wall}s; the end of $log:"
    tail -n "${STAGE_FAILURE_LINES:-400}" "$log" | sed "s/^/    [$name] /"
else
    echo "[$(date +%H:%M:%S)] $name: done in ${wall}s (CPU ${user}s user, ${sys}s system)"
fi
exit "$status"
