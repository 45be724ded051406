#!/usr/bin/env bash
# A 24-megapixel photo-like WebP fitted into 1014x474 and written as JPEG: imgcache against
# vipsthumbnail, Pillow (`thumbnail`) and dwebp (libwebp's scaled decode alone, written as PPM),
# timed by hyperfine.
#
#   Benchmarks/webp.sh [--rounds R] [--runs N] [--no-build]
#
# The input, $IMGCACHE_BENCH_DIR/webp/harbour-6000x4000.webp, is made once: Samples/media/harbour.jpg
# upscaled to 6000x4000 by vipsthumbnail, then cwebp -q 80. The tools take turns: R rounds (3),
# each a hyperfine run of every tool (one warm-up, N measured runs, 5), the order shifted by one
# each round. Every output is read back with Pillow and must be 711x474 (to within a pixel).
# Prints a markdown report on stdout: the machine, the versions, the median, mean and minimum of
# each tool over every run with its ratio to imgcache, and whether imgcache beat vipsthumbnail.
#
# Environment: IMGCACHE (default .build/release/imgcache, built unless --no-build),
# IMGCACHE_BENCH_DIR (default ${TMPDIR:-/tmp}/imgcache-bench), PYTHON (with Pillow; python3).
# Exit status: 0 done (the target is reported, not enforced); 2 bad usage or a missing tool;
# 3 a tool failed or wrote a wrong output.
set -euo pipefail
export LC_ALL=C
# shellcheck source=Benchmarks/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

usage() { sed -n '2,20s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

rounds=3
runs=5
build=1
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=${2:?--rounds needs a number}; shift ;;
    --rounds=*) rounds=${1#*=} ;;
    --runs) runs=${2:?--runs needs a number}; shift ;;
    --runs=*) runs=${1#*=} ;;
    --no-build) build=0 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "webp.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
[[ $rounds =~ ^[1-9][0-9]*$ && $runs =~ ^[1-9][0-9]*$ ]] || die 2 "--rounds and --runs want positive whole numbers"

cd "$root"
for tool in hyperfine vipsthumbnail cwebp dwebp; do
  command -v "$tool" >/dev/null || die 2 "needs $tool (make setup)"
done
"$python" -c 'import PIL' 2>/dev/null || die 2 "$python cannot import PIL (make setup)"
build_cli "$build"

box=1014x474
fitted=711x474
input=$bench_dir/webp/harbour-6000x4000.webp
if [ ! -s "$input" ]; then
  echo "webp.sh: making $input" >&2
  mkdir -p "$bench_dir/webp"
  vipsthumbnail Samples/media/harbour.jpg --size 6000x4000 -o "$bench_dir/webp/harbour-6000x4000.png"
  cwebp -quiet -q 80 "$bench_dir/webp/harbour-6000x4000.png" -o "$input.partial"
  mv "$input.partial" "$input"
  rm "$bench_dir/webp/harbour-6000x4000.png"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/imgcache-webp.XXXXXX")
trap 'rm -rf "$work"' EXIT

tools=(imgcache vipsthumbnail pillow dwebp)
declare -A command=(
  [imgcache]="$imgcache decode $input --size $box -o $work/imgcache.jpg"
  [vipsthumbnail]="vipsthumbnail $input --size $box -o $work/vipsthumbnail.jpg[Q=85]"
  [pillow]="$python $root/Benchmarks/peers/pillow_thumbnail.py $input $work/pillow.jpg $box --quality 85"
  [dwebp]="dwebp -quiet $input -scale ${fitted/x/ } -ppm -o $work/dwebp.ppm"
)

for round in $(seq 0 $((rounds - 1))); do
  order=("${tools[@]:$((round % ${#tools[@]}))}" "${tools[@]:0:$((round % ${#tools[@]}))}")
  arguments=()
  for tool in "${order[@]}"; do arguments+=(--command-name "$tool" "${command[$tool]}"); done
  echo "webp.sh: round $((round + 1)) of $rounds: ${order[*]}" >&2
  hyperfine -N --style none --warmup 1 --runs "$runs" --export-json "$work/round-$round.json" "${arguments[@]}" >&2 ||
    die 3 "a tool failed (run its command by hand: ${command[imgcache]})"
done

for tool in "${tools[@]}"; do
  output=$(ls "$work/$tool".*)
  size=$("$python" -c 'import sys; from PIL import Image; print("%dx%d" % Image.open(sys.argv[1]).size)' "$output")
  awk -v a="$size" -v b="$fitted" 'BEGIN { split(a, x, "x"); split(b, y, "x")
    exit !((x[1] - y[1]) ^ 2 <= 1 && (x[2] - y[2]) ^ 2 <= 1) }' || die 3 "$tool wrote $size, expected $fitted"
done

echo "## WebP: 24 MP photo to fit $box, JPEG out"
echo
echo "- machine: $(machine); load average $(load_average)"
echo "- commit $(commit); $(first_line vipsthumbnail --vips-version); libwebp $(dwebp -version); Pillow $("$python" -c 'import PIL; print(PIL.__version__)'); $(first_line hyperfine --version)"
echo "- input: $(basename "$input") ($(stat -c %s "$input") bytes), $rounds rounds of $runs runs a tool, taking turns"
echo
"$python" - "$work" "${tools[@]}" <<'PYTHON'
import json, statistics, sys, glob
folder, tools = sys.argv[1], sys.argv[2:]
times = {tool: [] for tool in tools}
for path in sorted(glob.glob(f"{folder}/round-*.json")):
    for result in json.load(open(path))["results"]:
        times[result["command"]] += result["times"]
base = statistics.median(times["imgcache"])
print("| tool | median s | mean s | min s | runs | median vs imgcache |")
print("| --- | ---: | ---: | ---: | ---: | ---: |")
for tool in tools:
    t = times[tool]
    print(f"| {tool} | {statistics.median(t):.3f} | {statistics.mean(t):.3f} | {min(t):.3f} | {len(t)} | {statistics.median(t) / base:.2f}x |")
vips = statistics.median(times["vipsthumbnail"])
verdict = "met" if base < vips else "missed"
print(f"\nTarget (imgcache faster than vipsthumbnail): {verdict}, {base:.3f} s against {vips:.3f} s.")
PYTHON
echo
echo "- load average after: $(load_average)"
