#!/usr/bin/env bash
# Peak memory (maximum resident set size) of imgcache at its limits: the largest output, the most
# held at the source's resolution (an interlaced PNG, progressive JPEGs), the largest frame budget,
# an upscale to the largest output, a prefetch of two of those files at once (its decodes wait
# for each other), and a prefetch of 8 downloads of 34 MB at once from a local HTTP server
# (bodies go to files as they arrive); vipsthumbnail beside it on the same files, taking turns.
# See Benchmarks/README.md.
#
#   Benchmarks/memory-limits.sh [--ceiling-mb MB] [--no-build]
#
# Makes its inputs (random pixels, so that nothing compresses) in $IMGCACHE_BENCH_DIR/limits with
# Pillow, ImageMagick's convert and libjpeg-turbo's cjpeg, runs each case once under /usr/bin/time
# and prints a markdown table on stdout (progress on stderr).
#
# Exit status: 0 every imgcache case under the ceiling (default 250 MB, 10^6 bytes); 1 a case over
# it; 2 bad usage or a missing tool; 3 a command failed.
set -euo pipefail
export LC_ALL=C
# shellcheck source=Benchmarks/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

usage() { sed -n '2,16s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

ceiling_mb=250
build=1
while [ $# -gt 0 ]; do
  case $1 in
    --ceiling-mb) ceiling_mb=${2:?--ceiling-mb needs a number}; shift ;;
    --ceiling-mb=*) ceiling_mb=${1#*=} ;;
    --no-build) build=0 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "memory-limits.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
[[ $ceiling_mb =~ ^[1-9][0-9]*$ ]] || die 2 "--ceiling-mb wants a positive whole number"

cd "$root"
need_gnu_time
for tool in convert cjpeg vipsthumbnail; do
  command -v "$tool" >/dev/null || die 2 "needs $tool (make setup installs it)"
done
build_cli "$build"

inputs=$bench_dir/limits
mkdir -p "$inputs"
work=$(mktemp -d "${TMPDIR:-/tmp}/imgcache-limits.XXXXXX")
server_pid=""
trap '[ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null; rm -rf "$work"' EXIT

# Inputs at the limits, made once: random pixels at the largest output (4096x4096 RGBA), an
# interlaced PNG of 5790x5790 (134 MB held whole, just under 128 MiB), progressive JPEGs whose
# coefficients are just under 128 MiB in 4:4:4 and in 4:2:0 colour, a 4000x4000 GIF of 6 frames,
# and a 7000x5000 baseline JPEG of 34 MB to download.
if [ ! -s "$inputs/baseline-7000.jpg" ]; then
  echo "memory-limits.sh: making the inputs in $inputs" >&2
  "$python" - "$inputs" <<'EOF'
import os, sys
from PIL import Image
folder = sys.argv[1]
def noise(mode, size):
    return Image.frombytes(mode, size, os.urandom(size[0] * size[1] * len(mode)))
noise("RGBA", (4096, 4096)).save(f"{folder}/noise-4096.png", compress_level=1)
noise("RGBA", (5790, 5790)).save(f"{folder}/plain-5790.png", compress_level=1)
for name, size in (("444", (5776, 3860)), ("420", (8000, 5500)), ("baseline", (7000, 5000))):
    with open(f"{folder}/noise-{name}.ppm", "wb") as ppm:
        ppm.write(b"P6\n%d %d\n255\n" % size)
        ppm.write(os.urandom(size[0] * size[1] * 3))
frames = []
for _ in range(6):
    frame = Image.frombytes("P", (4000, 4000), os.urandom(4000 * 4000))
    frame.putpalette(list(os.urandom(768)))
    frames.append(frame)
frames[0].save(f"{folder}/frames-4000.gif", save_all=True, append_images=frames[1:], duration=100, loop=0)
EOF
  convert "$inputs/plain-5790.png" -interlace PNG -define png:compression-level=1 "$inputs/interlaced-5790.png"
  cjpeg -progressive -sample 1x1 -quality 90 "$inputs/noise-444.ppm" >"$inputs/progressive-444.jpg"
  cjpeg -progressive -sample 2x2 -quality 90 "$inputs/noise-420.ppm" >"$inputs/progressive-420.jpg"
  cjpeg -quality 92 "$inputs/noise-baseline.ppm" >"$inputs/baseline-7000.jpg"
  rm -f "$inputs/plain-5790.png" "$inputs"/noise-*.ppm
fi

# measure COMMAND...: runs COMMAND once; sets peak_mb (maximum RSS in MB, 10^6 bytes) and seconds.
measure() {
  local t0 t1 kib
  t0=$EPOCHREALTIME
  if ! "$gnu_time" -f '%M' -o "$work/rss" "$@" >"$work/stdout" 2>"$work/stderr"; then
    echo "memory-limits.sh: this command failed:" >&2
    echo "  $*" >&2
    sed 's/^/  | /' "$work/stderr" | tail -n 20 >&2
    exit 3
  fi
  t1=$EPOCHREALTIME
  kib=$(tail -n 1 "$work/rss")
  peak_mb=$(awk -v k="$kib" 'BEGIN { printf "%.0f", k * 1024 / 1e6 }')
  seconds=$(seconds_between "$t0" "$t1")
}

over=0
# row CASE VIPS_INPUT VIPS_SIZE -- IMGCACHE_ARGUMENTS...: one line of the table; vipsthumbnail
# makes the same output from VIPS_INPUT ("-" for none).
row() {
  local name=$1 vips_input=$2 vips_size=$3
  shift 4
  echo "memory-limits.sh: $name" >&2
  measure "$imgcache" "$@"
  local ours="$peak_mb MB, $seconds s"
  [ "$peak_mb" -le "$ceiling_mb" ] || over=1
  local theirs="-"
  if [ "$vips_input" != - ]; then
    measure vipsthumbnail "$vips_input" -s "$vips_size" -o "$work/vips.png"
    theirs="$peak_mb MB, $seconds s"
  fi
  echo "| $name | $ours | $theirs |"
}

echo "Peak memory at the limits ($(date -u +%Y-%m-%d), commit $(commit); $(machine); load $(load_average))."
echo "Ceiling: $ceiling_mb MB. Each case runs once; vipsthumbnail makes the same output from the same file."
echo
echo "| case | imgcache | vipsthumbnail |"
echo "|---|---|---|"
row "4096x4096 random RGBA PNG to PNG (largest output)" "$inputs/noise-4096.png" 4096x4096 -- \
  decode "$inputs/noise-4096.png" --size 4096x4096 -o "$work/out.png"
row "the same to JPEG (flattened)" - - -- \
  decode "$inputs/noise-4096.png" --size 4096x4096 -o "$work/out.jpg"
row "5790x5790 interlaced PNG (held whole) to 4096x4096 PNG" "$inputs/interlaced-5790.png" 4096x4096 -- \
  decode "$inputs/interlaced-5790.png" --size 4096x4096 -o "$work/out.png"
row "5776x3860 progressive 4:4:4 JPEG to 4096 wide JPEG" "$inputs/progressive-444.jpg" 4096x4096 -- \
  decode "$inputs/progressive-444.jpg" --size 4096x4096 -o "$work/out.jpg"
row "8000x5500 progressive 4:2:0 JPEG to 4096 wide PNG" "$inputs/progressive-420.jpg" 4096x4096 -- \
  decode "$inputs/progressive-420.jpg" --size 4096x4096 -o "$work/out.png"
row "4000x4000 GIF, 6 frames, to 2000x2000 with a 64 MB budget" - - -- \
  decode "$inputs/frames-4000.gif" --size 2000x2000 --max-frames 10000 --budget 64MB -o "$work/out.gif"
row "640x640 PNG upscaled to 4096x4096 JPEG" - - -- \
  decode Samples/media/badge.png --upscale --size 4096x4096 -o "$work/out.jpg"
# The two JPEGs are under the 50 MiB download limit; each decode alone is near the ceiling.
printf '%s\n' "$inputs/progressive-444.jpg" "$inputs/progressive-420.jpg" >"$work/list"
row "prefetch of both JPEGs to 4096x4096, $(nproc) decodes at once" - - -- \
  prefetch "$work/list" --size 4096x4096 --cache-dir "$work/cache"

# Python's threading HTTP server on a free port, serving the inputs (a query string is ignored,
# so each ?n= is a URL of its own for imgcache).
port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$python" -m http.server "$port" --bind 127.0.0.1 --directory "$inputs" >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 50); do
  "$python" -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null && break
  sleep 0.1
done
for n in 1 2 3 4 5 6 7 8; do echo "http://127.0.0.1:$port/baseline-7000.jpg?n=$n"; done >"$work/urls"
row "prefetch of 8 URLs of 34 MB over HTTP to 510x510, 8 downloads at once" - - -- \
  prefetch "$work/urls" --size 510x510 --cache-dir "$work/cache-http"
exit "$over"
