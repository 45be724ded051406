# Shell helpers the benchmark scripts share (compare.sh, memory.sh, throughput.sh, ...), and
# Samples/demo.sh with them (for its local origin). Sourced, not run:
# `. "$(dirname "${BASH_SOURCE[0]}")/common.sh"` right after the script's `set` line.
#
# Sets, unless the environment already does: root (the checkout; the script cd's there), bench_dir
# ($IMGCACHE_BENCH_DIR, else ${TMPDIR:-/tmp}/imgcache-bench), imgcache ($IMGCACHE, else the release
# CLI), python ($PYTHON, else python3), nginx ($NGINX, else Debian's /usr/sbin/nginx) and gnu_time
# (/usr/bin/time). Every message names the script.
# shellcheck shell=bash disable=SC2034  # the variables are for the scripts that source this file

bench_name=$(basename "${BASH_SOURCE[1]:-$0}")
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bench_dir=${IMGCACHE_BENCH_DIR:-${TMPDIR:-/tmp}/imgcache-bench}
imgcache=${IMGCACHE:-$root/.build/release/imgcache}
python=${PYTHON:-python3}
nginx=${NGINX:-/usr/sbin/nginx}
gnu_time=/usr/bin/time

# die STATUS MESSAGE: prints "script: MESSAGE" on stderr and exits with STATUS.
die() { echo "$bench_name: $2" >&2; exit "$1"; }

# need_gnu_time: exits 2 unless GNU time is at $gnu_time.
need_gnu_time() {
  { [ -x "$gnu_time" ] && "$gnu_time" --version >/dev/null 2>&1; } ||
    die 2 "needs GNU time at $gnu_time (apt-get install time, or make setup)"
}

# build_cli BUILD: with BUILD=1, builds the release CLI; then exits 2 unless $imgcache runs.
build_cli() {
  if [ "$1" = 1 ]; then
    echo "$bench_name: building the release CLI" >&2
    (cd "$root" && swift build -c release --product imgcache) >&2
  fi
  [ -x "$imgcache" ] || die 2 "$imgcache is missing; build it or set IMGCACHE"
}

# The middle value of the numbers on stdin, one a line, blank lines ignored (the mean of the two
# middle ones for an even count).
median() {
  { grep . || true; } | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# mib KIB: KiB as MiB with one decimal.
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

# seconds_between T0 T1: the time between two $EPOCHREALTIME readings, to the millisecond.
seconds_between() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

# first_line COMMAND...: the first non-empty line COMMAND prints on stdout or stderr.
first_line() { "$@" 2>&1 | grep -v '^$' | head -n 1 || true; }

# machine: "CPU model, N cores, RAM, kernel".
machine() {
  echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc --all) cores," \
    "$(awk '/MemTotal/ { printf "%.0f GiB RAM", $2 / 1048576 }' /proc/meminfo), $(uname -sr)"
}

# load_average: the 1, 5 and 15 minute load averages.
load_average() { cut -d' ' -f1-3 /proc/loadavg; }

# commit: the checkout's commit, "-dirty" when it has changes.
commit() { git -C "$root" describe --always --dirty 2>/dev/null || echo unknown; }

# stop PID-VARIABLE: ends that server, if it runs, and waits for it.
stop() {
  local -n pid=$1
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    pid=""
  fi
}

# free_port: a TCP port free on 127.0.0.1 now.
free_port() { "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# wait_for_port PORT [PID]: true once 127.0.0.1:PORT accepts a connection; false after 5 s, or as
# soon as process PID (the server that should listen there) has ended.
wait_for_port() {
  local _
  for _ in $(seq 50); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    [ -z "${2:-}" ] || kill -0 "$2" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

# serve_folder FOLDER PREFIX [LOG_FORMAT]: $nginx serving FOLDER over HTTP on a free port of
# 127.0.0.1, not as a daemon (daemon off, master_process off: one process, run in the background
# of this shell), with its configuration, pid file, logs and temporary folders under PREFIX. Each
# request is logged to PREFIX/access.log in LOG_FORMAT (nginx variables, no single quote; default
# '$uri $status'). Sets nginx_pid and nginx_port; the caller stops it with `stop nginx_pid` (from
# its EXIT trap). Exits 2 when $nginx is missing, 3 with nginx's last error when it does not start.
serve_folder() {
  local folder=$1 prefix=$2 format=${3:-'$uri $status'} reason _
  command -v "$nginx" >/dev/null || die 2 "needs $nginx (make setup)"
  mkdir -p "$prefix"
  nginx_port=$(free_port)
  cat >"$prefix/nginx.conf" <<CONF
daemon off;
master_process off;
worker_processes 1;
pid "$prefix/nginx.pid";
error_log "$prefix/error.log" warn;
events { worker_connections 1024; }
http {
    log_format served '$format';
    access_log "$prefix/access.log" served;
    client_body_temp_path "$prefix/client_body";
    proxy_temp_path "$prefix/proxy";
    fastcgi_temp_path "$prefix/fastcgi";
    uwsgi_temp_path "$prefix/uwsgi";
    scgi_temp_path "$prefix/scgi";
    types { image/jpeg jpg jpeg; image/png png; image/gif gif; image/webp webp; }
    server { listen 127.0.0.1:$nginx_port; root "$folder"; }
}
CONF
  # Without NGINX in its environment: nginx would read it as sockets inherited from an upgrade.
  env -u NGINX "$nginx" -p "$prefix" -c "$prefix/nginx.conf" -e "$prefix/error.log" 2>>"$prefix/error.log" &
  nginx_pid=$!
  # nginx writes its pid file once it holds the port (when another process took it since
  # free_port, nginx tries for 2.5 s, then gives up): the port alone could be someone else's.
  for _ in $(seq 50); do
    [ ! -s "$prefix/nginx.pid" ] && kill -0 "$nginx_pid" 2>/dev/null || break
    sleep 0.1
  done
  if ! { [ -s "$prefix/nginx.pid" ] && wait_for_port "$nginx_port" "$nginx_pid"; }; then
    # nginx's first fatal complaint (else its last line), without time stamp and process number.
    reason=$({ grep -m 1 -E '\[(emerg|alert|crit)\]' "$prefix/error.log" || grep . "$prefix/error.log" | tail -n 1; } 2>/dev/null |
      sed -E 's/^[0-9/]+ [0-9:]+ //; s/^nginx: //; s/ [0-9]+#[0-9]+: (\*[0-9]+ )?/ /') || true
    stop nginx_pid
    die 3 "nginx did not start on 127.0.0.1:$nginx_port${reason:+: $reason}"
  fi
}

# make_image_set COUNT: sets set_dir to $bench_dir/prefetch-1200x800, holding at least COUNT
# distinct 1200x800 JPEGs (quality 85) img-0000.jpg..., each a window of one of the two corpus
# photos decoded at half size, at offsets from random.Random(index), every other pair mirrored,
# with their SHA256SUMS (throughput.sh and serve.sh share the folder). Written to a temporary
# folder and renamed, so a set that exists is complete.
make_image_set() {
  "$python" Benchmarks/make-corpus.py "$bench_dir" --only photo-6000x4000.jpg --only photo-4000x3000.jpg >&2
  set_dir=$bench_dir/prefetch-1200x800
  if [ -f "$set_dir/SHA256SUMS" ] && [ "$(wc -l <"$set_dir/SHA256SUMS")" -ge "$1" ]; then return; fi
  echo "$bench_name: writing $1 images to $set_dir" >&2
  rm -rf "$set_dir" "$set_dir.tmp"
  mkdir -p "$set_dir.tmp"
  "$python" - "$bench_dir" "$set_dir.tmp" "$1" <<'EOF'
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
}
