# Shared by the benchmarks: ports, waiting for a server, and an nginx configured for a fair race
# (sendfile on, access_log off, one worker per core, keep-alive). Source it after `cd` to the root.

export PATH="$PATH:/opt/swift/usr/bin:/usr/sbin"

# Builds the release binary (a no-op when it is up to date) so a benchmark never measures stale code.
ensure_release_binary() {
    swift build -c release --product photoscroll >&2
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

# Waits up to 10 s for something to listen on 127.0.0.1:PORT.
wait_for() {
    for _ in $(seq 1 100); do
        if python3 -c "import socket; socket.create_connection(('127.0.0.1',$1),0.2)" 2>/dev/null; then return 0; fi
        sleep 0.1
    done
    echo "server on port $1 did not start" >&2
    exit 1
}

# start_nginx DIR ROOT PORT TYPES [EXTRA_HTTP_DIRECTIVES] [ACCESS_LOG]: nginx as the current user from
# prefix DIR, serving ROOT on 127.0.0.1:PORT with one worker per core. ACCESS_LOG is `off` (the
# default) or `on`: nginx's own default, the combined format to DIR/logs/access.log, one write per
# request. Sets NGINX_PID and adds it to NGINX_PIDS.
start_nginx() {
    local dir="$1" root="$2" port="$3" types="$4" extra="${5:-}" log="${6:-off}"
    local access_log="access_log off;"
    [ "$log" = on ] && access_log="access_log $dir/logs/access.log combined;"
    local user_line=""
    [ "$(id -u)" -eq 0 ] && user_line="user $(id -un) $(id -gn);"
    mkdir -p "$dir/logs"
    cat > "$dir/nginx.conf" <<CONF
$user_line
worker_processes $(nproc);
pid $dir/nginx.pid;
error_log $dir/logs/error.log warn;
events { worker_connections 4096; }
http {
    $access_log
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_timeout 65;
    keepalive_requests 1000000;
    default_type application/octet-stream;
    types { $types }
    $extra
    client_body_temp_path $dir/body;
    proxy_temp_path $dir/proxy;
    fastcgi_temp_path $dir/fastcgi;
    uwsgi_temp_path $dir/uwsgi;
    scgi_temp_path $dir/scgi;
    server {
        listen 127.0.0.1:$port reuseport;
        root $root;
        etag on;
    }
}
CONF
    nginx -p "$dir" -c "$dir/nginx.conf" -g 'daemon off;' 2>"$dir/stderr" &
    NGINX_PID=$!
    NGINX_PIDS="$NGINX_PIDS $NGINX_PID"
    wait_for "$port"
}

# require_tools NAME TOOL…: exits with a message naming the first missing tool.
require_tools() {
    local name="$1"; shift
    for tool in "$@"; do
        command -v "$tool" >/dev/null || { echo "$name needs $tool (make bench installs it)" >&2; exit 1; }
    done
}

# require_binary: builds the default release binary, or checks that BIN= names one.
require_binary() {
    [ "$BIN" != .build/release/photoscroll ] || ensure_release_binary
    [ -x "$BIN" ] || { echo "no server binary at $BIN" >&2; exit 1; }
}

# make_workdir: a temporary folder in WORK, removed on exit after stopping OURS_PID, every server
# in OURS_PIDS and every nginx in NGINX_PIDS.
make_workdir() {
    WORK="$(mktemp -d)"
    chmod 755 "$WORK"
    OURS_PID=""
    OURS_PIDS=""
    NGINX_PID=""
    NGINX_PIDS=""
    trap cleanup_workdir EXIT
}

cleanup_workdir() {
    local pid
    for pid in $OURS_PID $OURS_PIDS $NGINX_PIDS; do
        kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
    done
    rm -rf "$WORK"
}

# CPU time (user + system, in clock ticks) used so far by the given processes: each one's own
# count, which keeps the time of its threads that have ended (a sum over the threads still there
# would lose what a finished render thread used).
cpu_ticks() {
    local total=0 pid
    for pid in "$@"; do
        total=$((total + $(awk '{print $14 + $15}' /proc/"$pid"/stat 2>/dev/null || echo 0)))
    done
    echo "$total"
}

# measure_wrk "PID…" WRK_ARGUMENT…: runs wrk and prints "requests/s CPU-µs-per-request" for the
# server whose processes are listed (space-separated) in the first argument.
measure_wrk() {
    local pids="$1" before after
    shift
    # shellcheck disable=SC2086
    before="$(cpu_ticks $pids)"
    wrk "$@" > "$WORK/wrk.out"
    # shellcheck disable=SC2086
    after="$(cpu_ticks $pids)"
    awk -v ticks="$((after - before))" -v hz="$(getconf CLK_TCK)" '
        /requests in/ { requests = $1 }
        /Requests\/sec/ { rps = $2 }
        END { printf "%s %.1f\n", rps, ticks * 1000000 / hz / requests }' "$WORK/wrk.out"
}

# Median of the numbers on standard input, one per line.
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# report_medians TITLE [OURS_FILE NGINX_FILE]: the title, then the median requests/s and CPU per
# request of the rounds in the two files (default $WORK/ours.txt and $WORK/nginx.txt, one
# measure_wrk line each), and their ratios.
report_medians() {
    local ours_file="${2:-$WORK/ours.txt}" nginx_file="${3:-$WORK/nginx.txt}"
    local ours_rps nginx_rps ours_cpu nginx_cpu
    ours_rps="$(cut -d' ' -f1 "$ours_file" | median)"
    nginx_rps="$(cut -d' ' -f1 "$nginx_file" | median)"
    ours_cpu="$(cut -d' ' -f2 "$ours_file" | median)"
    nginx_cpu="$(cut -d' ' -f2 "$nginx_file" | median)"
    echo "$1"
    printf 'ours   %12.0f requests/s  %6.1f CPU-us/request\n' "$ours_rps" "$ours_cpu"
    printf 'nginx  %12.0f requests/s  %6.1f CPU-us/request\n' "$nginx_rps" "$nginx_cpu"
    awk -v a="$ours_rps" -v b="$nginx_rps" -v c="$ours_cpu" -v d="$nginx_cpu" \
        'BEGIN { printf "ratio ours/nginx = %.2f (throughput), %.2f (CPU per request, nginx/ours)\n", a / b, d / c }'
}

# report_log_cost DEFAULT_FILE OFF_FILE: our default configuration against our own request-log-off
# figure, from the medians of two measure_wrk files.
report_log_cost() {
    local on_rps off_rps on_cpu off_cpu
    on_rps="$(cut -d' ' -f1 "$1" | median)"; off_rps="$(cut -d' ' -f1 "$2" | median)"
    on_cpu="$(cut -d' ' -f2 "$1" | median)"; off_cpu="$(cut -d' ' -f2 "$2" | median)"
    awk -v a="$on_rps" -v b="$off_rps" -v c="$on_cpu" -v d="$off_cpu" \
        'BEGIN { printf "ours default / ours request log off = %.2f (throughput), %.2f (CPU per request, off/default)\n", a / b, d / c }'
}

# race NAME PIDS URL_OR_SCRIPT_ARGS…: one measured wrk round against a server, appended to $WORK/NAME.txt.
race() {
    local name="$1" pids="$2"
    shift 2
    measure_wrk "$pids" -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" "$@" >> "$WORK/$name.txt"
}

# start_floor BODY_FILE CONTENT_TYPE: builds bench/lib/floor.c (the least a server can do per
# request: one recv and one sendmsg of fixed bytes, nothing parsed or logged) and starts it on a
# free port with one thread per core, answering every request with BODY_FILE. Sets FLOOR_PORT
# and FLOOR_PID, and adds the server to OURS_PIDS so that it is stopped on exit.
start_floor() {
    cc -O2 -pthread -o "$WORK/floor" bench/lib/floor.c
    FLOOR_PORT="$(free_port)"
    "$WORK/floor" "$FLOOR_PORT" "$1" "$2" &
    FLOOR_PID=$!
    OURS_PIDS="$OURS_PIDS $FLOOR_PID"
    wait_for "$FLOOR_PORT"
}

# report_floor SERVER_NAME SERVER_FILE NGINX_FILE FLOOR_FILE: the floor's median figures, and the
# server's and nginx's throughput as a share of it: how much of the machine's limit each reaches,
# and so how far a ratio between the two could still go.
report_floor() {
    local floor_rps floor_cpu ours_rps nginx_rps
    floor_rps="$(cut -d' ' -f1 "$4" | median)"; floor_cpu="$(cut -d' ' -f2 "$4" | median)"
    ours_rps="$(cut -d' ' -f1 "$2" | median)"; nginx_rps="$(cut -d' ' -f1 "$3" | median)"
    echo "the floor (bench/lib/floor.c: the same number of threads, one recv and one sendmsg of fixed bytes per request, nothing parsed or logged)"
    printf 'floor  %12.0f requests/s  %6.1f CPU-us/request\n' "$floor_rps" "$floor_cpu"
    awk -v a="$ours_rps" -v b="$nginx_rps" -v f="$floor_rps" -v name="$1" \
        'BEGIN { printf "%s / floor = %.2f, nginx log off / floor = %.2f (throughput): no server could be above %.2f x nginx here\n", name, a / f, b / f, f / b }'
}

# report_round_ratios OURS_FILE NGINX_FILE: ours over nginx in each round (the rounds alternate,
# so each pair met the same moment of the machine), lowest to highest: the spread a median hides.
report_round_ratios() {
    paste -d' ' "$1" "$2" | awk '{ printf "%.2f\n", $1 / $3 }' | sort -n | paste -sd' ' | sed 's/^/  throughput ratio by round, lowest to highest: /'
}
