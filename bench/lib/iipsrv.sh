# iipsrv as a benchmark's reference: one FastCGI process per core, nginx in front of them, as
# iipsrv is deployed. Sourced after common.sh; needs WORK, CORES and IIPSRV (the binary).
#
# start_iipsrv QUALITY: serves $WORK/images/ at
#   http://127.0.0.1:$NGINX_PORT/fcgi-bin/iipsrv.fcgi, JPEG at QUALITY. Sets NGINX_PORT and
#   NGINX_PID, and adds the processes to IIP_PIDS and NGINX_PIDS for the caller's clean-up.
start_iipsrv() {
    local quality="$1" upstreams="" port
    for _ in $(seq 1 "$CORES"); do
        port="$(free_port)"
        start_iipsrv_process "$quality" "$port"
        upstreams="$upstreams server 127.0.0.1:$port;"
    done
    start_iipsrv_nginx "$upstreams"
}

# start_iipsrv_process QUALITY PORT: one iipsrv FastCGI process on PORT, serving $WORK/images/;
#   its pid is added to IIP_PIDS and left in IIP_PID.
start_iipsrv_process() {
    env FILESYSTEM_PREFIX="$WORK/images/" JPEG_QUALITY="$1" VERBOSITY=0 LOGFILE=/dev/null MAX_CVT=5000 \
        "$IIPSRV" --bind "127.0.0.1:$2" --backlog 1024 >/dev/null 2>&1 &
    IIP_PID=$!
    IIP_PIDS="$IIP_PIDS $IIP_PID"
    wait_for "$2"
}

# start_iipsrv_nginx UPSTREAMS: nginx in front of the FastCGI servers UPSTREAMS ("server
#   127.0.0.1:PORT;" lines), which may be started later (a cold bench starts one per round).
start_iipsrv_nginx() {
    local upstreams="$1" user_line=""
    NGINX_PORT="$(free_port)"
    mkdir -p "$WORK/nginx/logs"
    [ "$(id -u)" -eq 0 ] && user_line="user $(id -un) $(id -gn);"
    cat > "$WORK/nginx/nginx.conf" <<CONF
$user_line
worker_processes ${CORES:-1};
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/logs/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    keepalive_timeout 65;
    keepalive_requests 1000000;
    client_body_temp_path $WORK/nginx/body;
    proxy_temp_path $WORK/nginx/proxy;
    fastcgi_temp_path $WORK/nginx/fastcgi;
    uwsgi_temp_path $WORK/nginx/uwsgi;
    scgi_temp_path $WORK/nginx/scgi;
    upstream iipsrv { $upstreams }
    server {
        listen 127.0.0.1:$NGINX_PORT;
        location /fcgi-bin/iipsrv.fcgi {
            fastcgi_pass iipsrv;
            fastcgi_param QUERY_STRING \$query_string;
            fastcgi_param REQUEST_METHOD \$request_method;
            fastcgi_param REQUEST_URI \$request_uri;
            fastcgi_param SERVER_NAME \$host;
            fastcgi_param SERVER_PORT \$server_port;
            fastcgi_param HTTP_HOST \$host;
        }
    }
}
CONF
    nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -g 'daemon off;' 2>"$WORK/nginx/stderr" &
    NGINX_PID=$!
    NGINX_PIDS="$NGINX_PIDS $NGINX_PID"
    wait_for "$NGINX_PORT"
}
