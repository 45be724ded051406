# Shell helpers the benchmark scripts share (compare.sh, memory.sh, throughput.sh). Sourced, not
# run: `. "$(dirname "${BASH_SOURCE[0]}")/common.sh"` right after the script's `set` line.
#
# Sets, unless the environment already does: root (the checkout; the script cd's there), bench_dir
# ($IMGCACHE_BENCH_DIR, else ${TMPDIR:-/tmp}/imgcache-bench), imgcache ($IMGCACHE, else the release
# CLI), python ($PYTHON, else python3) and gnu_time (/usr/bin/time). Every message names the script.
# shellcheck shell=bash disable=SC2034  # the variables are for the scripts that source this file

bench_name=$(basename "${BASH_SOURCE[1]:-$0}")
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bench_dir=${IMGCACHE_BENCH_DIR:-${TMPDIR:-/tmp}/imgcache-bench}
imgcache=${IMGCACHE:-$root/.build/release/imgcache}
python=${PYTHON:-python3}
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
# wait_for_port PORT: true once 127.0.0.1:PORT accepts a connection, false after 5 s.
wait_for_port() {
  local _
  for _ in $(seq 50); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}
