#!/usr/bin/env bash
# Throughput of `imgcache prefetch`: against vipsthumbnail and Pillow, and over TLS with latency.
#
#   Benchmarks/throughput.sh [--runs N] [--count COUNT] [--only a|b|c] [--no-build]
#
# (a) COUNT (1,000) distinct 1200x800 JPEGs to the small widget of an iPhone 16 Pro Max (510x510
#     px, centre crop): `imgcache prefetch` from a local nginx on 127.0.0.1 into an empty cache,
#     against vipsthumbnail and Pillow, each in one process over the same files on disk; each tool
#     pinned to one core (taskset -c 0) and to two (taskset -c 0,1).
# (b) the same prefetch on two cores over HTTPS (a self-signed certificate made for the run, HTTP/2
#     offered) through Benchmarks/delay_proxy.py, which adds 20 ms each way.
# (c) one 12 MP JPEG (the corpus's 4000x3000 photo) to every phone widget size (every iPhone in the
#     catalogue x small, medium and large that it has) through the pipeline and a new disk cache: in
#     one call, which decodes once per DCT scale, against the same requests one at a time. Timed
#     inside imgcache-bench (its scenarios jpeg-4000x3000-every-phone-widget-*), one process a run,
#     each process's own measured run (after its warm-up) taken as the run's time.
#
# One warm-up run of each program, then N rounds (3) in which every command runs once, taking
# turns (the order moves one place each round, reversed every other round); medians of the rounds.
# Every run must leave COUNT 510x510 outputs, or the script stops. Prints a markdown report on
# stdout (progress on stderr): the machine, tool versions, load average before and after, the
# figures, and the issue's targets with whether each is met (reported, not enforced).
#
# Environment: IMGCACHE (default .build/release/imgcache, built unless --no-build), IMGCACHE_BENCH
# (default .build/release/imgcache-bench, for (c); built unless --no-build),
# IMGCACHE_BENCH_DIR (the image set; default ${TMPDIR:-/tmp}/imgcache-bench), NGINX (default
# /usr/sbin/nginx), PYTHON (with Pillow; default python3). Everything else goes to a temporary
# folder under TMPDIR, removed at exit; nginx and the proxy are stopped however the script ends.
# Exit status: 0 done; 2 bad usage or a missing tool; 3 a server did not start or a run failed.
set -euo pipefail
export LC_ALL=C
# shellcheck source=Benchmarks/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

usage() { sed -n '2,25s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

runs=3
count=1000
build=1
only=""
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=${2:?--runs needs a number}; shift ;;
    --runs=*) runs=${1#*=} ;;
    --count) count=${2:?--count needs a number}; shift ;;
    --count=*) count=${1#*=} ;;
    --only) only=${2:?--only needs a section: a, b or c}; shift ;;
    --only=*) only=${1#*=} ;;
    --no-build) build=0 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "$bench_name: unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || die 2 "--runs wants a positive whole number"
[[ $count =~ ^[1-9][0-9]*$ ]] || die 2 "--count wants a positive whole number"
[ "$count" -le 10000 ] || die 2 "--count is at most 10000"

# The sections, in report order. Each section X has setup_X (servers, files), contenders_X (the
# commands it measures, as TOOL@CPUS), report_X (its part of the report) and a title.
all_sections=(a b c)
declare -A section_title=(
  [a]="(a) prefetch from a local nginx, against vipsthumbnail and Pillow, on one core and on two"
  [b]="(b) the same prefetch over HTTPS with 20 ms each way, two cores"
  [c]="(c) one 12 MP JPEG to every phone widget size, in one call against one at a time, two cores"
)
case $only in
  "") sections=("${all_sections[@]}") ;;
  a | b | c) sections=("$only") ;;
  *) die 2 "--only wants a, b or c, not '$only'" ;;
esac
selected() { [[ " ${sections[*]} " == *" $1 "* ]]; }

cd "$root"
box=510x510
target=(--device "iPhone 16 Pro Max" --widget small)
pillow_peer=$root/Benchmarks/peers/pillow_fill_batch.py
proxy_script=$root/Benchmarks/delay_proxy.py
delay_ms=20

imgcache_bench=${IMGCACHE_BENCH:-$root/.build/release/imgcache-bench}
need_gnu_time
for tool in "$nginx" taskset "$python"; do
  command -v "$tool" >/dev/null || die 2 "$tool is missing (make setup)"
done
if selected a; then command -v vipsthumbnail >/dev/null || die 2 "vipsthumbnail is missing (make setup)"; fi
if selected b; then
  command -v openssl >/dev/null || die 2 "openssl is missing (make setup)"
  command -v unshare >/dev/null || die 2 "unshare is missing (util-linux)"
fi
"$python" -c 'import PIL' 2>/dev/null || die 2 "$python cannot import PIL (make setup)"
[ "$(nproc --all)" -ge 2 ] || die 2 "needs at least 2 cores"
build_cli "$build"
if selected c; then
  if [ "$build" = 1 ]; then (cd "$root" && swift build -c release --product imgcache-bench) >&2; fi
  [ -x "$imgcache_bench" ] || die 2 "$imgcache_bench is missing; build it or set IMGCACHE_BENCH"
fi

make_image_set "$count"
files=()
for ((i = 0; i < count; i++)); do files+=("$set_dir/$(printf 'img-%04d.jpg' "$i")"); done

work=$(mktemp -d "${TMPDIR:-/tmp}/imgcache-throughput.XXXXXX")
nginx_pid="" proxy_pid=""
trap 'stop proxy_pid; stop nginx_pid; rm -rf "$work"' EXIT
ticks=$(getconf CLK_TCK)
cpu_seconds() { awk -v t="$ticks" '{ printf "%.2f", ($14 + $15) / t }' "/proc/$1/stat"; }

# nginx in the foreground, one worker, everything under $work/nginx: the set over HTTP on one free
# port and, for (b), over HTTPS on another. Its access log gives each request's connection serial
# number, so the connections of one run can be counted.
tls_listen=""
start_nginx() {
  http_port=$(free_port)
  https_port=$(free_port)
  mkdir -p "$work/nginx"
  local attempt
  # `listen ... ssl http2` up to nginx 1.25.0 (Debian 12 has 1.22), `http2 on;` from 1.25.1.
  for attempt in "ssl http2|" "ssl|http2 on;" "ssl|"; do
    write_nginx_conf "$attempt"
    if ! selected b || env -u NGINX "$nginx" -t -q -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" 2>/dev/null; then
      tls_listen=$attempt
      break
    fi
  done
  [ -n "$tls_listen" ] || { env -u NGINX "$nginx" -t -p "$work/nginx" -c "$work/nginx/nginx.conf" >&2 || true; die 3 "nginx refuses the TLS server"; }
  env -u NGINX "$nginx" -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" &
  nginx_pid=$!
  if ! wait_for_port "$http_port"; then
    cat "$work/nginx/error.log" 2>/dev/null >&2 || true
    die 3 "nginx did not start on 127.0.0.1:$http_port"
  fi
}
write_nginx_conf() {
  local tls_server=""
  if selected b; then
    tls_server="server {
        listen 127.0.0.1:$https_port ${1%|*};
        ${1#*|}
        ssl_certificate $work/tls/cert.pem;
        ssl_certificate_key $work/tls/key.pem;
        ssl_protocols TLSv1.2 TLSv1.3;
        root $set_dir;
    }"
  fi
  cat >"$work/nginx/nginx.conf" <<EOF
daemon off;
master_process off;
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 1024; }
http {
    log_format bench '\$server_port \$connection \$connection_requests \$server_protocol \$status';
    access_log $work/nginx/access.log bench;
    sendfile on;
    keepalive_requests 100000;
    client_body_temp_path $work/nginx/client_body;
    proxy_temp_path $work/nginx/proxy;
    fastcgi_temp_path $work/nginx/fastcgi;
    uwsgi_temp_path $work/nginx/uwsgi;
    scgi_temp_path $work/nginx/scgi;
    types { image/jpeg jpg; }
    server {
        listen 127.0.0.1:$http_port;
        root $set_dir;
    }
    $tls_server
}
EOF
}
log_lines() { if [ -f "$work/nginx/access.log" ]; then wc -l <"$work/nginx/access.log"; else echo 0; fi; }

# ---------------------------------------------------------------------------------------------
# The tools. command_TOOL DIR CPUS sets cmd (the command, run under taskset -c CPUS) and
# cmd_env (for env); verify_TOOL DIR exits 3 unless the run left COUNT 510x510 outputs.

tool_label_of() {
  case $1 in
    imgcache) echo "imgcache prefetch" ;;
    vips) echo "vipsthumbnail" ;;
    pillow) echo "Pillow" ;;
    tls) echo "imgcache prefetch, HTTPS + 20 ms" ;;
    widgets_all) echo "every phone widget size in one call" ;;
    widgets_each) echo "the same requests one at a time" ;;
    *) echo "$1" ;;
  esac
}

command_imgcache() {
  cmd=("$imgcache" prefetch "$work/urls-http.txt" "${target[@]}" --cache-dir "$1/cache")
  cmd_env=()
}
command_tls() {
  cmd=("${trust_wrap[@]}" "$imgcache" prefetch "$work/urls-tls.txt" "${target[@]}" --cache-dir "$1/cache")
  cmd_env=("${trust_env[@]}")
}
command_widgets_all() {
  cmd=("$imgcache_bench" --child jpeg-4000x3000-every-phone-widget-one-call --runs 1 --corpus "$bench_dir")
  cmd_env=()
}
command_widgets_each() {
  cmd=("$imgcache_bench" --child jpeg-4000x3000-every-phone-widget-one-at-a-time --runs 1 --corpus "$bench_dir")
  cmd_env=()
}
command_vips() {
  cmd=(vipsthumbnail --size "$box" --smartcrop centre -o "$1/out/%s.jpg[Q=85,optimize_coding]" "${files[@]}")
  if [ "$2" = 0 ]; then cmd_env=(VIPS_CONCURRENCY=1); else cmd_env=(-u VIPS_CONCURRENCY); fi
}
command_pillow() {
  cmd=("$python" "$pillow_peer" "$box" "$1/out" "${files[@]}" --quality 85)
  cmd_env=()
}

# count_images DIR: "N M FORMATS": N files in DIR, M of them images of $box pixels, and how many
# of those are in each format ("1000 JPEG").
count_images() {
  "$python" - "$1" "$box" <<'EOF'
import collections, os, sys
from PIL import Image
folder, box = sys.argv[1], tuple(map(int, sys.argv[2].split("x")))
names = os.listdir(folder) if os.path.isdir(folder) else []
formats = collections.Counter()
for name in names:
    try:
        with Image.open(os.path.join(folder, name)) as im:
            if im.size == box:
                formats[im.format] += 1
    except Exception:
        pass
print(len(names), sum(formats.values()), ", ".join(f"{v} {k}" for k, v in sorted(formats.items())) or "-")
EOF
}

# run_failed DIR WHAT: shows the run's output and exits 3.
run_failed() {
  echo "$bench_name: $2" >&2
  cat "$1/stdout" "$1/stderr" 2>/dev/null | head -n 20 | sed 's/^/  | /' >&2
  exit 3
}

verify_imgcache() {
  grep -q "^prefetched $count of $count: $count from the network" "$1/stdout" ||
    run_failed "$1" "the prefetch did not download all $count images"
  local variants
  variants=$("$imgcache" cache stats --json --cache-dir "$1/cache" |
    "$python" -c 'import json, sys; print(json.load(sys.stdin)["variants"])')
  [ "$variants" = "$count" ] || run_failed "$1" "the cache holds $variants variants, not $count"
  read -r _ matching formats < <(count_images "$1/cache/data")
  [ "$matching" = "$count" ] || run_failed "$1" "the cache holds $matching images of $box, not $count"
  produced=$formats
}
verify_tls() { verify_imgcache "$@"; }
verify_outputs() {  # the peers: exactly COUNT files, every one a $box JPEG
  local total matching formats
  read -r total matching formats < <(count_images "$1/out")
  if [ "$total" != "$count" ] || [ "$matching" != "$count" ] || [ "$formats" != "$count JPEG" ]; then
    run_failed "$1" "wrote $total files, $matching of them $box images ($formats), not $count JPEGs"
  fi
  produced=$formats
}
# verify_widgets DIR MEASURED: imgcache-bench's child checked that every size was prepared (it
# exits 1 otherwise) and printed "MEDIAN P95 PEAK_KB" of its measured run: kept as widget_ms.
declare -A widget_ms
verify_widgets() {
  local ms
  ms=$(awk 'NF == 3 { print $1 }' "$1/stdout")
  [ -n "$ms" ] || run_failed "$1" "imgcache-bench printed no time"
  produced="every size"
  [ "$2" != measured ] || widget_ms[$tool]+="$ms "
}
verify_widgets_all() { verify_widgets "$@"; }
verify_widgets_each() { verify_widgets "$@"; }
verify_vips() { verify_outputs "$@"; }
verify_pillow() { verify_outputs "$@"; }

# run_once TOOL@CPUS MEASURED: one run in fresh folders; a measured run records its figures.
declare -A wall cpu rss nginx_cpu proxy_cpu conns requests protocols outputs
run_once() {
  local tool=${1%@*} cpus=${1#*@} dir=$work/run status=0 t0 t1 mark n0 p0=0 lines
  rm -rf "$dir"
  mkdir -p "$dir/out"
  "command_$tool" "$dir" "$cpus"
  mark=$(log_lines)
  n0=$(cpu_seconds "$nginx_pid")
  [ -z "$proxy_pid" ] || p0=$(cpu_seconds "$proxy_pid")
  t0=$EPOCHREALTIME
  env "${cmd_env[@]}" "$gnu_time" -f '%U %S %M' -o "$dir/time.txt" taskset -c "$cpus" "${cmd[@]}" \
    >"$dir/stdout" 2>"$dir/stderr" || status=$?
  t1=$EPOCHREALTIME
  [ "$status" = 0 ] || run_failed "$dir" "$(tool_label_of "$tool") on CPUs $cpus failed (exit $status)"
  "verify_$tool" "$dir" "$2"
  if [ "$2" = measured ]; then
    wall[$1]+="$(seconds_between "$t0" "$t1") "
    cpu[$1]+="$(awk '{ printf "%.2f", $1 + $2 }' "$dir/time.txt") "
    rss[$1]+="$(awk '{ print $3 }' "$dir/time.txt") "
    nginx_cpu[$1]+="$(awk -v a="$n0" -v b="$(cpu_seconds "$nginx_pid")" 'BEGIN { printf "%.2f", b - a }') "
    [ -z "$proxy_pid" ] || proxy_cpu[$1]+="$(awk -v a="$p0" -v b="$(cpu_seconds "$proxy_pid")" 'BEGIN { printf "%.2f", b - a }') "
    outputs[$1]=$produced
    lines=$(tail -n +"$((mark + 1))" "$work/nginx/access.log")
    if [ -n "$lines" ]; then
      conns[$1]+="$(awk '{ print $2 }' <<<"$lines" | sort -u | wc -l) "
      requests[$1]+="$(wc -l <<<"$lines") "
      protocols[$1]=$(awk '{ n[$4]++ } END { for (p in n) printf "%s%s x%d", (k++ ? ", " : ""), p, n[p] }' <<<"$lines")
    fi
  fi
  rm -rf "$dir"
}

# ---------------------------------------------------------------------------------------------
# (a) prefetch against vipsthumbnail and Pillow, on one core and on two.

setup_a() {
  for ((i = 0; i < count; i++)); do printf 'http://127.0.0.1:%s/img-%04d.jpg\n' "$http_port" "$i"; done >"$work/urls-http.txt"
}
contenders_a() { echo "imgcache@0 vips@0 pillow@0 imgcache@0,1 vips@0,1 pillow@0,1"; }

# ---------------------------------------------------------------------------------------------
# (b) the same prefetch over HTTPS, through a proxy that adds 20 ms each way.

# make_certificate: a self-signed P-256 certificate for 127.0.0.1 (subjectAltName IP:127.0.0.1).
make_certificate() {
  mkdir -p "$work/tls"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
    -keyout "$work/tls/key.pem" -out "$work/tls/cert.pem" -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1 || die 3 "openssl could not make a certificate"
}

start_proxy() {
  rm -f "$work/proxy.port"
  "$python" "$proxy_script" "$https_port" --delay-ms "$delay_ms" --port-file "$work/proxy.port" 2>"$work/proxy.log" &
  proxy_pid=$!
  local _
  for _ in $(seq 50); do [ -s "$work/proxy.port" ] && break; sleep 0.1; done
  proxy_port=$(cat "$work/proxy.port" 2>/dev/null || true)
  if [ -z "$proxy_port" ] || ! wait_for_port "$proxy_port"; then
    cat "$work/proxy.log" >&2
    die 3 "the delay proxy did not start"
  fi
}

# tls_handshake PORT: what a client that trusts the certificate negotiates: "TLSv1.3 h2 CIPHER".
tls_handshake() {
  "$python" - "$1" "$work/tls/cert.pem" <<'EOF'
import socket, ssl, sys
context = ssl.create_default_context(cafile=sys.argv[2])
context.set_alpn_protocols(["h2", "http/1.1"])
with socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5) as raw:
    with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
        print(tls.version(), tls.selected_alpn_protocol() or "no-ALPN", tls.cipher()[0])
EOF
}

# How imgcache comes to trust the certificate. swift-corelibs-foundation reads the environment
# variable URLSessionCertificateAuthorityInfoFile only on Android; on Linux libcurl reads its
# built-in CA bundle, /etc/ssl/certs/ca-certificates.crt on Debian, and no variable changes
# that. So when the variable does not work, imgcache runs in a mount namespace of its own in
# which that file is replaced (bind mount) by a copy with the certificate added. Sets trust_env,
# trust_wrap and trust_method, or exits 3.
establish_trust() {
  local probe=$work/probe ca_file=/etc/ssl/certs/ca-certificates.crt
  printf 'https://127.0.0.1:%s/img-0000.jpg\n' "$https_port" >"$work/urls-probe.txt"
  probe_trust() {
    rm -rf "$probe"
    env "${trust_env[@]}" "${trust_wrap[@]}" "$imgcache" prefetch "$work/urls-probe.txt" "${target[@]}" \
      --cache-dir "$probe" >"$work/probe.out" 2>&1
  }
  trust_env=("URLSessionCertificateAuthorityInfoFile=$work/tls/cert.pem") trust_wrap=()
  if probe_trust; then
    trust_method="URLSessionCertificateAuthorityInfoFile=cert.pem"
    return
  fi
  env_failure=$(grep -m1 -o 'SSL[^:]*: .*\|certificate.*' "$work/probe.out" || sed -n 2p "$work/probe.out")
  [ -f "$ca_file" ] || die 3 "URLSessionCertificateAuthorityInfoFile is ignored ($env_failure) and $ca_file is missing to replace (apt-get install ca-certificates)"
  cat "$ca_file" "$work/tls/cert.pem" >"$work/tls/ca-bundle.crt"
  local namespace=(unshare --mount)
  [ "$(id -u)" = 0 ] || namespace=(unshare --map-root-user --mount)
  trust_env=()
  # shellcheck disable=SC2016  # the inner sh expands these
  trust_wrap=("${namespace[@]}" sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' trust "$work/tls/ca-bundle.crt" "$ca_file")
  if probe_trust; then
    trust_method="\`${namespace[*]}\` + \`mount --bind\` of the system CA bundle with the certificate added over $ca_file (URLSessionCertificateAuthorityInfoFile was tried first and ignored: $env_failure)"
    return
  fi
  sed 's/^/  | /' "$work/probe.out" >&2
  die 3 "imgcache does not trust the test certificate: URLSessionCertificateAuthorityInfoFile is ignored and ${namespace[*]} with a bind mount failed (needs root or unprivileged user namespaces)"
}

setup_b() {
  wait_for_port "$https_port" || die 3 "nginx does not listen for HTTPS on 127.0.0.1:$https_port"
  handshake=$(tls_handshake "$https_port") || die 3 "no TLS handshake with nginx on 127.0.0.1:$https_port"
  establish_trust
  start_proxy
  for ((i = 0; i < count; i++)); do printf 'https://127.0.0.1:%s/img-%04d.jpg\n' "$proxy_port" "$i"; done >"$work/urls-tls.txt"
  # Without (a), (b) measures its reference, the plain HTTP prefetch on two cores, itself.
  selected a || setup_a
}
contenders_b() {
  if selected a; then echo "tls@0,1"; else echo "imgcache@0,1 tls@0,1"; fi
}

# ---------------------------------------------------------------------------------------------
# (c) one 12 MP JPEG to every phone widget size in one call, against one at a time.

setup_c() {
  "$python" Benchmarks/make-corpus.py "$bench_dir" --only photo-4000x3000.jpg >&2
}
contenders_c() { echo "widgets_all@0,1 widgets_each@0,1"; }

# ---------------------------------------------------------------------------------------------
# Measure: one warm-up run of each program (on both cores; the HTTPS prefetch is the same
# program over the same files, so it shares imgcache's), then $runs rounds of every contender,
# taking turns.

if selected b; then make_certificate; fi
start_nginx
contenders=()
for s in "${sections[@]}"; do
  "setup_$s"
  read -ra more <<<"$("contenders_$s")"
  for c in "${more[@]}"; do [[ " ${contenders[*]} " == *" $c "* ]] || contenders+=("$c"); done
done

load_before=$(load_average)
started=$(date -u +%Y-%m-%dT%H:%MZ)
declare -A warmed
for c in "${contenders[@]}"; do
  tool=${c%@*}
  [ "$tool" != tls ] || tool=imgcache
  [ -z "${warmed[$tool]:-}" ] || continue
  warmed[$tool]=1
  echo "$bench_name: warm-up: $(tool_label_of "$tool") on CPUs 0,1" >&2
  run_once "$tool@0,1" warm-up
done
n=${#contenders[@]}
for ((round = 1; round <= runs; round++)); do
  for ((k = 0; k < n; k++)); do
    if ((round % 2)); then i=$(((round - 1 + k) % n)); else i=$(((round - 1 + n - 1 - k) % n)); fi
    c=${contenders[$i]}
    echo "$bench_name: round $round of $runs: $(tool_label_of "${c%@*}") on CPUs ${c#*@}" >&2
    run_once "$c" measured
  done
done
load_after=$(load_average)
stop proxy_pid
stop nginx_pid

# ---------------------------------------------------------------------------------------------
# Report.

med() { local -n values=$1; tr ' ' '\n' <<<"${values[$2]:-}" | median; }
rate() { awk -v n="$count" -v w="$(med wall "$1")" 'BEGIN { printf "%.1f", n / w }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
verdict() { awk -v v="$1" -v op="$2" -v l="$3" 'BEGIN { ok = (op == ">=" ? v >= l : v <= l); print (ok ? "met" : "**missed**") }'; }
runs_of() { tr ' ' '\n' <<<"${wall[$1]}" | grep . | paste -sd' '; }
# shown WORD...: a command as one line, the machine's paths shortened, the file list elided.
shown() {
  local word text="" elided=0
  for word in "$@"; do
    if [[ $word == "$set_dir"/img-* ]]; then
      [ "$elided" = 1 ] || text+=" img-0000.jpg ... $(basename "${files[-1]}")"
      elided=1
      continue
    fi
    [[ $word =~ ^[A-Za-z0-9_./:=,+@%-]+$ ]] || word="'$word'"
    text+="${text:+ }$word"
  done
  text=${text//"$imgcache"/imgcache}
  text=${text//"$root/"/}
  text=${text//"$work/run/"/}
  text=${text//"$work/tls/"/}
  text=${text//"$work/"/}
  echo "$text"
}
# row TOOL@CPUS: one line of a figures table.
row() {
  local c=$1 tool=${1%@*} nc="-" pc="-" cn="-"
  [ -z "${nginx_cpu[$c]:-}" ] || [ "$tool" = vips ] || [ "$tool" = pillow ] || nc=$(printf '%.2f' "$(med nginx_cpu "$c")")
  [ -z "${proxy_cpu[$c]:-}" ] || [ "$tool" != tls ] || pc=$(printf '%.2f' "$(med proxy_cpu "$c")")
  [ -z "${conns[$c]:-}" ] || cn="$(med conns "$c") ($(med requests "$c") requests)"
  # shellcheck disable=SC2016  # the backquotes are markdown
  printf '| %s | `-c %s` | %s | %.2f | %s | %.2f | %s | %s | %s | %s | %s |\n' "$(tool_label_of "$tool")" "${c#*@}" \
    "$(rate "$c")" "$(med wall "$c")" "$(runs_of "$c")" "$(med cpu "$c")" "$(mib "$(med rss "$c")")" "$nc" "$pc" "$cn" \
    "${outputs[$c]}"
}
table_header() {
  echo "| command | taskset | images/s | wall (s) | wall runs (s) | CPU (s) | peak RSS (MiB) | nginx CPU (s) | proxy CPU (s) | connections (requests) | outputs |"
  echo "|---|---|---:|---:|---|---:|---:|---:|---:|---|---|"
}
show_commands() {
  local c
  echo "Commands (as run under \`taskset -c CPUS\`, each into an empty folder):"
  echo
  for c in "$@"; do
    "command_${c%@*}" "$work/run" "${c#*@}"
    echo "- $(tool_label_of "${c%@*}"), \`-c ${c#*@}\`: \`${cmd_env[*]:+env ${cmd_env[*]} }$(shown "${cmd[@]}")\`"
  done
}

report_a() {
  local c cores
  table_header
  for c in imgcache@0 vips@0 pillow@0 imgcache@0,1 vips@0,1 pillow@0,1; do row "$c"; done
  echo
  echo "imgcache's images/s over each peer's (above 1: imgcache is faster):"
  echo
  echo "| taskset | imgcache / vipsthumbnail | imgcache / Pillow |"
  echo "|---|---:|---:|"
  for cores in 0 0,1; do
    echo "| \`-c $cores\` | $(ratio "$(rate "imgcache@$cores")" "$(rate "vips@$cores")") | $(ratio "$(rate "imgcache@$cores")" "$(rate "pillow@$cores")") |"
  done
  local two one peak
  two=$(ratio "$(rate imgcache@0,1)" "$(rate vips@0,1)")
  one=$(ratio "$(rate imgcache@0)" "$(rate vips@0)")
  peak=$(mib "$(printf '%s\n' "$(med rss imgcache@0)" "$(med rss imgcache@0,1)" | sort -g | tail -n 1)")
  echo
  echo "Targets (reported, not enforced):"
  echo
  echo "| target | this run | verdict |"
  echo "|---|---:|---|"
  echo "| images/s at least 1.2x vipsthumbnail's on two cores | ${two}x | $(verdict "$two" ">=" 1.2) |"
  echo "| images/s at least 1.0x vipsthumbnail's on one core | ${one}x | $(verdict "$one" ">=" 1.0) |"
  echo "| imgcache's peak RSS at most 64 MiB (the larger of one and two cores) | $peak MiB | $(verdict "$peak" "<=" 64) |"
  echo
  show_commands imgcache@0,1 vips@0 vips@0,1 pillow@0,1
}

report_b() {
  local reference=() r c
  selected a || reference=("imgcache@0,1")
  table_header
  for c in "${reference[@]}" tls@0,1; do row "$c"; done
  r=$(ratio "$(med wall tls@0,1)" "$(med wall imgcache@0,1)")
  echo
  echo "- nginx: \`listen 127.0.0.1:PORT ${tls_listen%|*};${tls_listen#*|}\`, \`ssl_protocols TLSv1.2 TLSv1.3\` (Debian's nginx 1.22 would offer TLS 1.0 to 1.2 only); a Python client that trusts the certificate negotiates $handshake"
  echo "- protocol nginx logged for imgcache's requests: ${protocols[tls@0,1]:-none}"
  echo "- how imgcache trusts the self-signed certificate: $trust_method"
  echo "- the proxy: Benchmarks/delay_proxy.py, $delay_ms ms each way (every chunk $delay_ms ms after it was read, in order); not pinned"
  echo
  echo "Target (reported, not enforced):"
  echo
  echo "| target | this run | verdict |"
  echo "|---|---:|---|"
  echo "| wall time at most 1.3x that of the plain HTTP prefetch on two cores$(selected a || echo " (measured in this section, as (a) did not run)") | ${r}x | $(verdict "$r" "<=" 1.3) |"
  echo
  show_commands "${reference[@]}" tls@0,1
}

report_c() {
  local all each r
  all=$(tr ' ' '\n' <<<"${widget_ms[widgets_all]}" | median)
  each=$(tr ' ' '\n' <<<"${widget_ms[widgets_each]}" | median)
  r=$(ratio "$all" "$each")
  echo "| command | taskset | time (ms) | runs (ms) | peak RSS (MiB) |"
  echo "|---|---|---:|---|---:|"
  local tool ms
  for tool in widgets_all widgets_each; do
    ms=$(tr ' ' '\n' <<<"${widget_ms[$tool]}" | median)
    # shellcheck disable=SC2016  # the backquotes are markdown
    printf '| %s | `-c 0,1` | %.1f | %s | %s |\n' "$(tool_label_of "$tool")" "$ms" \
      "$(tr ' ' '\n' <<<"${widget_ms[$tool]}" | grep . | awk '{ printf "%s%.1f", (NR > 1 ? " " : ""), $1 }')" \
      "$(mib "$(med rss "$tool@0,1")")"
  done
  echo
  echo "- what is timed: imgcache-bench's measured run in its own process (after one warm-up run in the same process, which peak RSS includes), from a new cache folder: the original read from a file URL and stored once, every variant rendered and stored as JPEG quality 85"
  echo
  echo "Target (reported, not enforced):"
  echo
  echo "| target | this run | verdict |"
  echo "|---|---:|---|"
  echo "| one call at most 0.3x the time of the requests made one at a time | ${r}x | $(verdict "$r" "<=" 0.3) |"
  echo
  show_commands widgets_all@0,1 widgets_each@0,1
}

echo "## imgcache throughput"
echo
echo "- date: $started (UTC)"
echo "- machine: $(machine)"
echo "- load average (1, 5, 15 min): $load_before before, $load_after after"
echo "- imgcache: $(first_line "$imgcache" --version), $imgcache (checkout at commit $(commit))"
echo "- tools: libvips $(first_line vipsthumbnail --vips-version | sed 's/^libvips //'); Pillow $("$python" -c 'import PIL; print(PIL.__version__)') (libjpeg-turbo $("$python" -c 'from PIL import features; print(features.version("libjpeg_turbo"))')) on Python $("$python" -c 'import platform; print(platform.python_version())'); $("$nginx" -v 2>&1 | sed 's/^nginx version: //'); $(first_line openssl version | cut -d' ' -f1-2); libcurl $(dpkg-query -W -f='${Version}' libcurl4 2>/dev/null || echo '?') (Debian package; FoundationNetworking's HTTP client); GNU time $(dpkg-query -W -f='${Version}' time 2>/dev/null || echo '?')"
echo "- images: $count distinct 1200x800 JPEGs ($(du -cb "${files[@]}" | tail -n 1 | awk '{ printf "%.0f MB", $1 / 1e6 }')) in $set_dir, each to the small widget of an iPhone 16 Pro Max: 510x510 px, centre crop"
echo "- method: one warm-up run of each program (the HTTPS prefetch shares imgcache's), then $runs round$([ "$runs" = 1 ] || echo s) in which every command below runs once, taking turns (order moved one place each round, reversed every other round); medians; wall = shell clock around the process; CPU = its user + system time and peak RSS = its maximum resident set (GNU time \`-f '%U %S %M'\`); nginx and proxy CPU = what they used during the run (neither pinned)"
for s in "${sections[@]}"; do
  echo
  echo "### ${section_title[$s]}"
  echo
  "report_$s"
done
