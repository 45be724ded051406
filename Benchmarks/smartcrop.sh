#!/usr/bin/env bash
# imgcache's smart crop (--gravity smart) against vipsthumbnail's attention crop
# (--smartcrop attention) on the smart-crop photo set: where the two windows lie, and what each
# costs over a centre crop.
#
#   Benchmarks/smartcrop.sh [--rounds R] [--no-build]
#
# The photos: `make-corpus.py --smartcrop` writes twelve synthetic photos (six landscape, six
# portrait, 3:2 and 4:3, 1500 to 3000 pixels a side) of a sharp subject well off the centre of a
# blurred landscape into $IMGCACHE_BENCH_DIR/smartcrop, with each subject's box. Each is cropped
# to the iPhone 16 Pro's small (486x486, 1:1), medium (1032x486, 2.1:1) and large (1032x1098,
# 0.94:1) widgets by both tools. A window is found by matching each tool's crop against its own
# uncut fill (imgcache --mode fill; vips thumbnail to the same size), so no tool is asked where it
# cut. Reported per shape and overall: the mean distance of imgcache's window from vips's, and of
# the centre crop's from vips's, as a fraction of the fill's side along the axis the window moves
# (0 = the same window, 1 = a whole side apart); and how often each window holds the centre of
# the subject's box.
# Timing: R rounds (3); in each, every tool crops the whole set (36 crops, written as JPEG) with
# its smart crop and with its centre crop, the four runs in an order shifted by one each round;
# reported: each tool's median wall and CPU (user + system) time per crop, and what its smart
# crop adds over its centre crop (CPU time is the steadier on a busy machine).
#
# Environment: IMGCACHE (default .build/release/imgcache, built unless --no-build),
# IMGCACHE_BENCH_DIR (default ${TMPDIR:-/tmp}/imgcache-bench), PYTHON (with Pillow and numpy;
# python3). Exit status: 0 done; 2 bad usage or a missing tool; 3 a tool failed or wrote a wrong
# size.
set -euo pipefail
export LC_ALL=C
# shellcheck source=Benchmarks/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

usage() { sed -n '2,28s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

rounds=3
build=1
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=${2:?--rounds needs a number}; shift ;;
    --rounds=*) rounds=${1#*=} ;;
    --no-build) build=0 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "smartcrop.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die 2 "--rounds wants a positive whole number"

cd "$root"
for tool in vipsthumbnail vips; do
  command -v "$tool" >/dev/null || die 2 "needs $tool (apt-get install libvips-tools, or make setup)"
done
"$python" -c 'import PIL, numpy' 2>/dev/null || die 2 "$python cannot import PIL and numpy (make setup)"
build_cli "$build"
load_before=$(load_average)
"$python" Benchmarks/make-corpus.py "$bench_dir" --smartcrop >&2
photos=$bench_dir/smartcrop
work=$(mktemp -d "${TMPDIR:-/tmp}/imgcache-smartcrop.XXXXXX")
trap 'rm -rf "$work"' EXIT

shapes="small:486x486 medium:1032x486 large:1032x1098"
sources=("$photos"/*.jpg)

# size PNG: "W H" of an image.
size() { vipsheader -f width "$1" | tr '\n' ' '; vipsheader -f height "$1"; }

# The crops and fills, then every tool's window in its own fill.
: >"$work/pairs"
: >"$work/cases"
for source in "${sources[@]}"; do
  name=$(basename "$source" .jpg)
  for shape in $shapes; do
    label=${shape%%:*} box=${shape#*:}
    stem=$work/$name-$label
    "$imgcache" decode "$source" --size "$box" --mode crop --gravity smart -o "$stem-imgcache.png" >/dev/null || die 3 "imgcache failed on $name $box"
    "$imgcache" decode "$source" --size "$box" --mode fill -o "$stem-imgcache-fill.png" >/dev/null || die 3 "imgcache fill failed on $name $box"
    vipsthumbnail "$source" --size "$box" --smartcrop attention -o "$stem-vips.png" || die 3 "vipsthumbnail failed on $name $box"
    read -r fill_w fill_h < <(size "$stem-imgcache-fill.png")
    vips thumbnail "$source" "$stem-vips-fill.png" "$fill_w" --height "$fill_h" || die 3 "vips thumbnail failed on $name"
    for output in "$stem-imgcache.png" "$stem-vips.png"; do
      [ "$(size "$output")" = "${box/x/ }" ] || die 3 "$output is $(size "$output"), not $box"
    done
    echo "$stem-imgcache-fill.png $stem-imgcache.png $stem-vips-fill.png $stem-vips.png" >>"$work/pairs"
    echo "$name $label $box $(size "$source") $fill_w $fill_h $(size "$stem-vips-fill.png")" >>"$work/cases"
  done
done
# shellcheck disable=SC2046  # the pairs are paths without spaces (mktemp and the photo names)
"$python" Benchmarks/peers/crop_window.py $(cat "$work/pairs") >"$work/windows"

# Timing: the four commands over the whole set, taking turns.
run_set() {
  local tool=$1 gravity=$2 shape label box
  for source in "${sources[@]}"; do
    for shape in $shapes; do
      label=${shape%%:*} box=${shape#*:}
      case $tool in
        imgcache) "$imgcache" decode "$source" --size "$box" --mode crop --gravity "$gravity" -o "$work/t-$label.jpg" >/dev/null ;;
        vips) vipsthumbnail "$source" --size "$box" --smartcrop "$gravity" -o "$work/t-$label.jpg" ;;
      esac
    done
  done
}
TIMEFORMAT='%R %U %S'  # wall, user and system seconds of a set
commands=("imgcache smart" "imgcache center" "vips attention" "vips centre")
crops=$((${#sources[@]} * 3))
: >"$work/times"
for round in $(seq 1 "$rounds"); do
  for offset in 0 1 2 3; do
    command=${commands[$(((offset + round) % 4))]}
    # shellcheck disable=SC2086  # tool and gravity
    { time run_set $command; } 2>"$work/time"
    echo "$command $(cat "$work/time")" >>"$work/times"
  done
done

echo "# Smart crop: imgcache --gravity smart against vipsthumbnail --smartcrop attention"
echo
echo "- machine: $(machine); load before: $load_before, after: $(load_average)"
echo "- $($imgcache --version 2>&1 | head -n 1), $(vips --version)"
echo "- photos: $photos (synthetic: make-corpus.py --smartcrop), ${#sources[@]} photos x 3 widget shapes = $crops crops"
echo
"$python" Benchmarks/peers/smartcrop_report.py "$work/cases" "$work/windows" "$photos/subjects.json" "$work/times" "$crops"
