#!/usr/bin/env bash
# The cost of a blurred widget background: the medium widget slice of a 3x iPhone (1032x486 pixels,
# opaque, Samples/media/harbour.jpg filled into that size by Pillow) blurred at sigma 10 points
# (30 pixels) by imgcache's GaussianBlur, alone and with the dark tint (imgcache-bench scenarios,
# each in a child process of its own), and by Pillow's ImageFilter.GaussianBlur of the same image
# at radius 30 in the same run: the same job (premultiplied, blurred, back to straight RGBA) and
# the filter alone.
#
#   Benchmarks/blur.sh [--runs N] [--no-build]
#
# N measured runs after a warm-up (default 25). The slice is written once to
# $IMGCACHE_BENCH_DIR/blur/slice-1032x486.png. Prints a markdown table on stdout: median and p95
# milliseconds, and the machine and load average before and after.
#
# Environment: IMGCACHE_BENCH_DIR (default ${TMPDIR:-/tmp}/imgcache-bench), PYTHON (with Pillow;
# python3). Exit status: 0 done; 2 bad usage or Pillow missing; 3 a run failed.
set -euo pipefail
export LC_ALL=C
# shellcheck source=Benchmarks/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

usage() { sed -n '2,16s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

runs=25
build=1
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=${2:?--runs needs a number}; shift ;;
    --runs=*) runs=${1#*=} ;;
    --no-build) build=0 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "blur.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || die 2 "--runs wants a positive whole number"

cd "$root"
"$python" -c 'import PIL' 2>/dev/null || die 2 "$python cannot import PIL (make setup)"
if [ "$build" = 1 ]; then
  echo "blur.sh: building imgcache-bench (release)" >&2
  swift build -c release --product imgcache-bench >&2
fi
bench=$root/.build/release/imgcache-bench
[ -x "$bench" ] || die 2 "$bench is missing; build it (swift build -c release --product imgcache-bench)"

input=$bench_dir/blur/slice-1032x486.png
if [ ! -s "$input" ]; then
  mkdir -p "$bench_dir/blur"
  "$python" - Samples/media/harbour.jpg "$input" <<'PYTHON'
import sys
from PIL import Image, ImageOps
with Image.open(sys.argv[1]) as image:
    ImageOps.fit(image.convert("RGB"), (1032, 486), Image.Resampling.LANCZOS).save(sys.argv[2] + ".partial.png")
PYTHON
  mv "$input.partial.png" "$input"
fi

echo "# Blur of a medium widget slice (1032x486 px at 3x, sigma 10 pt = 30 px)"
echo
echo "machine: $(machine); commit $(commit); load average (1, 5, 15 min) $(load_average) before"
echo
ours=$("$bench" --corpus "$bench_dir" --runs "$runs" blur-1032x486 tint-dark-1032x486) || die 3 "imgcache-bench failed: $ours"
echo "$ours" | grep -E '^\|' | sed -n '1,2p'
echo "$ours" | grep -E '^\| (blur|tint)-'
pillow=$("$python" Benchmarks/peers/pillow_blur.py "$input" 30 "$runs") || die 3 "pillow_blur.py failed"
pillow_version=$("$python" -c 'import PIL; print(PIL.__version__)')
echo "$pillow" | while read -r name median p95; do
  echo "| pillow-$pillow_version-gaussianblur-30px-$name | $median | $p95 | |"
done
echo
echo "$runs runs each after a warm-up. imgcache's rows include premultiplying and unpremultiplying"
echo "(as pillow-...-premultiplied does); the peak RSS column is imgcache-bench's child process."
echo "load average (1, 5, 15 min) after: $(load_average)"
