#!/usr/bin/env bash
# `make bench-serve`: serving figures for the README. Figures, not assertions.
#
# 1. Requests per second and latency percentiles with wrk on loopback (bounded runs: 2
#    threads, 32 connections, BENCH_SECONDS each, default 5) for the front page and an
#    entry page, served by `marsgen serve` (live updates on, as people run it) and by
#    Debian's nginx from the same public/ in the same run.
# 2. Save-to-DOM latency: a file written → the open page's DOM updated, measured in
#    headless Chromium over 20 edits, on the demo site and on a generated site of
#    BENCH_ENTRIES entries (default 10,000).
set -euo pipefail
cd "$(dirname "$0")/.."
marsgen=$PWD/.build/release/marsgen
seconds=${BENCH_SECONDS:-5}
entries=${BENCH_ENTRIES:-10000}
work=${BENCH_DIR:-$([ -d /dev/shm ] && echo /dev/shm/marsgen-bench || echo .build/bench)}/serve
rm -rf "$work"; mkdir -p "$work"
site=$work/demo
mkdir -p "$site"; cp -R marsgen.yml content templates static "$site"/
"$marsgen" build --quiet --source "$site"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

marsgen_port=$(free_port)
"$marsgen" serve --quiet --source "$site" --port "$marsgen_port" >"$work/serve.log" 2>&1 &
serve_pid=$!
nginx_port=$(free_port)
mkdir -p "$work/nginx"
cat >"$work/nginx/nginx.conf" <<CONF
worker_processes 2;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  sendfile on;
  server {
    listen 127.0.0.1:$nginx_port;
    root $site/public;
    index index.html;
  }
}
CONF
nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" &
nginx_pid=$!
trap 'kill $serve_pid $nginx_pid 2>/dev/null || true; wait 2>/dev/null || true' EXIT
sleep 2

entry=/journal/sol-07-bags/
measure() { # server label, port, path
  local out; out=$(wrk -t2 -c32 -d"${seconds}s" --latency "http://127.0.0.1:$2$3")
  local rps; rps=$(awk '/Requests\/sec/{printf "%.0f", $2}' <<<"$out")
  local p50 p90 p99
  p50=$(awk '$1=="50%"{print $2}' <<<"$out"); p90=$(awk '$1=="90%"{print $2}' <<<"$out"); p99=$(awk '$1=="99%"{print $2}' <<<"$out")
  printf '| %s | %s | %s | %s | %s | %s |\n' "$1" "$3" "$rps" "$p50" "$p90" "$p99"
}

echo
echo "Static serving on loopback: wrk -t2 -c32 -d${seconds}s ($(nproc) cores)"
echo "| server | page | requests/s | p50 | p90 | p99 |"
echo "| --- | --- | ---: | ---: | ---: | ---: |"
for path in / "$entry"; do
  measure "marsgen serve" "$marsgen_port" "$path"
  measure "nginx $(nginx -v 2>&1 | sed 's|.*/||')" "$nginx_port" "$path"
done
kill $serve_pid $nginx_pid 2>/dev/null || true
wait 2>/dev/null || true
trap - EXIT

echo
echo "Save to DOM (file written → open page updated), 20 edits each"
echo "| site | median | p90 | max |"
echo "| --- | ---: | ---: | ---: |"
.build/test-venv/bin/python bench/save_to_dom.py "$marsgen" "$site" "demo (31 entries, 47 messages)"
big=$work/generated
.build/release/SiteGenerator "$big" --entries "$entries" --messages 0 >/dev/null
"$marsgen" build --quiet --source "$big"
.build/test-venv/bin/python bench/save_to_dom.py "$marsgen" "$big" "generated ($entries entries)"
