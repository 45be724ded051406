# The fleet that redis.sh and redis-cluster.sh measure: K `imgcache prefetch` instances with
# separate cache folders (like K hosts) fetching the same N URLs at once from nginx on 127.0.0.1,
# behind Benchmarks/delay_proxy.py as a distant origin. Sourced after common.sh, not run.
# shellcheck shell=bash disable=SC2034  # the variables are for the scripts that source this file

# fleet_arguments DEFAULT_URLS ARGUMENTS...: parses [--urls N] [--instances K] [--delay-ms D]
# [--no-build] into urls (DEFAULT_URLS), instances (4), delay_ms (20) and build (1); -h prints the
# caller's `usage`. Exits 2 on a bad argument.
fleet_arguments() {
  urls=$1
  shift
  instances=4
  delay_ms=20
  build=1
  while [ $# -gt 0 ]; do
    case $1 in
      --urls) urls=${2:?--urls needs a number}; shift ;;
      --instances) instances=${2:?--instances needs a number}; shift ;;
      --delay-ms) delay_ms=${2:?--delay-ms needs a number}; shift ;;
      --no-build) build=0 ;;
      -h | --help) usage; exit 0 ;;
      *) echo "$bench_name: unknown argument: $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
  done
  [[ $urls =~ ^[1-9][0-9]*$ && $instances =~ ^[1-9][0-9]*$ && $delay_ms =~ ^[0-9]+$ ]] ||
    die 2 "--urls and --instances want positive whole numbers, --delay-ms a whole number"
}

# fleet_origin: in $work, Samples/media/harbour.jpg fitted into 1024x768 served under $urls names
# by nginx (nginx_pid), behind the delay proxy (proxy_pid) unless delay_ms is 0, listed in
# $work/urls.txt. Exits 3 when the proxy does not start.
fleet_origin() {
  mkdir -p "$work/www"
  "$imgcache" decode Samples/media/harbour.jpg --size 1024x768 -o "$work/source.jpg" >/dev/null
  for i in $(seq "$urls"); do ln "$work/source.jpg" "$work/www/p$i.jpg"; done
  serve_folder "$work/www" "$work/nginx"
  local origin_port=$nginx_port
  if [ "$delay_ms" -gt 0 ]; then
    "$python" Benchmarks/delay_proxy.py "$nginx_port" --delay-ms "$delay_ms" --port-file "$work/proxy.port" 2>"$work/proxy.log" &
    proxy_pid=$!
    for _ in $(seq 50); do [ -s "$work/proxy.port" ] && break; sleep 0.1; done
    [ -s "$work/proxy.port" ] || die 3 "the delay proxy did not start"
    origin_port=$(cat "$work/proxy.port")
  fi
  for i in $(seq "$urls"); do echo "http://127.0.0.1:$origin_port/p$i.jpg"; done >"$work/urls.txt"
}

# fleet_run LABEL COUNT [OPTIONS...]: COUNT instances at once, each prefetching every URL to
# 256x256 into an empty cache folder with OPTIONS; prints the cells of a table row (label,
# fetches, origin requests, URLs fetched more than once, wall time) without ending the line.
# Exits 3 when an instance fails.
fleet_run() {
  local label=$1 count=$2 start end i failed=0
  shift 2
  : >"$work/nginx/access.log"
  rm -rf "$work/caches"
  start=$EPOCHREALTIME
  local pids=()
  for i in $(seq "$count"); do
    "$imgcache" prefetch "$work/urls.txt" --size 256x256 --cache-dir "$work/caches/$i" "$@" \
      >"$work/out.$i" 2>"$work/err.$i" &
    pids+=($!)
  done
  for i in "${pids[@]}"; do wait "$i" || failed=$((failed + 1)); done
  end=$EPOCHREALTIME
  [ "$failed" = 0 ] || { cat "$work"/err.* >&2; die 3 "$failed instance(s) of '$label' failed"; }
  local requests repeated
  requests=$(wc -l <"$work/nginx/access.log")
  repeated=$(cut -d' ' -f1 "$work/nginx/access.log" | sort | uniq -d | wc -l)
  printf '| %s | %d | %d | %d | %s |' "$label" "$((count * urls))" "$requests" "$repeated" \
    "$(seconds_between "$start" "$end")"
}
