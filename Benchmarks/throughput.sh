#!/usr/bin/env bash
# Prefetch throughput on one core and on two: `imgcache prefetch` of 1,000 distinct images served
# by a local nginx, into a fresh cache folder each run.
#
#   Benchmarks/prefetch.sh [--runs N] [--count COUNT] [--no-build]
#
# Makes the image set once (COUNT, default 1,000, distinct 1200x800 JPEGs cut from the corpus photos,
# deterministic, in $IMGCACHE_BENCH_DIR/prefetch-1200x800), starts Debian's nginx on 127.0.0.1
# with a temporary prefix and configuration, and stops it at the end. One warm-up run on both
# cores, then N rounds (3) of `taskset -c 0` and `taskset -c 0,1` in alternating order, each
# prefetching every URL to the small widget of an iPhone 16 Pro Max (510x510 px, crop) into an
# empty cache. Prints a markdown report on stdout: images/s, wall time, CPU time, peak RSS, the
# CPU time nginx used, and the two-core speed-up against the target (1.7x).
#
# Environment: IMGCACHE (default .build/release/imgcache, built unless --no-build),
# IMGCACHE_BENCH_DIR (default ${TMPDIR:-/tmp}/imgcache-bench), NGINX (default /usr/sbin/nginx),
# PYTHON (with Pillow; default python3).
# Exit status: 0 done (the target is reported, not enforced); 2 bad usage or a missing tool;
# 3 nginx did not start, or a prefetch failed.
set -euo pipefail
export LC_ALL=C

usage() { sed -n '2,21s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

runs=3
count=1000
build=1
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=${2:?--runs needs a number}; shift ;;
    --runs=*) runs=${1#*=} ;;
    --count) count=${2:?--count needs a number}; shift ;;
    --count=*) count=${1#*=} ;;
    --no-build) build=0 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "prefetch.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "prefetch.sh: --runs wants a positive whole number" >&2; exit 2; }
[[ $count =~ ^[1-9][0-9]*$ ]] || { echo "prefetch.sh: --count wants a positive whole number" >&2; exit 2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
bench_dir=${IMGCACHE_BENCH_DIR:-${TMPDIR:-/tmp}/imgcache-bench}
imgcache=${IMGCACHE:-$root/.build/release/imgcache}
nginx=${NGINX:-/usr/sbin/nginx}
python=${PYTHON:-python3}
gnu_time=/usr/bin/time
target=(--device "iPhone 16 Pro Max" --widget small)

for tool in "$nginx" taskset "$gnu_time"; do
  command -v "$tool" >/dev/null || { echo "prefetch.sh: $tool is missing (make setup)" >&2; exit 2; }
done
[ "$(nproc --all)" -ge 2 ] || { echo "prefetch.sh: needs at least 2 cores" >&2; exit 2; }
if [ "$build" = 1 ]; then
  echo "prefetch.sh: building the release CLI" >&2
  swift build -c release --product imgcache >&2
fi
[ -x "$imgcache" ] || { echo "prefetch.sh: $imgcache is missing; build it or set IMGCACHE" >&2; exit 2; }

# The image set: $count distinct 1200x800 JPEGs (quality 85), each a window of one of the two
# corpus photos decoded at half size, at offsets from random.Random(index), every other one
# mirrored. Written to a temporary folder and renamed, so a set that exists is complete.
"$python" Benchmarks/make-corpus.py "$bench_dir" --only photo-6000x4000.jpg --only photo-4000x3000.jpg >&2
set_dir=$bench_dir/prefetch-1200x800
if [ ! -f "$set_dir/SHA256SUMS" ] || [ "$(wc -l <"$set_dir/SHA256SUMS")" -lt "$count" ]; then
  echo "prefetch.sh: writing $count images to $set_dir" >&2
  rm -rf "$set_dir" "$set_dir.tmp"
  mkdir -p "$set_dir.tmp"
  "$python" - "$bench_dir" "$set_dir.tmp" "$count" <<'EOF'
import random, sys
from pathlib import Path
from PIL import Image
corpus, out, count = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
photos = []
for name in ("photo-6000x4000.jpg", "photo-4000x3000.jpg"):
    with Image.open(corpus / name) as im:
        im.draft("RGB", (im.width // 2, im.height // 2))
        photos.append(im.convert("RGB"))
for index in range(count):
    rng = random.Random(index)
    photo = photos[index % 2]
    x, y = rng.randrange(photo.width - 1200), rng.randrange(photo.height - 800)
    image = photo.crop((x, y, x + 1200, y + 800))
    if index % 4 >= 2:
        image = image.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    image.save(out / f"img-{index:04d}.jpg", quality=85)
EOF
  (cd "$set_dir.tmp" && sha256sum img-*.jpg >SHA256SUMS)
  mv "$set_dir.tmp" "$set_dir"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/imgcache-prefetch.XXXXXX")
nginx_pid=""
stop_nginx() {
  if [ -n "$nginx_pid" ]; then
    kill "$nginx_pid" 2>/dev/null || true
    wait "$nginx_pid" 2>/dev/null || true
    nginx_pid=""
  fi
}
trap 'stop_nginx; rm -rf "$work"' EXIT

# nginx in the foreground, one worker, everything under $work, serving the set on a free port.
port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$work/nginx"
cat >"$work/nginx/nginx.conf" <<EOF
daemon off;
master_process off;
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 256; }
http {
    access_log off;
    sendfile on;
    keepalive_requests 100000;
    client_body_temp_path $work/nginx/client_body;
    proxy_temp_path $work/nginx/proxy;
    fastcgi_temp_path $work/nginx/fastcgi;
    uwsgi_temp_path $work/nginx/uwsgi;
    scgi_temp_path $work/nginx/scgi;
    types { image/jpeg jpg; }
    server {
        listen 127.0.0.1:$port;
        root $set_dir;
    }
}
EOF
"$nginx" -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" &
nginx_pid=$!
for _ in $(seq 50); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done
if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
  echo "prefetch.sh: nginx did not start on 127.0.0.1:$port:" >&2
  cat "$work/nginx/error.log" >&2 || true
  exit 3
fi
for ((i = 0; i < count; i++)); do printf 'http://127.0.0.1:%s/img-%04d.jpg\n' "$port" "$i"; done >"$work/urls.txt"

ticks=$(getconf CLK_TCK)
nginx_cpu() { awk -v t="$ticks" '{ printf "%.2f", ($14 + $15) / t }' "/proc/$nginx_pid/stat"; }

declare -A wall cpu rss served
# run_once CPUS MEASURED: one prefetch of every URL into an empty cache, pinned to CPUS.
run_once() {
  local cpus=$1 t0 t1 n0 status=0
  rm -rf "$work/cache"
  n0=$(nginx_cpu)
  t0=$EPOCHREALTIME
  "$gnu_time" -v -o "$work/time.txt" taskset -c "$cpus" "$imgcache" prefetch "$work/urls.txt" "${target[@]}" \
    --cache-dir "$work/cache" >"$work/stdout" 2>"$work/stderr" || status=$?
  t1=$EPOCHREALTIME
  if [ "$status" != 0 ] || ! grep -q "^prefetched $count of $count: $count downloaded" "$work/stdout"; then
    echo "prefetch.sh: the prefetch on CPUs $cpus failed (exit $status):" >&2
    cat "$work/stdout" "$work/stderr" | head -n 20 >&2
    exit 3
  fi
  [ "$2" = measured ] || return 0
  wall[$cpus]+="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }') "
  cpu[$cpus]+="$(awk -F': *' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$work/time.txt") "
  rss[$cpus]+="$(awk -F': *' '/Maximum resident set size/ { print $2 }' "$work/time.txt") "
  served[$cpus]+="$(awk -v a="$n0" -v b="$(nginx_cpu)" 'BEGIN { printf "%.2f", b - a }') "
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -u +%Y-%m-%dT%H:%MZ)
echo "prefetch.sh: warm-up on CPUs 0,1" >&2
run_once 0,1 warm-up
for ((round = 1; round <= runs; round++)); do
  order="0 0,1"
  [ $((round % 2)) = 1 ] || order="0,1 0"
  for cpus in $order; do
    echo "prefetch.sh: round $round of $runs, CPUs $cpus" >&2
    run_once "$cpus" measured
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
stop_nginx

median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
declare -A rate
for cpus in 0 0,1; do rate[$cpus]=$(awk -v n="$count" -v w="$(median <<<"${wall[$cpus]}")" 'BEGIN { printf "%.1f", n / w }'); done
speedup=$(awk -v a="${rate[0,1]}" -v b="${rate[0]}" 'BEGIN { printf "%.2f", a / b }')

echo "## imgcache prefetch: one core against two"
echo
echo "- date: $started (UTC)"
echo "- machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc --all) cores, $(uname -sr)"
echo "- load average (1, 5, 15 min): $load_before before, $load_after after"
echo "- imgcache: $("$imgcache" --version 2>/dev/null | head -n 1), $imgcache (checkout at commit $(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)); $("$nginx" -v 2>&1 | sed 's/^nginx version: //') on 127.0.0.1, one worker, not pinned"
echo "- work: \`imgcache prefetch urls.txt ${target[*]:0:1} \"${target[1]}\" ${target[*]:2} --cache-dir EMPTY\` ($count distinct 1200x800 JPEGs, $(du -sm "$set_dir" | cut -f1) MB, from $set_dir; each becomes a 510x510 PNG variant)"
echo "- method: 1 warm-up on both cores, then $runs rounds of each, alternating which goes first; medians; CPU = user + system of imgcache; nginx CPU = what nginx used during the run"
echo
echo "| taskset | images/s | wall (s) | wall runs (s) | CPU (s) | peak RSS (MiB) | nginx CPU (s) |"
echo "|---|---:|---:|---|---:|---:|---:|"
for cpus in 0 0,1; do
  printf "| \`-c %s\` | %s | %.2f | %s | %.2f | %.1f | %.2f |\n" "$cpus" "${rate[$cpus]}" "$(median <<<"${wall[$cpus]}")" \
    "${wall[$cpus]% }" "$(median <<<"${cpu[$cpus]}")" "$(awk -v k="$(median <<<"${rss[$cpus]}")" 'BEGIN { print k / 1024 }')" \
    "$(median <<<"${served[$cpus]}")"
done
echo
echo "Two cores against one: ${speedup}x the images/s (target: at least 1.7x): $(awk -v s="$speedup" 'BEGIN { print (s >= 1.7 ? "met" : "**missed**") }')"
