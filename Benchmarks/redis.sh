#!/usr/bin/env bash
# The shared Redis tier: K `imgcache prefetch` instances (separate cache folders, like K hosts)
# fetching the same N URLs at once, with and without one Redis between them, against a single
# instance: origin requests (nginx's access log) and wall time.
#
#   Benchmarks/redis.sh [--urls N] [--instances K] [--delay-ms D] [--no-build]
#
# The set: Samples/media/harbour.jpg fitted into 1024x768 by imgcache, served under N names
# (200) by nginx on 127.0.0.1, behind Benchmarks/delay_proxy.py adding D ms each way (20; 0 for
# none) as a distant origin would. Each instance prefetches every URL to 256x256 into an empty
# cache folder. Three runs: one instance without Redis; K (4) instances without Redis; K
# instances sharing a fresh redis-server (`--save '' --appendonly no`, allkeys-lru, 256 MB).
# Prints a markdown table on stdout.
#
# Environment: IMGCACHE (default .build/release/imgcache, built unless --no-build), NGINX
# (/usr/sbin/nginx), REDIS_SERVER (/usr/bin/redis-server), PYTHON (python3). Everything goes to a
# temporary folder removed at exit; the servers are stopped however the script ends.
# Exit status: 0 done; 2 bad usage or a missing tool; 3 a server or an instance failed.
set -euo pipefail
export LC_ALL=C
# shellcheck source=Benchmarks/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# shellcheck source=Benchmarks/redis_fleet.sh
. "$(dirname "${BASH_SOURCE[0]}")/redis_fleet.sh"

usage() { sed -n '2,19s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

fleet_arguments 200 "$@"

cd "$root"
redis_server=${REDIS_SERVER:-/usr/bin/redis-server}
for tool in "$nginx" "$redis_server" "$python"; do
  command -v "$tool" >/dev/null || die 2 "needs $tool (make setup)"
done
build_cli "$build"

work=$(mktemp -d "${TMPDIR:-/tmp}/imgcache-redis-bench.XXXXXX")
nginx_pid="" proxy_pid="" redis_pid=""
trap 'stop redis_pid; stop proxy_pid; stop nginx_pid; rm -rf "$work"' EXIT

fleet_origin

# start_redis: a fresh redis-server on a free port; sets redis_url.
start_redis() {
  local port
  port=$(free_port)
  mkdir -p "$work/redis"
  "$redis_server" --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work/redis" \
    --maxmemory 256mb --maxmemory-policy allkeys-lru >"$work/redis/log" 2>&1 &
  redis_pid=$!
  wait_for_port "$port" || die 3 "redis-server did not start on 127.0.0.1:$port"
  redis_url="redis://127.0.0.1:$port/0"
}

# run LABEL COUNT [--redis URL]: COUNT instances at once; prints a table row.
run() {
  fleet_run "$@"
  echo
}

echo "## Redis tier: $instances instances against 1, $urls URLs, origin +$delay_ms ms each way"
echo
echo "$(machine); load average $(load_average) before; commit $(commit); $("$redis_server" --version | cut -d' ' -f3)"
echo
echo "| run | fetches | origin requests | URLs fetched more than once | wall time (s) |"
echo "|---|---|---|---|---|"
run "1 instance, no Redis" 1
run "$instances instances, no Redis" "$instances"
start_redis
run "$instances instances, one Redis" "$instances" --redis "$redis_url"
echo
echo "load average after: $(load_average)"
