#!/usr/bin/env bash
# `imgcache serve` under load, with wrk: warm against thumbor and nginx, cold against thumbor and
# `imgcache prefetch`.
#
#   Benchmarks/serve.sh [--runs N] [--seconds S] [--connections "16 64"] [--urls N] [--count N]
#                       [--threads N] [--cold-limit S] [--only warm|cold] [--no-build]
#
# (a) warm: each request is for a 510x510 centre crop (`rs:fill:510:510`) that the server has
#     made and stored before the run. wrk asks for --urls (200) distinct images in turn, for
#     --seconds (20) at each connection count, from `imgcache serve`, from thumbor with its file
#     result storage, and from nginx serving the same variant files from disk (the ceiling):
#     requests/s, p50 and p99 latency, and the server's peak RSS during the run.
# (b) cold: each request is for a different 1200x800 JPEG (--count, 1,000) from a local nginx
#     origin, into an empty cache, until every image has been asked for once: `imgcache serve`
#     and thumbor (result storage empty) at each connection count, against `imgcache prefetch`
#     of the same images (images/s).
#
# Every server is started for its run alone, on 127.0.0.1, and stopped after it. A warm run first
# asks once for every image untimed (warm-up), then its peak RSS is reset (/proc/PID/clear_refs)
# and wrk runs. N rounds (3) in which every run of a section takes its turn (the order moves one
# place each round, reversed every other round); medians of the rounds. Every run is checked: no
# socket error, every response a 200 (wrk; for imgcache serve, its /metrics as well), and for
# cold runs every image fetched once from the origin and stored. Prints a markdown report on
# stdout (progress on stderr): machine, load average, versions, the figures, and the issue's
# targets with whether each is met (reported, not enforced).
#
# thumbor (PyPI, $THUMBOR_VERSION, default 7.8.0) is installed on first use into a virtual
# environment in $IMGCACHE_BENCH_DIR/thumbor-venv (python3 -m venv + pip), kept for later runs.
# Environment: IMGCACHE (default .build/release/imgcache, built unless --no-build),
# IMGCACHE_BENCH_DIR (image set and venv; default ${TMPDIR:-/tmp}/imgcache-bench), NGINX (default
# /usr/sbin/nginx), PYTHON (with Pillow; default python3), WRK (default wrk), THUMBOR_VERSION.
# Everything else goes to a temporary folder under TMPDIR, removed at exit; every server is
# stopped however the script ends. Exit status: 0 done; 2 bad usage or a missing tool; 3 a server
# did not start, or a run failed its checks (its output is shown).
set -euo pipefail
export LC_ALL=C
# shellcheck source=Benchmarks/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

usage() { sed -n '2,35s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

runs=3
seconds=20
connections_list="16 64"
urls=200
count=1000
threads=2
cold_limit=600
only=""
build=1
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=${2:?--runs needs a number}; shift ;;
    --runs=*) runs=${1#*=} ;;
    --seconds) seconds=${2:?--seconds needs a number}; shift ;;
    --seconds=*) seconds=${1#*=} ;;
    --connections) connections_list=${2:?--connections needs a list}; shift ;;
    --connections=*) connections_list=${1#*=} ;;
    --urls) urls=${2:?--urls needs a number}; shift ;;
    --urls=*) urls=${1#*=} ;;
    --count) count=${2:?--count needs a number}; shift ;;
    --count=*) count=${1#*=} ;;
    --threads) threads=${2:?--threads needs a number}; shift ;;
    --threads=*) threads=${1#*=} ;;
    --cold-limit) cold_limit=${2:?--cold-limit needs a number}; shift ;;
    --cold-limit=*) cold_limit=${1#*=} ;;
    --only) only=${2:?--only needs warm or cold}; shift ;;
    --only=*) only=${1#*=} ;;
    --no-build) build=0 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "$bench_name: unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
whole() { [[ $1 =~ ^[1-9][0-9]*$ ]]; }
whole "$runs" || die 2 "--runs wants a positive whole number"
whole "$seconds" || die 2 "--seconds wants a positive whole number"
whole "$urls" || die 2 "--urls wants a positive whole number"
whole "$count" || die 2 "--count wants a positive whole number"
whole "$threads" || die 2 "--threads wants a positive whole number"
whole "$cold_limit" || die 2 "--cold-limit wants a positive whole number"
[ "$count" -le 10000 ] || die 2 "--count is at most 10000"
connections_list=${connections_list//,/ }
read -ra conns <<<"$connections_list"
[ "${#conns[@]}" -gt 0 ] || die 2 "--connections wants one or more numbers"
for c in "${conns[@]}"; do
  whole "$c" || die 2 "--connections wants whole numbers, not '$c'"
  [ "$c" -ge "$threads" ] || die 2 "--connections $c is fewer than --threads $threads (wrk needs one a thread)"
  [ "$c" -le 1000 ] || die 2 "--connections is at most 1000"
done
case $only in
  "") sections=(warm cold) ;;
  warm | cold) sections=("$only") ;;
  *) die 2 "--only wants warm or cold, not '$only'" ;;
esac
selected() { [[ " ${sections[*]} " == *" $1 "* ]]; }
# The image set holds at least 1,000 images; warm runs ask for the first --urls of them.
set_count=$((count > urls ? count : urls))
set_count=$((set_count > 1000 ? set_count : 1000))

cd "$root"
box=510x510
wrk=${WRK:-wrk}
thumbor_version=${THUMBOR_VERSION:-7.8.0}
lua_dir=$root/Benchmarks/serve
need_gnu_time
for tool in "$nginx" "$wrk" "$python" curl; do
  command -v "$tool" >/dev/null || die 2 "$tool is missing (make setup)"
done
"$python" -c 'import PIL' 2>/dev/null || die 2 "$python cannot import PIL (make setup)"
"$python" -c 'import venv, ensurepip' 2>/dev/null || die 2 "$python cannot make a virtual environment (apt-get install python3-venv)"
[ "$(nproc --all)" -ge 2 ] || die 2 "needs at least 2 cores"
build_cli "$build"

# Once `imgcache serve` refuses sources on private addresses by default, the origin on 127.0.0.1
# needs --allow-private-sources (passed when the help lists it; prefetch too).
serve_flags=(--allow-unsigned)
if "$imgcache" serve --help 2>&1 | grep -q -- '--allow-private-sources'; then serve_flags+=(--allow-private-sources); fi
prefetch_flags=()
if "$imgcache" prefetch --help 2>&1 | grep -q -- '--allow-private-sources'; then prefetch_flags+=(--allow-private-sources); fi

make_image_set "$set_count"
name_of() { printf 'img-%04d.jpg' "$1"; }

# thumbor in a virtual environment of its own, kept in the benchmark's folder (made once; made
# again when it does not run or holds another version).
thumbor_venv=$bench_dir/thumbor-venv
install_thumbor() {
  if [ -x "$thumbor_venv/bin/thumbor" ] &&
    [ "$("$thumbor_venv/bin/python" -c 'from importlib.metadata import version; print(version("thumbor"))' 2>/dev/null)" = "$thumbor_version" ]; then
    return
  fi
  echo "$bench_name: installing thumbor $thumbor_version into $thumbor_venv" >&2
  rm -rf "$thumbor_venv" "$thumbor_venv.tmp"
  "$python" -m venv "$thumbor_venv" >&2 || die 2 "$python -m venv failed"
  if ! PIP_ROOT_USER_ACTION=ignore "$thumbor_venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-cache-dir \
    "thumbor==$thumbor_version" >&2; then
    rm -rf "$thumbor_venv"
    die 2 "pip could not install thumbor==$thumbor_version"
  fi
  "$thumbor_venv/bin/thumbor" --version >/dev/null 2>&1 || die 2 "thumbor does not run from $thumbor_venv"
}
install_thumbor

work=$(mktemp -d "${TMPDIR:-/tmp}/imgcache-serve.XXXXXX")
origin_pid="" static_pid="" serve_pid="" thumbor_pid="" wrk_pid=""
origin_port="" static_port="" serve_port="" thumbor_port=""
thumbor_children=()
cleanup() {
  stop wrk_pid
  stop_thumbor
  stop serve_pid
  stop static_pid
  stop origin_pid
  rm -rf "$work"
}
trap cleanup EXIT
ticks=$(getconf CLK_TCK)

# ---------------------------------------------------------------------------------------------
# Servers. Each start_X sets X_pid and X_port, on a free port of 127.0.0.1.

# start_nginx NAME ROOT LOG: nginx in the foreground (one worker, sendfile, keep-alive without a
# request limit) serving ROOT; LOG=on logs '$uri $status' for every request to
# $work/NAME/access.log, LOG=off logs nothing. Sets NAME_pid and NAME_port.
start_nginx() {
  local name=$1 folder=$2 log=$3 prefix=$work/$1 port log_line _
  local -n pid_var=${name}_pid port_var=${name}_port
  mkdir -p "$prefix"
  rm -f "$prefix/nginx.pid"
  port=$(free_port)
  log_line="access_log off;"
  [ "$log" = off ] || log_line="access_log $prefix/access.log served;"
  cat >"$prefix/nginx.conf" <<EOF
daemon off;
master_process off;
worker_processes 1;
pid $prefix/nginx.pid;
error_log $prefix/error.log warn;
events { worker_connections 4096; }
http {
    log_format served '\$uri \$status';
    $log_line
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    client_body_temp_path $prefix/client_body;
    proxy_temp_path $prefix/proxy;
    fastcgi_temp_path $prefix/fastcgi;
    uwsgi_temp_path $prefix/uwsgi;
    scgi_temp_path $prefix/scgi;
    types { image/jpeg jpg; }
    server { listen 127.0.0.1:$port; root $folder; }
}
EOF
  env -u NGINX "$nginx" -p "$prefix" -c "$prefix/nginx.conf" -e "$prefix/error.log" 2>>"$prefix/error.log" &
  pid_var=$!
  port_var=$port
  for _ in $(seq 50); do [ -s "$prefix/nginx.pid" ] && break; kill -0 "$pid_var" 2>/dev/null || break; sleep 0.1; done
  if ! { [ -s "$prefix/nginx.pid" ] && wait_for_port "$port" "$pid_var"; }; then
    tail -n 5 "$prefix/error.log" >&2 || true
    die 3 "nginx ($name) did not start on 127.0.0.1:$port"
  fi
}
origin_lines() { if [ -f "$work/origin/access.log" ]; then wc -l <"$work/origin/access.log"; else echo 0; fi; }

# start_serve CACHE_DIR: `imgcache serve` on the cache folder, its standard error in
# $work/serve.log.
start_serve() {
  serve_port=$(free_port)
  "$imgcache" serve --listen "127.0.0.1:$serve_port" "${serve_flags[@]}" --cache-dir "$1" >"$work/serve.log" 2>&1 &
  serve_pid=$!
  if ! wait_for_port "$serve_port" "$serve_pid"; then
    sed 's/^/  | /' "$work/serve.log" >&2
    die 3 "imgcache serve did not start on 127.0.0.1:$serve_port"
  fi
}

# start_thumbor DIR: thumbor with Benchmarks/serve/thumbor.conf, storage and result storage in
# DIR, one process per core (thumbor --processes: a parent that forks them and waits).
thumbor_processes=$(nproc)
start_thumbor() {
  mkdir -p "$1"
  thumbor_port=$(free_port)
  SERVE_BENCH_THUMBOR_DIR=$1 "$thumbor_venv/bin/thumbor" --ip 127.0.0.1 --port "$thumbor_port" \
    --conf "$lua_dir/thumbor.conf" --log-level error --processes "$thumbor_processes" >"$work/thumbor.log" 2>&1 &
  thumbor_pid=$!
  local _
  if ! wait_for_port "$thumbor_port" "$thumbor_pid"; then
    sed 's/^/  | /' "$work/thumbor.log" >&2
    die 3 "thumbor did not start on 127.0.0.1:$thumbor_port"
  fi
  # The parent binds the port, then forks: wait until every child is there.
  for _ in $(seq 100); do
    mapfile -t thumbor_children < <(pgrep -P "$thumbor_pid" || true)
    [ "${#thumbor_children[@]}" -lt "$thumbor_processes" ] || break
    sleep 0.1
  done
  [ "${#thumbor_children[@]}" -ge "$thumbor_processes" ] || die 3 "thumbor started ${#thumbor_children[@]} of $thumbor_processes processes"
}
# stop_thumbor: the children first (each stops on SIGTERM and exits 0, after which the parent
# exits too and starts none again), then the parent; SIGKILL for any left after 10 s.
stop_thumbor() {
  [ -n "$thumbor_pid" ] || return 0
  local p _
  for p in "${thumbor_children[@]}"; do kill "$p" 2>/dev/null || true; done
  for _ in $(seq 100); do kill -0 "$thumbor_pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$thumbor_pid" 2>/dev/null || true
  wait "$thumbor_pid" 2>/dev/null || true
  for p in "${thumbor_children[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  thumbor_pid="" thumbor_children=()
}

# The processes of the server a run measures, and their figures from /proc.
server_processes() {
  case $1 in
    imgcache) echo "$serve_pid" ;;
    thumbor) echo "$thumbor_pid ${thumbor_children[*]}" ;;
    nginx) echo "$static_pid" ;;
  esac
}
# proc_kib FIELD PID...: the sum of a /proc/PID/status field (VmHWM, VmRSS) in KiB.
proc_kib() {
  local field=$1 p total=0 v
  shift
  for p in "$@"; do
    v=$(awk -v f="$field:" '$1 == f { print $2 }' "/proc/$p/status" 2>/dev/null || true)
    total=$((total + ${v:-0}))
  done
  echo "$total"
}
# cpu_ticks PID...: user + system clock ticks of the processes.
cpu_ticks() {
  local p total=0 v
  for p in "$@"; do
    v=$(awk '{ print $14 + $15 }' "/proc/$p/stat" 2>/dev/null || echo 0)
    total=$((total + v))
  done
  echo "$total"
}
# reset_peak PID...: sets each process's peak RSS (VmHWM) to its current RSS.
peak_reset="VmHWM reset with /proc/PID/clear_refs after the warm-up"
reset_peak() {
  local p
  for p in "$@"; do
    echo 5 >"/proc/$p/clear_refs" 2>/dev/null || peak_reset="VmHWM since the server started (clear_refs could not be written)"
  done
}
# alive_or_fail TOOL: exits 3 when a process of the server has ended.
alive_or_fail() {
  local p
  for p in $(server_processes "$1"); do
    kill -0 "$p" 2>/dev/null && continue
    show_logs
    die 3 "$(label_of "$1") (pid $p) is no longer running"
  done
}
show_logs() {
  local f
  for f in "$work/serve.log" "$work/thumbor.log"; do
    [ -s "$f" ] || continue
    echo "$bench_name: the last lines of $(basename "$f"):" >&2
    tail -n 15 "$f" | sed 's/^/  | /' >&2
  done
}

# metric_200 / metric_other: imgcache serve's 200 responses, and all others, from /metrics.
serve_statuses() {
  curl -sf --max-time 10 "http://127.0.0.1:$serve_port/metrics" |
    awk '/^imgcache_http_responses_total\{/ { if ($1 ~ /code="200"/) ok += $2; else other += $2 } END { printf "%d %d\n", ok, other }'
}

label_of() {
  case $1 in
    imgcache) echo "imgcache serve" ;;
    thumbor) echo "thumbor $thumbor_version" ;;
    nginx) echo "nginx (static files)" ;;
    prefetch) echo "imgcache prefetch" ;;
    *) echo "$1" ;;
  esac
}

# path_of TOOL INDEX: the request path for image INDEX (510x510 centre crop from the origin).
path_of() {
  local name
  name=$(name_of "$2")
  case $1 in
    imgcache) echo "/insecure/rs:fill:510:510/plain/http://127.0.0.1:$origin_port/$name" ;;
    thumbor) echo "/unsafe/510x510/center/middle/127.0.0.1:$origin_port/$name" ;;
    nginx) echo "/$name" ;;
  esac
}
port_of() {
  case $1 in
    imgcache) echo "$serve_port" ;;
    thumbor) echo "$thumbor_port" ;;
    nginx) echo "$static_port" ;;
  esac
}

# fetch_all PORT PATHS OUT: GETs every path (one connection at a time) and writes each body to
# OUT/img-NNNN.jpg (the path's last part); exits 3 unless every answer is a 200 with a $box
# JPEG. Prints "N bytes" (the bodies' total).
fetch_all() {
  mkdir -p "$3"
  "$python" - "$1" "$2" "$3" "$box" <<'EOF' || die 3 "fetching the variants failed"
import http.client, io, os, sys
from PIL import Image
port, paths, out, box = int(sys.argv[1]), sys.argv[2], sys.argv[3], tuple(map(int, sys.argv[4].split("x")))
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
total = 0
for path in open(paths).read().split():
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    if response.status != 200:
        sys.exit(f"{path}: status {response.status}: {body[:200]!r}")
    with Image.open(io.BytesIO(body)) as im:
        if im.format != "JPEG" or im.size != box:
            sys.exit(f"{path}: {im.format} {im.size[0]}x{im.size[1]}, not a {box[0]}x{box[1]} JPEG")
    with open(os.path.join(out, path.rsplit("/", 1)[1]), "wb") as f:
        f.write(body)
    total += len(body)
print(total)
EOF
}

# count_images DIR: "N M FORMATS": N files under DIR (recursively), M of them $box images, by
# format ("1000 JPEG").
count_images() {
  "$python" - "$1" "$box" <<'EOF'
import collections, os, sys
from PIL import Image
folder, box = sys.argv[1], tuple(map(int, sys.argv[2].split("x")))
files = [os.path.join(d, f) for d, _, names in os.walk(folder) for f in names]
formats = collections.Counter()
for name in files:
    try:
        with Image.open(name) as im:
            if im.size == box:
                formats[im.format] += 1
    except Exception:
        pass
print(len(files), sum(formats.values()), ", ".join(f"{v} {k}" for k, v in sorted(formats.items())) or "-")
EOF
}

# run_failed WHAT [FILE...]: shows the files (wrk's output, logs) and exits 3.
run_failed() {
  local what=$1 f
  shift
  echo "$bench_name: $what" >&2
  for f in "$@"; do [ -s "$f" ] && sed 's/^/  | /' "$f" >&2; done
  show_logs
  exit 3
}

# field KEY FILE: the value of KEY=VALUE on the "serve-bench" line of FILE.
field() { grep -m1 '^serve-bench ' "$2" | tr ' ' '\n' | awk -F= -v k="$1" '$1 == k { print $2 }'; }

# walk TOOL PATHS CONNECTIONS OUT: wrk with cold.lua over the paths, each once; waits until every
# path has had its response (or the cold limit has passed), then stops wrk (SIGINT: it reports
# at once). OUT gets wrk's report.
walk() {
  local tool=$1 paths=$2 c=$3 out=$4 done_file=$4.done _
  rm -f "$done_file"
  "$wrk" -t 1 -c "$c" -d "${cold_limit}s" --timeout 120s --latency -s "$lua_dir/cold.lua" \
    "http://127.0.0.1:$(port_of "$tool")" -- "$paths" "$done_file" >"$out" 2>&1 &
  wrk_pid=$!
  while kill -0 "$wrk_pid" 2>/dev/null && [ ! -s "$done_file" ]; do sleep 0.05; done
  kill -INT "$wrk_pid" 2>/dev/null || true
  wait "$wrk_pid" 2>/dev/null || true
  wrk_pid=""
}

# check_wrk OUT EXPECTED_OK WHAT: exits 3 when wrk's report shows socket errors or statuses above
# 399, or, with EXPECTED_OK, when fewer than that many 200s came.
check_wrk() {
  local out=$1 expected=${2:-} what=$3 k v
  grep -q '^serve-bench ' "$out" || run_failed "$what: wrk printed no summary" "$out"
  for k in connect read write timeout status; do
    v=$(field "$k" "$out")
    [ "$v" = 0 ] || run_failed "$what: wrk counted $v $([ "$k" = status ] && echo "responses with status 400 or more" || echo "socket errors ($k)")" "$out"
  done
  if [ -n "$expected" ]; then
    [ "$(field ok "$out")" = "$expected" ] && [ "$(field other "$out")" = 0 ] ||
      run_failed "$what: $(field ok "$out") responses with status 200 and $(field other "$out") others, not $expected 200s" "$out"
  fi
}

# ---------------------------------------------------------------------------------------------
# (a) warm. Setup (once): the first --urls images requested once from imgcache serve (into a
# cache folder kept for the section) and from thumbor (result storage kept); the variants
# imgcache served go to the folder nginx serves.

declare -A rps p50 p99 peak rss_before server_cpu client_cpu requests_n bytes_per
setup_warm() {
  local tool i
  for tool in imgcache thumbor nginx; do
    : >"$work/warm-$tool.paths"
  done
  start_serve "$work/warm/imgcache-cache"
  start_thumbor "$work/warm/thumbor"
  for ((i = 0; i < urls; i++)); do
    for tool in imgcache thumbor nginx; do path_of "$tool" "$i" >>"$work/warm-$tool.paths"; done
  done
  echo "$bench_name: warm: making $urls variants with imgcache serve and with thumbor" >&2
  warm_bytes_imgcache=$(fetch_all "$serve_port" "$work/warm-imgcache.paths" "$work/warm/static")
  warm_bytes_thumbor=$(fetch_all "$thumbor_port" "$work/warm-thumbor.paths" "$work/warm/thumbor-out")
  stop serve_pid
  stop_thumbor
  read -r _ stored _ < <(count_images "$work/warm/thumbor/result_storage")
  [ "$stored" = "$urls" ] || die 3 "thumbor's result storage holds $stored $box images, not $urls"
}
start_warm_server() {
  case $1 in
    imgcache) start_serve "$work/warm/imgcache-cache" ;;
    thumbor) start_thumbor "$work/warm/thumbor" ;;
    nginx) start_nginx static "$work/warm/static" off ;;
  esac
}
stop_warm_server() {
  case $1 in
    imgcache) stop serve_pid ;;
    thumbor) stop_thumbor ;;
    nginx) stop static_pid ;;
  esac
}

# run_warm TOOL@CONNECTIONS: a fresh server; the warm-up (every path once, one connection,
# untimed, all 200s); peak RSS reset; wrk for --seconds; checks; the server stopped.
run_warm() {
  local key=$1 tool=${1%@*} c=${1#*@} dir=$work/run out procs t0 t1 s0=(0 0) s1=(0 0) what
  what="warm $(label_of "$tool") at $c connections"
  rm -rf "$dir"
  mkdir -p "$dir"
  start_warm_server "$tool"
  walk "$tool" "$work/warm-$tool.paths" 1 "$dir/warm-up.txt"
  check_wrk "$dir/warm-up.txt" "$urls" "$what, warm-up"
  read -ra procs <<<"$(server_processes "$tool")"
  [ "$tool" != imgcache ] || read -ra s0 <<<"$(serve_statuses)"
  rss_before[$key]+="$(proc_kib VmRSS "${procs[@]}") "
  reset_peak "${procs[@]}"
  t0=$(cpu_ticks "${procs[@]}")
  out=$dir/wrk.txt
  "$gnu_time" -f '%U %S' -o "$dir/wrk-time.txt" "$wrk" -t "$threads" -c "$c" -d "${seconds}s" --timeout 10s --latency \
    -s "$lua_dir/warm.lua" "http://127.0.0.1:$(port_of "$tool")" -- "$work/warm-$tool.paths" "$threads" >"$out" 2>&1 ||
    run_failed "$what: wrk failed" "$out"
  t1=$(cpu_ticks "${procs[@]}")
  alive_or_fail "$tool"
  peak[$key]+="$(proc_kib VmHWM "${procs[@]}") "
  check_wrk "$out" "" "$what"
  # Every path is asked for equally often, so a response carries about the mean variant (and
  # its headers): fewer bytes would mean answers without the image (a 3xx, which wrk does not
  # count as an error).
  local mean_body=$warm_bytes_imgcache
  [ "$tool" != thumbor ] || mean_body=$warm_bytes_thumbor
  awk -v b="$(field bytes "$out")" -v n="$(field requests "$out")" -v m="$mean_body" -v u="$urls" \
    'BEGIN { exit !(n > 0 && b / n >= 0.95 * m / u) }' ||
    run_failed "$what: $(field bytes "$out") bytes in $(field requests "$out") responses, less than the variants' mean size each" "$out"
  if [ "$tool" = imgcache ]; then
    read -ra s1 <<<"$(serve_statuses)"
    local served=$((s1[0] - s0[0])) others=$((s1[1] - s0[1]))
    [ "$others" = 0 ] || run_failed "$what: /metrics counts $others responses other than 200 during the run" "$out"
    [ "$served" -ge "$(field requests "$out")" ] ||
      run_failed "$what: /metrics counts $served responses with status 200, wrk $(field requests "$out")" "$out"
  fi
  stop_warm_server "$tool"
  rps[$key]+="$(awk -v n="$(field requests "$out")" -v us="$(field duration_us "$out")" 'BEGIN { printf "%.1f", n / (us / 1e6) }') "
  p50[$key]+="$(field p50_us "$out") "
  p99[$key]+="$(field p99_us "$out") "
  requests_n[$key]+="$(field requests "$out") "
  bytes_per[$key]+="$(awk -v b="$(field bytes "$out")" -v n="$(field requests "$out")" 'BEGIN { printf "%.0f", b / n }') "
  server_cpu[$key]+="$(awk -v d="$((t1 - t0))" -v t="$ticks" 'BEGIN { printf "%.2f", d / t }') "
  client_cpu[$key]+="$(awk '{ printf "%.2f", $1 + $2 }' "$dir/wrk-time.txt") "
  rm -rf "$dir"
}

# ---------------------------------------------------------------------------------------------
# (b) cold: every run into an empty cache (or result storage), each of the --count images asked
# for once.

declare -A cold_rate cold_p50 cold_p99 cold_peak cold_cpu cold_wall cold_fetches
setup_cold() {
  local i
  for ((i = 0; i < count; i++)); do
    path_of imgcache "$i" >>"$work/cold-imgcache.paths"
    path_of thumbor "$i" >>"$work/cold-thumbor.paths"
    printf 'http://127.0.0.1:%s/%s\n' "$origin_port" "$(name_of "$i")" >>"$work/cold-prefetch.urls"
  done
}

# check_origin MARK WHAT: exits 3 unless the origin logged, since line MARK, exactly one 200 for
# each of the --count images (N of them for a warm-up over the first N).
check_origin() {
  local mark=$1 n=$2 what=$3 lines distinct ok
  lines=$(tail -n +"$((mark + 1))" "$work/origin/access.log" | wc -l)
  distinct=$(tail -n +"$((mark + 1))" "$work/origin/access.log" | awk '{ print $1 }' | sort -u | wc -l)
  ok=$(tail -n +"$((mark + 1))" "$work/origin/access.log" | awk '$2 == 200' | wc -l)
  [ "$lines" = "$n" ] && [ "$distinct" = "$n" ] && [ "$ok" = "$n" ] ||
    run_failed "$what: the origin logged $lines requests ($distinct distinct images, $ok with 200), not one 200 for each of $n images"
  fetched=$lines
}

# run_cold TOOL@CONNECTIONS [N]: one cold run over the --count images, recorded; with N, an
# unrecorded warm-up run over the first N.
run_cold() {
  local key=$1 tool=${1%@*} c=${1#*@} n=${2:-$count} measured=1 dir=$work/run mark procs t0 t1 what paths
  [ -z "${2:-}" ] || measured=0
  what="cold $(label_of "$tool")$([ "$tool" = prefetch ] || echo " at $c connections")"
  rm -rf "$dir"
  mkdir -p "$dir"
  mark=$(origin_lines)
  if [ "$tool" = prefetch ]; then
    head -n "$n" "$work/cold-prefetch.urls" >"$dir/urls.txt"
    t0=$EPOCHREALTIME
    "$gnu_time" -f '%U %S %M' -o "$dir/time.txt" "$imgcache" prefetch "$dir/urls.txt" --size "$box" --mode crop \
      "${prefetch_flags[@]}" --cache-dir "$dir/cache" >"$dir/stdout" 2>"$dir/stderr" ||
      run_failed "$what failed" "$dir/stdout" "$dir/stderr"
    t1=$EPOCHREALTIME
    grep -q "^prefetched $n of $n: $n from the network" "$dir/stdout" ||
      run_failed "$what: did not fetch all $n images" "$dir/stdout" "$dir/stderr"
  else
    paths=$dir/paths.txt
    head -n "$n" "$work/cold-$tool.paths" >"$paths"
    case $tool in
      imgcache) start_serve "$dir/cache" ;;
      thumbor) start_thumbor "$dir/thumbor" ;;
    esac
    read -ra procs <<<"$(server_processes "$tool")"
    t0=$(cpu_ticks "${procs[@]}")
    walk "$tool" "$paths" "$c" "$dir/wrk.txt"
    t1=$(cpu_ticks "${procs[@]}")
    alive_or_fail "$tool"
    local hwm
    hwm=$(proc_kib VmHWM "${procs[@]}")
    check_wrk "$dir/wrk.txt" "$n" "$what"
    if [ "$tool" = imgcache ]; then
      local s
      read -ra s <<<"$(serve_statuses)"
      [ "${s[0]}" -ge "$n" ] && [ "${s[1]}" = 0 ] ||
        run_failed "$what: /metrics counts ${s[0]} responses with status 200 and ${s[1]} others, not $n 200s" "$dir/wrk.txt"
      stop serve_pid
      local variants
      variants=$("$imgcache" cache stats --json --cache-dir "$dir/cache" |
        "$python" -c 'import json, sys; print(json.load(sys.stdin)["variants"])')
      [ "$variants" = "$n" ] || run_failed "$what: the cache holds $variants variants, not $n"
    else
      stop_thumbor
      local stored
      read -r _ stored _ < <(count_images "$dir/thumbor/result_storage")
      [ "$stored" = "$n" ] || run_failed "$what: the result storage holds $stored $box images, not $n"
    fi
  fi
  check_origin "$mark" "$n" "$what"
  if [ "$measured" = 1 ]; then
    if [ "$tool" = prefetch ]; then
      cold_wall[$key]+="$(seconds_between "$t0" "$t1") "
      cold_rate[$key]+="$(awk -v n="$n" -v w="$(seconds_between "$t0" "$t1")" 'BEGIN { printf "%.1f", n / w }') "
      cold_cpu[$key]+="$(awk '{ printf "%.2f", $1 + $2 }' "$dir/time.txt") "
      cold_peak[$key]+="$(awk '{ print $3 }' "$dir/time.txt") "
    else
      cold_wall[$key]+="$(field span_s "$dir/wrk.txt") "
      cold_rate[$key]+="$(awk -v n="$n" -v s="$(field span_s "$dir/wrk.txt")" 'BEGIN { printf "%.1f", n / s }') "
      cold_p50[$key]+="$(field p50_us "$dir/wrk.txt") "
      cold_p99[$key]+="$(field p99_us "$dir/wrk.txt") "
      cold_peak[$key]+="$hwm "
      cold_cpu[$key]+="$(awk -v d="$((t1 - t0))" -v t="$ticks" 'BEGIN { printf "%.2f", d / t }') "
    fi
    cold_fetches[$key]+="$fetched "
  fi
  rm -rf "$dir"
}

# ---------------------------------------------------------------------------------------------
# Measure.

# rounds RUNNER CONTENDER...: $runs rounds of every contender, taking turns (order moved one
# place each round, reversed every other round).
rounds() {
  local runner=$1 n round k i c
  shift
  n=$#
  local list=("$@")
  for ((round = 1; round <= runs; round++)); do
    for ((k = 0; k < n; k++)); do
      if ((round % 2)); then i=$(((round - 1 + k) % n)); else i=$(((round - 1 + n - 1 - k) % n)); fi
      c=${list[$i]}
      echo "$bench_name: round $round of $runs: $runner $(label_of "${c%@*}")$([ "${c#*@}" = - ] || echo " at ${c#*@} connections")" >&2
      "$runner" "$c"
    done
  done
}

start_nginx origin "$set_dir" on
load_before=$(load_average)
started=$(date -u +%Y-%m-%dT%H:%MZ)
warm_contenders=() cold_contenders=()
for c in "${conns[@]}"; do
  warm_contenders+=("imgcache@$c" "thumbor@$c" "nginx@$c")
  cold_contenders+=("imgcache@$c" "thumbor@$c")
done
cold_contenders+=("prefetch@-")
if selected warm; then
  setup_warm
  warm_load_before=$(load_average)
  rounds run_warm "${warm_contenders[@]}"
  warm_load_after=$(load_average)
fi
if selected cold; then
  setup_cold
  warm_up=$((count < 100 ? count : 100))
  for c in "imgcache@${conns[0]}" "thumbor@${conns[0]}" prefetch@-; do
    echo "$bench_name: cold warm-up: $(label_of "${c%@*}"), $warm_up images" >&2
    run_cold "$c" "$warm_up"
  done
  cold_load_before=$(load_average)
  rounds run_cold "${cold_contenders[@]}"
  cold_load_after=$(load_average)
fi
load_after=$(load_average)
stop origin_pid

# ---------------------------------------------------------------------------------------------
# Report.

med() { local -n values=$1; tr ' ' '\n' <<<"${values[$2]:-}" | median; }
runs_of() { local -n values=$1; tr ' ' '\n' <<<"${values[$2]:-}" | grep . | paste -sd' '; }
ms() { awk -v us="$1" 'BEGIN { printf (us < 10000 ? "%.2f" : "%.1f"), us / 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
verdict() { awk -v v="$1" -v op="$2" -v l="$3" 'BEGIN { ok = (op == ">=" ? v >= l : v <= l); print (ok ? "met" : "**missed**") }'; }

report_warm() {
  local c tool key
  echo "| server | connections | requests/s | runs (requests/s) | p50 (ms) | p99 (ms) | peak RSS (MiB) | RSS after warm-up (MiB) | server CPU (s) | wrk CPU (s) | responses | bytes/response |"
  echo "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  for c in "${conns[@]}"; do
    for tool in imgcache thumbor nginx; do
      key=$tool@$c
      printf '| %s | %s | %.0f | %s | %s | %s | %s | %s | %.2f | %.2f | %.0f | %.0f |\n' "$(label_of "$tool")" "$c" \
        "$(med rps "$key")" "$(runs_of rps "$key")" "$(ms "$(med p50 "$key")")" "$(ms "$(med p99 "$key")")" \
        "$(mib "$(med peak "$key")")" "$(mib "$(med rss_before "$key")")" "$(med server_cpu "$key")" "$(med client_cpu "$key")" \
        "$(med requests_n "$key")" "$(med bytes_per "$key")"
    done
  done
  echo
  echo "imgcache serve's requests/s over the others' (above 1: imgcache serve is faster):"
  echo
  echo "| connections | imgcache / nginx | imgcache / thumbor |"
  echo "|---:|---:|---:|"
  for c in "${conns[@]}"; do
    echo "| $c | $(ratio "$(med rps "imgcache@$c")" "$(med rps "nginx@$c")") | $(ratio "$(med rps "imgcache@$c")" "$(med rps "thumbor@$c")") |"
  done
  echo
  echo "- each run: the server started for it alone; a warm-up (wrk, one connection: each of the $urls paths once, every answer a 200); the server's RSS then (\"RSS after warm-up\"); $peak_reset; then \`wrk -t $threads -c C -d ${seconds}s --timeout 10s --latency -s Benchmarks/serve/warm.lua\` over the same $urls paths, each thread going round the list from its own place; peak RSS = VmHWM at the end of the run (thumbor: the sum over its parent and its $thumbor_processes workers); server CPU = user + system time of its processes during the run (/proc/PID/stat); wrk CPU from GNU time"
  echo "- responses: wrk's complete responses; none with status 400 or more, and no socket error, or the script stops (exit 3); imgcache serve's /metrics counted at least as many 200s and no other status during the run. wrk sends no conditional requests, so there are no 304s"
  echo "- what each run requests: the ${urls} images img-0000.jpg ... $(name_of $((urls - 1))) of the set, 510x510 centre crop, JPEG quality 85:"
  echo "  - imgcache serve: \`$(path_of imgcache 0 | sed "s/$origin_port/ORIGIN_PORT/")\` (automatic format: JPEG quality 85 for these stills), \`--cache-dir\` a cache made before the section by asking once for each URL ($(awk -v b="$warm_bytes_imgcache" -v n="$urls" 'BEGIN { printf "%.1f KB", b / n / 1000 }') a variant)"
  echo "  - thumbor: \`$(path_of thumbor 0 | sed "s/$origin_port/ORIGIN_PORT/")\` (fill to 510x510 and crop the centre; no smart crop) with Benchmarks/serve/thumbor.conf (file storage and file result storage, unsafe URLs stored, QUALITY 85, baseline JPEG), the result storage filled before the section the same way ($(awk -v b="$warm_bytes_thumbor" -v n="$urls" 'BEGIN { printf "%.1f KB", b / n / 1000 }') a result); \`thumbor --processes $thumbor_processes\` (one worker a core)"
  echo "  - nginx: \`/img-0000.jpg\`: the bytes imgcache serve sent for each URL, saved as files in a folder served by nginx $("$nginx" -v 2>&1 | sed 's/^nginx version: nginx\///') (one worker, sendfile, no access log)"
  local p99_16
  echo
  echo "Targets (reported, not enforced):"
  echo
  echo "| target | this run | verdict |"
  echo "|---|---:|---|"
  for c in "${conns[@]}"; do
    local rn rt
    rn=$(ratio "$(med rps "imgcache@$c")" "$(med rps "nginx@$c")")
    rt=$(ratio "$(med rps "imgcache@$c")" "$(med rps "thumbor@$c")")
    echo "| warm requests/s at least 0.5x nginx's static rate, $c connections | ${rn}x | $(verdict "$rn" ">=" 0.5) |"
    echo "| warm requests/s at least 10x thumbor's, $c connections | ${rt}x | $(verdict "$rt" ">=" 10) |"
  done
  if [[ " ${conns[*]} " == *" 16 "* ]]; then
    p99_16=$(ms "$(med p99 imgcache@16)")
    echo "| warm p99 at most 10 ms at 16 connections | $p99_16 ms | $(verdict "$p99_16" "<=" 10) |"
  fi
}

report_cold() {
  local c key tool
  echo "| command | connections | images/s | runs (images/s) | time (s) | p50 (ms) | p99 (ms) | peak RSS (MiB) | CPU (s) | origin fetches |"
  echo "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|"
  for c in "${conns[@]}"; do
    for tool in imgcache thumbor; do
      key=$tool@$c
      printf '| %s | %s | %.1f | %s | %.2f | %s | %s | %s | %.2f | %.0f |\n' "$(label_of "$tool")" "$c" "$(med cold_rate "$key")" \
        "$(runs_of cold_rate "$key")" "$(med cold_wall "$key")" "$(ms "$(med cold_p50 "$key")")" "$(ms "$(med cold_p99 "$key")")" \
        "$(mib "$(med cold_peak "$key")")" "$(med cold_cpu "$key")" "$(med cold_fetches "$key")"
    done
  done
  key=prefetch@-
  printf '| %s | - | %.1f | %s | %.2f | - | - | %s | %.2f | %.0f |\n' "$(label_of prefetch)" "$(med cold_rate "$key")" \
    "$(runs_of cold_rate "$key")" "$(med cold_wall "$key")" "$(mib "$(med cold_peak "$key")")" "$(med cold_cpu "$key")" \
    "$(med cold_fetches "$key")"
  echo
  echo "imgcache serve's images/s over the others' (above 1: imgcache serve is faster):"
  echo
  echo "| connections | imgcache serve / thumbor | imgcache serve / imgcache prefetch |"
  echo "|---:|---:|---:|"
  for c in "${conns[@]}"; do
    echo "| $c | $(ratio "$(med cold_rate "imgcache@$c")" "$(med cold_rate "thumbor@$c")") | $(ratio "$(med cold_rate "imgcache@$c")" "$(med cold_rate prefetch@-)") |"
  done
  echo
  echo "- each run: $count distinct 1200x800 JPEGs (img-0000.jpg ... $(name_of $((count - 1)))) from nginx on 127.0.0.1 (the origin, one worker, sendfile, keep-alive) to a 510x510 centre crop, JPEG quality 85, into an empty cache folder (thumbor: empty storage and result storage), the server started for the run; one warm-up run of each program over the first $warm_up images before the rounds"
  echo "- serve and thumbor: \`wrk -t 1 -c C --timeout 120s --latency -s Benchmarks/serve/cold.lua\` over the $count paths, each sent once, a connection sending the next path when its response has come; the run ends when the last response has come (wrk is then stopped). images/s = $count / the time from the first request to the last response (time); p50 and p99 = wrk's latency distribution; peak RSS = VmHWM of the server's processes at the end (a server started for the run; thumbor: parent and $thumbor_processes workers summed); CPU = their user + system time during the run"
  echo "- prefetch: \`imgcache prefetch urls.txt --size 510x510 --mode crop --cache-dir EMPTY${prefetch_flags[*]:+ ${prefetch_flags[*]}}\` (its default concurrency: 8 downloads, 4 connections to a host, one decode per core), under GNU time; images/s = $count / wall time (process start to exit)"
  echo "- checks, each run: $count responses with status 200 and no other (counted by cold.lua), no socket error; the origin logged exactly one 200 for each of the $count images (origin fetches), so no answer came from a cache; afterwards the cache held $count variants (\`imgcache cache stats\`), thumbor's result storage $count 510x510 JPEGs; prefetch reported $count of $count from the network. imgcache serve's /metrics: $count 200s, no other status"
  local rt rp
  echo
  echo "Targets (reported, not enforced):"
  echo
  echo "| target | this run | verdict |"
  echo "|---|---:|---|"
  for c in "${conns[@]}"; do
    rt=$(ratio "$(med cold_rate "imgcache@$c")" "$(med cold_rate "thumbor@$c")")
    rp=$(ratio "$(med cold_rate "imgcache@$c")" "$(med cold_rate prefetch@-)")
    echo "| cold images/s at least 3x thumbor's, $c connections | ${rt}x | $(verdict "$rt" ">=" 3) |"
    echo "| cold images/s at least 0.9x imgcache prefetch's, $c connections | ${rp}x | $(verdict "$rp" ">=" 0.9) |"
  done
}

report_memory() {
  local top=${conns[-1]} values=() v which
  selected warm && values+=("$(med peak "imgcache@$top")")
  selected cold && values+=("$(med cold_peak "imgcache@$top")")
  v=$(mib "$(printf '%s\n' "${values[@]}" | sort -g | tail -n 1)")
  which="the larger of warm and cold"
  [ "${#values[@]}" = 2 ] || which=${sections[0]}
  echo "| imgcache serve's peak RSS at most 128 MiB at $top connections ($which) | $v MiB | $(verdict "$v" "<=" 128) |"
}

thumbor_python=$thumbor_venv/bin/python
echo "## imgcache serve under load"
echo
echo "- date: $started (UTC)"
echo "- machine: $(machine)"
echo "- load average (1, 5, 15 min): $load_before before, $load_after after$(selected warm && echo "; warm section $warm_load_before to $warm_load_after")$(selected cold && echo "; cold section $cold_load_before to $cold_load_after")"
echo "- imgcache: $(first_line "$imgcache" --version), $imgcache (checkout at commit $(commit)); \`serve ${serve_flags[*]}\`, default limits (1,024 connections, 64 requests in flight, 256 queued)"
echo "- tools: wrk $(dpkg-query -W -f='${Version}' wrk 2>/dev/null || first_line "$wrk" -v | cut -d' ' -f2) (Debian's package: LuaJIT, epoll); thumbor $thumbor_version (PyPI, in $thumbor_venv: Pillow $("$thumbor_python" -c 'import PIL; print(PIL.__version__)'), tornado $("$thumbor_python" -c 'import tornado; print(tornado.version)'), Python $("$thumbor_python" -c 'import platform; print(platform.python_version())'), its http_loader on tornado's own client: pycurl is not installed); $("$nginx" -v 2>&1 | sed 's/^nginx version: //')"
echo "- image set: $set_dir (1200x800 JPEGs, quality 85, about $(du -cb "$set_dir"/img-0000.jpg "$set_dir"/img-0001.jpg | tail -n 1 | awk '{ printf "%.0f", $1 / 2000 }') KB each)"
echo "- method: every server on 127.0.0.1, started for each run and stopped after it; the client (wrk) on the same $(nproc --all) cores, so it takes CPU from the server (its CPU is in the warm table); $runs round$([ "$runs" = 1 ] || echo s) in which every run of a section takes its turn (order moved one place each round, reversed every other round); medians of the rounds"
if selected warm; then
  echo
  echo "### (a) warm: the variant made and stored before the run, $seconds s a run"
  echo
  report_warm
  selected cold || report_memory
fi
if selected cold; then
  echo
  echo "### (b) cold: each request a different 1200x800 JPEG from the origin, into an empty cache"
  echo
  report_cold
  report_memory
fi
