# Shared by benchmarks that run replicas: a private PostgreSQL cluster with its default
# durability (fsync, synchronous_commit on), photoscroll servers started on free ports, and
# nginx in front of them configured from deploy/nginx.conf with loopback addresses.
# Source after bench/lib/common.sh and make_workdir.

# start_postgres DIR: initdb and pg_ctl start on a free loopback port, as the postgres user when
# run as root (the server refuses root). Sets PG_URL (database `photoscroll`) and PG_DIR.
start_postgres() {
    PG_DIR="$1"
    local bin
    bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
    [ -x "$bin/initdb" ] || { echo "PostgreSQL is not installed (make bench installs it)" >&2; return 1; }
    PG_BIN="$bin"
    mkdir -p "$PG_DIR"
    local as=()
    if [ "$(id -u)" -eq 0 ]; then chown postgres "$PG_DIR"; as=(runuser -u postgres --); fi
    PG_AS=("${as[@]}")
    "${as[@]}" "$bin/initdb" -D "$PG_DIR/data" -U postgres -A trust -E UTF8 --locale=C >"$PG_DIR/initdb.log" 2>&1
    PG_PORT=$(free_port)
    "${as[@]}" "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w \
        -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c max_connections=100" start >/dev/null
    "$bin/psql" -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -c "CREATE DATABASE photoscroll" postgres
    PG_URL="postgres://postgres@127.0.0.1:$PG_PORT/photoscroll?sslmode=disable"
}

stop_postgres() {
    [ -n "${PG_DIR:-}" ] && [ -f "$PG_DIR/data/postmaster.pid" ] && "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1
    return 0
}

# start_server NAME ENV… -- ARG…: `photoscroll serve --port 0 ARG…` from the repository root
# (so the shipped config.json applies) with the given environment; its log goes to
# $WORK/NAME.log. Sets SERVER_PORT and adds the process to OURS_PIDS.
start_server() {
    local name="$1"; shift
    local env=()
    while [ "$1" != -- ]; do env+=("$1"); shift; done
    shift
    env "${env[@]}" "$BIN" serve --port 0 "$@" >"$WORK/$name.out" 2>"$WORK/$name.log" &
    local pid=$!
    OURS_PIDS="$OURS_PIDS $pid"
    for _ in $(seq 1 300); do
        grep -q '^listening on ' "$WORK/$name.out" 2>/dev/null && break
        kill -0 "$pid" 2>/dev/null || { tail -n 20 "$WORK/$name.log" >&2; exit 1; }
        sleep 0.05
    done
    SERVER_PORT=$(head -n1 "$WORK/$name.out" | sed 's/.*://')
    [ -n "$SERVER_PORT" ] || { echo "$name did not start" >&2; exit 1; }
}

# start_balancer DIR PORT UPSTREAM_PORT…: nginx with deploy/nginx.conf's server block, its
# replica servers replaced by the given loopback ports (one or more) and listening on PORT.
start_balancer() {
    local dir="$1" port="$2"; shift 2
    mkdir -p "$dir/logs"
    local servers="" p
    for p in "$@"; do servers="$servers        server 127.0.0.1:$p max_fails=2 fail_timeout=5s;\n"; done
    local block
    block=$(awk -v servers="$servers" -v port="$port" '
        /^[[:space:]]*server replica-/ { if (!done) { printf "%s", servers; done = 1 } next }
        /^[[:space:]]*listen 8080;/ { print "    listen 127.0.0.1:" port ";"; next }
        { print }' deploy/nginx.conf)
    local user_line=""
    [ "$(id -u)" -eq 0 ] && user_line="user $(id -un) $(id -gn);"
    cat >"$dir/nginx.conf" <<CONF
$user_line
worker_processes $(nproc);
pid $dir/nginx.pid;
error_log $dir/logs/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $dir/body;
    proxy_temp_path $dir/proxy;
    fastcgi_temp_path $dir/fastcgi;
    uwsgi_temp_path $dir/uwsgi;
    scgi_temp_path $dir/scgi;
$block
}
CONF
    nginx -p "$dir" -c "$dir/nginx.conf" -g 'daemon off;' 2>"$dir/stderr" &
    NGINX_PIDS="$NGINX_PIDS $!"
    wait_for "$port"
}

# wait_for_photo BASE: the id of the first photo BASE lists, once it lists one. Sets PHOTO.
wait_for_photo() {
    PHOTO=""
    for _ in $(seq 1 200); do
        PHOTO=$(curl -fsS "$1/photos" 2>/dev/null | grep -o '"id":[0-9]*' | head -n1 | cut -d: -f2 || true)
        [ -n "$PHOTO" ] && return 0
        sleep 0.1
    done
    echo "no photo appeared in $1/photos" >&2
    exit 1
}
