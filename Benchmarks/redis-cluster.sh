#!/usr/bin/env bash
# The shared Redis tier on one Redis and on a Redis Cluster: K `imgcache prefetch` instances
# (separate cache folders, like K hosts) fetching the same N URLs at once through one
# redis-server, then through a cluster of 3 masters with a replica each: origin requests
# (nginx's access log), wall time, and the keys each master holds (none over 45% of them).
#
#   Benchmarks/redis-cluster.sh [--urls N] [--instances K] [--delay-ms D] [--no-build]
#
# The set: Samples/media/harbour.jpg fitted into 1024x768 by imgcache, served under N names
# (400) by nginx on 127.0.0.1, behind Benchmarks/delay_proxy.py adding D ms each way (20) as a
# distant origin would. Each instance prefetches every URL to 256x256 into an empty cache folder.
# Every server is fresh, on free ports, with nothing saved (`--save '' --appendonly no`); the
# cluster is made by `redis-cli --cluster create ... --cluster-replicas 1`. Prints a markdown
# table on stdout.
#
# Environment: IMGCACHE (default .build/release/imgcache, built unless --no-build), NGINX
# (/usr/sbin/nginx), REDIS_SERVER (/usr/bin/redis-server), REDIS_CLI (/usr/bin/redis-cli),
# PYTHON (python3). Everything goes to a temporary folder removed at exit; the servers are
# stopped however the script ends.
# Exit status: 0 done; 2 bad usage or a missing tool; 3 a server or an instance failed; 4 a
# master holds over 45% of the cluster's keys.
set -euo pipefail
export LC_ALL=C
# shellcheck source=Benchmarks/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# shellcheck source=Benchmarks/redis_fleet.sh
. "$(dirname "${BASH_SOURCE[0]}")/redis_fleet.sh"

usage() { sed -n '2,21s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

fleet_arguments 400 "$@"

cd "$root"
redis_server=${REDIS_SERVER:-/usr/bin/redis-server}
redis_cli=${REDIS_CLI:-/usr/bin/redis-cli}
for tool in "$nginx" "$redis_server" "$redis_cli" "$python"; do
  command -v "$tool" >/dev/null || die 2 "needs $tool (make setup)"
done
build_cli "$build"

work=$(mktemp -d "${TMPDIR:-/tmp}/imgcache-redis-cluster-bench.XXXXXX")
nginx_pid="" proxy_pid=""
redis_pids=()
stop_redis() {
  local node_pid
  for node_pid in "${redis_pids[@]}"; do stop node_pid; done
  redis_pids=()
}
trap 'stop_redis; stop proxy_pid; stop nginx_pid; rm -rf "$work"' EXIT

fleet_origin

# start_node NAME PORT [OPTIONS...]: a fresh redis-server in the background on PORT.
start_node() {
  local name=$1 port=$2
  shift 2
  mkdir -p "$work/$name"
  "$redis_server" --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work/$name" "$@" \
    >"$work/$name/log" 2>&1 &
  redis_pids+=($!)
  wait_for_port "$port" $! || die 3 "redis-server did not start on 127.0.0.1:$port (see $name/log)"
}

# start_cluster: six cluster nodes made 3 masters and 3 replicas; sets cluster_ports and
# cluster_url (two seeds).
start_cluster() {
  local i port addresses=() state
  cluster_ports=()
  for i in 1 2 3 4 5 6; do
    port=$(free_port)
    start_node "node$i" "$port" --cluster-enabled yes --cluster-config-file "$work/node$i/nodes.conf" \
      --cluster-port "$(free_port)" --cluster-node-timeout 2000 --repl-diskless-sync-delay 0
    cluster_ports+=("$port")
    addresses+=("127.0.0.1:$port")
  done
  "$redis_cli" --cluster create "${addresses[@]}" --cluster-replicas 1 --cluster-yes >"$work/create.log" 2>&1 ||
    die 3 "redis-cli --cluster create failed: $(tail -n 3 "$work/create.log")"
  for _ in $(seq 300); do
    state=$(for port in "${cluster_ports[@]}"; do "$redis_cli" -p "$port" CLUSTER INFO | grep -c 'cluster_state:ok' || true; done)
    [ "$(grep -c 1 <<<"$state")" = 6 ] && break
    sleep 0.1
  done
  [ "$(grep -c 1 <<<"$state")" = 6 ] || die 3 "the cluster did not reach cluster_state:ok within 30 s"
  cluster_url="redis-cluster://${addresses[0]},${addresses[1]}"
}

# masters: the port of each master of the cluster, a line each.
masters() {
  "$redis_cli" -p "${cluster_ports[0]}" CLUSTER NODES | awk '$3 ~ /master/ { split($2, a, /[:@]/); print a[2] }'
}

echo "## Redis tier: $instances instances, $urls URLs, origin +$delay_ms ms each way, one Redis and a 3-master cluster"
echo
echo "$(machine); load average $(load_average) before; commit $(commit); $("$redis_server" --version | cut -d' ' -f3)"
echo
echo "| run | fetches | origin requests | URLs fetched more than once | wall time (s) | keys per master |"
echo "|---|---|---|---|---|---|"
port=$(free_port)
start_node single "$port"
fleet_run "$instances instances, one Redis" "$instances" --redis "redis://127.0.0.1:$port/0"
echo " $("$redis_cli" -p "$port" DBSIZE) |"
stop_redis
start_cluster
fleet_run "$instances instances, Redis Cluster (3 masters, 3 replicas)" "$instances" --redis "$cluster_url"
mapfile -t master_ports < <(masters)
counts=()
for port in "${master_ports[@]}"; do counts+=("$("$redis_cli" -p "$port" DBSIZE)"); done
total=0
for count in "${counts[@]}"; do total=$((total + count)); done
shares=""
over=0
for count in "${counts[@]}"; do
  shares+="${shares:+, }$count ($(awk -v c="$count" -v t="$total" 'BEGIN { printf "%.1f", t ? 100 * c / t : 0 }')%)"
  [ "$((count * 100))" -le "$((total * 45))" ] || over=1
done
echo " $shares |"
echo
echo "load average after: $(load_average)"
[ "$over" = 0 ] || die 4 "a master holds over 45% of the cluster's $total keys"
