#!/usr/bin/env bash
# Runs one stage of `make test` and records what it took: wall seconds, and the CPU seconds
# (user + system) of the stage and everything it started. `scripts/test-times.sh` prints the
# records.
#
# Two CPU figures: bash's `time`, which counts only the processes that were waited for (a
# browser's helper processes are not: their parents end first), and the kernel's count for a
# cgroup of the stage's own, which misses nothing. The cgroup is made where this shell may make
# one (root, with cgroup v1's cpuacct or cgroup v2); elsewhere that figure is "-". CPU seconds
# grow too when the machine is busy, less than wall time: the image's release build takes about
# 150 s of CPU alone on two cores and 200 s inside `make test`.
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
# A cgroup that counts the CPU of this shell and everything it starts; its folder, or nothing.
# Only one that counts and does not schedule: a cgroup of the cpu controller would also share the
# processors between the stages differently from a plain `make test`.
accounting_cgroup() {
    local dir="" own
    if [ -f /sys/fs/cgroup/cpuacct/cpuacct.usage ]; then
        own=$(awk -F: '$2 == "cpuacct" {print $3}' /proc/self/cgroup)  # not "cpu,cpuacct"
        [ -n "$own" ] || return 0
        dir="/sys/fs/cgroup/cpuacct${own%/}/photoscroll-test-$name-$$"
        mkdir "$dir" 2>/dev/null && echo $$ 2>/dev/null > "$dir/tasks" && { echo "$dir"; return; }
    elif [ -f /sys/fs/cgroup/cgroup.controllers ]; then
        own="/sys/fs/cgroup$(awk -F: '$1 == "0" {print $3}' /proc/self/cgroup)"
        own="${own%/}"
        ! grep -qw cpu "$own/cgroup.subtree_control" 2>/dev/null || return 0
        dir="$own/photoscroll-test-$name-$$"
        mkdir "$dir" 2>/dev/null && echo $$ 2>/dev/null > "$dir/cgroup.procs" && { echo "$dir"; return; }
    fi
    [ -n "$dir" ] && rmdir "$dir" 2>/dev/null
    return 0
}

# The CPU seconds counted in cgroup $1.
cgroup_seconds() {
    if [ -f "$1/cpuacct.usage" ]; then
        awk '{printf "%.1f", $1 / 1e9}' "$1/cpuacct.usage"
    else
        awk '$1 == "usage_usec" {printf "%.1f", $2 / 1e6}' "$1/cpu.stat"
    fi
}

# Moves this shell back out of cgroup $1 and removes it (not while a process the stage started
# lives on). Run in this shell itself, not in a subshell, which would still be in it.
leave_cgroup() {
    local parent
    parent=$(dirname "$1")
    if [ -f "$1/cpuacct.usage" ]; then echo $$ 2>/dev/null > "$parent/tasks"; else echo $$ 2>/dev/null > "$parent/cgroup.procs"; fi
    rmdir "$1" 2>/dev/null
    return 0
}

TIMEFORMAT='%R %U %S'
cgroup=$(accounting_cgroup)
start=$(date +%s)
if [ "${STAGE_OUTPUT:-}" = all ]; then
    { time "$@" > >(tee "$log") 2>&1 ; } 2> "build/test-times/$name.raw"
else
    { time "$@" > "$log" 2>&1 ; } 2> "build/test-times/$name.raw"
fi
status=$?
read -r wall user sys < <(tail -n 1 "build/test-times/$name.raw")
all=-
if [ -n "$cgroup" ]; then
    all=$(cgroup_seconds "$cgroup")
    leave_cgroup "$cgroup"
fi
echo "$name $wall $user $sys $status $start ${all:--}" > "build/test-times/$name"
rm -f "build/test-times/$name.raw"
if [ "$status" -ne 0 ]; then
    echo "[$(date +%H:%M:%S)] $name: FAILED (exit $status) after ${wall}s; the end of $log:"
    tail -n "${STAGE_FAILURE_LINES:-400}" "$log" | sed "s/^/    [$name] /"
else
    echo "[$(date +%H:%M:%S)] $name: done in ${wall}s (CPU ${user}s user, ${sys}s system; ${all:--}s in all)"
fi
exit "$status"
