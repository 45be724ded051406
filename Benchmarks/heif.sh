#!/usr/bin/env bash
# HEIC and AVIF to an iPhone 16 Pro's medium widget (1032x486, a centre crop, JPEG q85): imgcache
# against vipsthumbnail and Pillow with pillow-heif, wall time and peak RSS of each process.
#
#   Benchmarks/heif.sh [--rounds R] [--no-build]
#
# Inputs, made once in $IMGCACHE_BENCH_DIR/heif/: a 12 MP HEIC like a phone's (4032x3024 in
# 512x512 tiles, a photo-like picture written by Tests/Scripts/make_heic.py), a 4K AVIF
# (Samples/media/harbour.jpg enlarged to 3840x2160 by vipsthumbnail, avifenc's defaults but 4:2:0) and a
# 48 MP HEIC (8064x6048, tiled, as an iPhone's "HEIF Max"). The tools take turns: R rounds (5),
# each running every tool once on every input, the order shifted by one each round. Each run is
# timed by GNU time (wall seconds and maximum resident set). Every output is read back with Pillow and must be 1032x486; on the
# 48 MP input imgcache may instead refuse with exit 5 (over its limits), reported as such.
# Prints a markdown report on stdout: medians of wall time and peak RSS per tool and input, the
# ratios to vipsthumbnail, and the issue's targets (time <= 1.0x vipsthumbnail, RSS <= 0.6x; the
# 48 MP HEIC within 160 MiB or refused).
#
# Environment: IMGCACHE (default .build/release/imgcache, built unless --no-build),
# IMGCACHE_BENCH_DIR (default ${TMPDIR:-/tmp}/imgcache-bench), PYTHON (with Pillow and
# pillow_heif; python3).
# Exit status: 0 done (targets are reported, not enforced); 2 bad usage or a missing tool;
# 3 a tool failed or wrote a wrong output.
set -euo pipefail
export LC_ALL=C
# shellcheck source=Benchmarks/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

usage() { sed -n '2,24s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

rounds=5
build=1
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=${2:?--rounds needs a number}; shift ;;
    --rounds=*) rounds=${1#*=} ;;
    --no-build) build=0 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "heif.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die 2 "--rounds wants a positive whole number"

cd "$root"
for tool in vipsthumbnail avifenc; do
  command -v "$tool" >/dev/null || die 2 "needs $tool (make setup)"
done
need_gnu_time
"$python" -c 'import PIL, pillow_heif' 2>/dev/null || die 2 "$python cannot import PIL and pillow_heif (make setup)"
build_cli "$build"

box=1032x486
folder=$bench_dir/heif
mkdir -p "$folder"

# enlarged WIDTH HEIGHT: harbour.jpg covering WIDTHxHEIGHT (a centre crop) as PNG; prints its path.
enlarged() {
  local png=$folder/harbour-$1x$2.png
  [ -s "$png" ] || vipsthumbnail Samples/media/harbour.jpg --size "$1x$2" --smartcrop centre -o "$png"
  echo "$png"
}

# make_input NAME COMMAND...: runs COMMAND (writing $folder/NAME.partial) once, then keeps NAME.
make_input() {
  local name=$1
  shift
  [ -s "$folder/$name" ] && return
  echo "heif.sh: making $folder/$name" >&2
  "$@" || die 3 "could not make $name"
  mv "$folder/$name.partial" "$folder/$name"
}

make_input phone-4032x3024.heic "$python" Tests/Scripts/make_heic.py 4032 3024 512 "$folder/phone-4032x3024.heic.partial"
make_input harbour-3840x2160.avif avifenc --jobs 2 --yuv 420 "$(enlarged 3840 2160)" -o "$folder/harbour-3840x2160.avif.partial"
make_input phone-8064x6048.heic "$python" Tests/Scripts/make_heic.py 8064 6048 512 "$folder/phone-8064x6048.heic.partial"

inputs=(phone-4032x3024.heic harbour-3840x2160.avif phone-8064x6048.heic)
tools=(imgcache vipsthumbnail pillow)

work=$(mktemp -d "${TMPDIR:-/tmp}/imgcache-heif.XXXXXX")
trap 'rm -rf "$work"' EXIT

# run TOOL INPUT ROUND: one timed run; appends "tool input wall_s rss_kib status" to $work/runs.
run() {
  local tool=$1 input=$folder/$2 output=$work/$1-$3.jpg status=0
  local -a command
  case $tool in
    imgcache) command=("$imgcache" decode "$input" --device "iPhone 16 Pro" --widget medium -o "$output") ;;
    vipsthumbnail) command=(vipsthumbnail "$input" --size "$box" --smartcrop centre -o "$output[Q=85]") ;;
    pillow) command=("$python" Benchmarks/peers/pillow_fill.py "$input" "$output" "$box") ;;
  esac
  "$gnu_time" -f '%e %M' -o "$work/time" "${command[@]}" >"$work/stdout" 2>"$work/stderr" || status=$?
  if [ "$status" = 0 ]; then
    size=$("$python" -c 'import sys; from PIL import Image; print("%dx%d" % Image.open(sys.argv[1]).size)' "$output")
    [ "$size" = "$box" ] || die 3 "$tool wrote $size from $2, expected $box"
  elif ! { [ "$tool" = imgcache ] && [ "$status" = 5 ]; }; then
    die 3 "$tool failed on $2 (exit $status): $(tail -n 3 "$work/stderr")"
  fi
  rm -f "$output"
  echo "$tool $2 $(tail -n 1 "$work/time") $status" >>"$work/runs"
}

for round in $(seq 0 $((rounds - 1))); do
  order=("${tools[@]:$((round % ${#tools[@]}))}" "${tools[@]:0:$((round % ${#tools[@]}))}")
  echo "heif.sh: round $((round + 1)) of $rounds: ${order[*]}" >&2
  for input in "${inputs[@]}"; do
    for tool in "${order[@]}"; do run "$tool" "$input" "$round"; done
  done
done

echo "## HEIC and AVIF to an iPhone 16 Pro medium widget ($box, centre crop, JPEG q85)"
echo
echo "- machine: $(machine); load average $(load_average)"
echo "- commit $(commit); $(first_line vipsthumbnail --vips-version); libheif $(dpkg-query -W -f='${Version}' libheif1 2>/dev/null); libavif $(dpkg-query -W -f='${Version}' libavif15 2>/dev/null); Pillow $("$python" -c 'import PIL; print(PIL.__version__)'), pillow-heif $("$python" -c 'import pillow_heif; print(pillow_heif.__version__)')"
echo "- inputs: $(for input in "${inputs[@]}"; do printf '%s (%s bytes) ' "$input" "$(stat -c %s "$folder/$input")"; done)"
echo "- $rounds rounds, every tool once per input per round, taking turns; medians of GNU time's wall seconds and maximum RSS"
echo
"$python" - "$work/runs" "${tools[*]}" "${inputs[*]}" <<'PYTHON'
import statistics, sys
runs, tools, inputs = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
seen = {}
for line in open(runs):
    tool, source, wall, rss, status = line.split()
    seen.setdefault((tool, source), []).append((float(wall), int(rss) / 1024, int(status)))
print("| input | tool | median s | peak RSS MiB | time vs vipsthumbnail | RSS vs vipsthumbnail | refused |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
verdicts = []
for source in inputs:
    vips = seen[("vipsthumbnail", source)]
    vips_wall, vips_rss = statistics.median(r[0] for r in vips), statistics.median(r[1] for r in vips)
    for tool in tools:
        rows = seen[(tool, source)]
        wall, rss = statistics.median(r[0] for r in rows), statistics.median(r[1] for r in rows)
        refused = sum(1 for r in rows if r[2] == 5)
        print(f"| {source} | {tool} | {wall:.3f} | {rss:.1f} | {wall / vips_wall:.2f}x | {rss / vips_rss:.2f}x | {refused} of {len(rows)} |")
        if tool != "imgcache":
            continue
        if source.startswith("phone-8064"):
            peak = max(r[1] for r in rows)
            verdicts.append(f"48 MP HEIC within 160 MiB or refused: {'met' if peak <= 160 else 'missed'} (highest peak {peak:.1f} MiB, {refused} refused)")
        else:
            ok = wall <= vips_wall and rss <= 0.6 * vips_rss
            verdicts.append(f"{source}: time <= 1.0x and RSS <= 0.6x vipsthumbnail: {'met' if ok else 'missed'} ({wall / vips_wall:.2f}x, {rss / vips_rss:.2f}x)")
print()
for verdict in verdicts:
    print(f"- {verdict}")
PYTHON
echo
echo "- load average after: $(load_average)"
