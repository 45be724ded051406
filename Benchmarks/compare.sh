#!/usr/bin/env bash
# imgcache's CLI against other thumbnailers on the benchmark corpus: wall time and peak RSS.
#
#   Benchmarks/compare.sh [--runs N] [--case NAME]... [--no-build] [--list]
#
# For each case every tool runs once to warm up, then N more times (5), the tools taking turns
# within each round (round-robin, starting one later each round). Each run is timed from the
# shell's clock and measured with /usr/bin/time -v (peak RSS, CPU). Every output is read back
# with Pillow and must have the expected format, size (to within a pixel) and frame count, or
# the tool is shown as failed. Prints a markdown report on stdout: the machine, the tools'
# versions, a table of medians with each tool's ratio to imgcache, and the issue's targets.
#
# Environment: IMGCACHE (the CLI to measure; default .build/release/imgcache, built unless
# --no-build), IMGCACHE_BENCH_DIR (corpus; default ${TMPDIR:-/tmp}/imgcache-bench), CONVERT
# (ImageMagick's convert; default convert), PYTHON (with Pillow; default python3).
# Exit status: 0 done (targets are reported, not enforced); 2 bad usage or a missing tool;
# 3 imgcache itself failed or wrote a wrong output.
set -euo pipefail
export LC_ALL=C
# shellcheck source=Benchmarks/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

usage() { sed -n '2,18s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

# Case definitions. Sizes are the corpus files' (Benchmarks/make-corpus.py); animations keep 8 frames.
all_cases=(jpeg-24mp png-rgba gif-8-of-300 jpeg-12mp gif-8-of-120)
declare -A input=(
  [jpeg-24mp]=photo-6000x4000.jpg [jpeg-12mp]=photo-4000x3000.jpg [png-rgba]=rgba-4000x3000.png
  [gif-8-of-300]=anim-800x600x300.gif [gif-8-of-120]=anim-500x500x120.gif
)
declare -A source_size=(
  [jpeg-24mp]=6000x4000 [jpeg-12mp]=4000x3000 [png-rgba]=4000x3000 [gif-8-of-300]=800x600 [gif-8-of-120]=500x500
)
declare -A box=([jpeg-24mp]=1014x474 [jpeg-12mp]=510x510 [png-rgba]=1014x474 [gif-8-of-300]=510x510 [gif-8-of-120]=510x510)
declare -A ext=([jpeg-24mp]=jpg [jpeg-12mp]=jpg [png-rgba]=png [gif-8-of-300]=gif [gif-8-of-120]=gif)
declare -A tools=(
  [jpeg-24mp]="imgcache vipsthumbnail convert pillow djpeg"
  [jpeg-12mp]="imgcache vipsthumbnail convert pillow djpeg"
  [png-rgba]="imgcache vipsthumbnail convert pillow"
  [gif-8-of-300]="imgcache gifsicle vipsthumbnail convert pillow"
  [gif-8-of-120]="imgcache gifsicle vipsthumbnail convert pillow"
)
# The floor: libjpeg-turbo's decode alone, at the DCT scale imgcache's decoder picks for the case
# (the largest of 1/8, 1/4, 1/2 that leaves at least twice the output size).
declare -A djpeg_denominator=([jpeg-24mp]=4 [jpeg-12mp]=2)
frames_kept=8

runs=5
build=1
selected=()
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=${2:?--runs needs a number}; shift ;;
    --runs=*) runs=${1#*=} ;;
    --case) selected+=("${2:?--case needs a name}"); shift ;;
    --case=*) selected+=("${1#*=}") ;;
    --no-build) build=0 ;;
    --list) printf '%s\n' "${all_cases[@]}"; exit 0 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "compare.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "compare.sh: --runs wants a positive whole number" >&2; exit 2; }
[ ${#selected[@]} -gt 0 ] || selected=("${all_cases[@]}")
for c in "${selected[@]}"; do
  [ -n "${input[$c]:-}" ] || { echo "compare.sh: no case '$c' (--list shows them)" >&2; exit 2; }
done

cd "$root"
convert=${CONVERT:-convert}
pillow_peer=$root/Benchmarks/peers/pillow_thumbnail.py

need_gnu_time
"$python" -c 'import PIL' 2>/dev/null || die 2 "$python cannot import PIL (make setup)"
build_cli "$build"

corpus_args=()
for c in "${selected[@]}"; do corpus_args+=(--only "${input[$c]}"); done
"$python" Benchmarks/make-corpus.py "$bench_dir" "${corpus_args[@]}" >&2

work=$(mktemp -d "${TMPDIR:-/tmp}/imgcache-compare.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The executable a tool name runs, for the "is it installed" check.
executable() {
  case $1 in
    imgcache) echo "$imgcache" ;;
    vipsthumbnail | gifsicle | djpeg) echo "$1" ;;
    convert) echo "$convert" ;;
    pillow) echo "$python" ;;
  esac
}

# command_for CASE TOOL RUN: sets `cmd` (the command line) and `out` (the file it writes).
# Every tool writes the case's format with the same settings where the tool has them: JPEG at
# quality 85 with optimised Huffman tables (imgcache's defaults), PNG at zlib level 6 with adaptive
# row filters; geometry is "fit inside, never enlarge". djpeg writes PPM: it only decodes.
command_for() {
  local c=$1 tool=$2 in=$bench_dir/${input[$1]} b=${box[$1]} e=${ext[$1]}
  out=$work/$c/$tool-$3.$e
  case $tool in
    imgcache)
      cmd=("$imgcache" decode "$in" --size "$b" -o "$out")
      [ "$e" != gif ] || cmd+=(--max-frames "$frames_kept") ;;
    vipsthumbnail)
      local source=$in options=""
      [ "$e" != gif ] || source="${in}[n=$frames_kept]"
      [ "$e" != jpg ] || options="[Q=85,optimize-coding]"
      [ "$e" != png ] || options="[compression=6,filter=all]"
      cmd=(vipsthumbnail "$source" -s "$b>" -o "$out$options") ;;
    convert)
      case $e in
        jpg) cmd=("$convert" -define "jpeg:size=$(jpeg_size_hint "$c")" "$in" -thumbnail "$b>"
                  -quality 85 -define jpeg:optimize-coding=true "$out") ;;
        png) cmd=("$convert" "$in" -thumbnail "$b>" -define png:compression-level=6 "$out") ;;
        gif) cmd=("$convert" "${in}[0-$((frames_kept - 1))]" -coalesce -thumbnail "$b>" "$out") ;;
      esac ;;
    pillow) cmd=("$python" "$pillow_peer" "$in" "$out" "$b" --frames "$frames_kept" --quality 85) ;;
    gifsicle) cmd=(gifsicle --resize-fit "$b" "$in" "#0-$((frames_kept - 1))" -o "$out") ;;
    djpeg)
      out=${out%.*}.ppm
      cmd=(djpeg -scale "1/${djpeg_denominator[$c]}" -outfile "$out" "$in") ;;
  esac
}

# fitted SOURCE BOX: the "fit inside, never enlarge" size, rounded half away from zero.
fitted() {
  awk -v s="$1" -v b="$2" 'BEGIN {
    split(s, sv, "x"); split(b, bv, "x")
    k = bv[1] / sv[1]; if (bv[2] / sv[2] < k) k = bv[2] / sv[2]; if (k > 1) k = 1
    printf "%dx%d", int(sv[1] * k + 0.5), int(sv[2] * k + 0.5) }'
}

# ImageMagick's jpeg:size hint: twice the fitted size.
jpeg_size_hint() {
  local f; f=$(fitted "${source_size[$1]}" "${box[$1]}")
  echo "$((2 * ${f%x*}))x$((2 * ${f#*x}))"
}

# expected CASE TOOL: "WxH FORMAT FRAMES" a correct output holds.
expected() {
  local c=$1 s=${source_size[$1]}
  if [ "$2" = djpeg ]; then
    local d=${djpeg_denominator[$c]}
    echo "$(((${s%x*} + d - 1) / d))x$(((${s#*x} + d - 1) / d)) PPM 1"
    return
  fi
  local format frames=1
  case ${ext[$c]} in jpg) format=JPEG ;; png) format=PNG ;; gif) format=GIF; frames=$frames_kept ;; esac
  echo "$(fitted "$s" "${box[$c]}") $format $frames"
}

# check_outputs EXPECTED FILE...: prints "ok FORMAT WxH FRAMES" for the last file when every file
# is right, else what is wrong with the first bad one. A size may be off by one pixel per side
# (tools round 382.5 either way).
check_outputs() {
  "$python" - "$@" <<'EOF'
import sys
from PIL import Image
size, fmt, frames = sys.argv[1].split()
want_w, want_h = map(int, size.split("x"))
for path in sys.argv[2:]:
    try:
        with Image.open(path) as im:
            got = (im.size[0], im.size[1], im.format, getattr(im, "n_frames", 1))
    except Exception as error:
        print(f"unreadable output ({error.__class__.__name__})")
        sys.exit()
    if abs(got[0] - want_w) > 1 or abs(got[1] - want_h) > 1 or got[2] != fmt or got[3] != int(frames):
        print(f"wrote {got[0]}x{got[1]} {got[2]} x{got[3]}, expected {size} {fmt} x{frames}")
        sys.exit()
print(f"ok {got[2]} {got[0]}x{got[1]} {got[3]}")
EOF
}

declare -A wall rss cpu failure outputs produced
# run_once CASE TOOL RUN: runs the tool once; a measured run (RUN > 0) records wall, RSS and CPU.
run_once() {
  local c=$1 tool=$2 run=$3 key=$1/$2 t0 t1 status=0
  command_for "$c" "$tool" "$run"
  rm -f "$out"
  t0=$EPOCHREALTIME
  "$gnu_time" -v -o "$work/time.txt" "${cmd[@]}" >"$work/stdout" 2>"$work/stderr" || status=$?
  t1=$EPOCHREALTIME
  if [ "$status" != 0 ]; then
    failure[$key]="exit $status: $(sed -n '/./{p;q}' "$work/stderr" | cut -c 1-80)"
    return
  fi
  if [ ! -s "$out" ]; then
    failure[$key]="exit 0 but no output"
    return
  fi
  [ "$run" -gt 0 ] || return 0
  wall[$key]+="$(seconds_between "$t0" "$t1") "
  rss[$key]+="$(awk -F': *' '/Maximum resident set size/ { print $2 }' "$work/time.txt") "
  cpu[$key]+="$(awk -F': *' '/User time|System time/ { s += $2 } END { printf "%.3f", s }' "$work/time.txt") "
  outputs[$key]+="$out "
}

load_before=$(load_average)
started=$(date -u +%Y-%m-%dT%H:%MZ)
for c in "${selected[@]}"; do
  mkdir -p "$work/$c"
  read -ra case_tools <<<"${tools[$c]}"
  for tool in "${case_tools[@]}"; do
    command -v "$(executable "$tool")" >/dev/null || failure[$c/$tool]="not installed"
  done
  echo "compare.sh: $c: ${case_tools[*]} (1 warm-up + $runs runs each)" >&2
  n=${#case_tools[@]}
  for ((run = 0; run <= runs; run++)); do
    for ((i = 0; i < n; i++)); do
      tool=${case_tools[$(((run + i) % n))]}
      [ -n "${failure[$c/$tool]:-}" ] || run_once "$c" "$tool" "$run"
    done
  done
  for tool in "${case_tools[@]}"; do
    key=$c/$tool
    [ -z "${failure[$key]:-}" ] || continue
    read -ra files <<<"${outputs[$key]}"
    verdict=$(check_outputs "$(expected "$c" "$tool")" "${files[@]}")
    if [[ $verdict == ok* ]]; then
      read -r _ format size frames <<<"$verdict"
      produced[$key]="$format $size$([ "$frames" = 1 ] || echo " x$frames"), $(($(stat -c %s "${files[-1]}") / 1024)) KiB"
    else
      failure[$key]=$verdict
    fi
  done
done
load_after=$(load_average)

# Medians per case and tool.
declare -A med_wall med_rss med_cpu
for c in "${selected[@]}"; do
  for tool in ${tools[$c]}; do
    key=$c/$tool
    [ -z "${failure[$key]:-}" ] || continue
    med_wall[$key]=$(tr ' ' '\n' <<<"${wall[$key]}" | median)
    med_rss[$key]=$(tr ' ' '\n' <<<"${rss[$key]}" | median)
    med_cpu[$key]=$(tr ' ' '\n' <<<"${cpu[$key]}" | median)
  done
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
# shown WORD...: the command as one line to copy, quoting words the shell would read differently,
# with the machine's paths shortened.
shown() {
  local word text=""
  for word in "$@"; do
    [[ $word =~ ^[A-Za-z0-9_./:=,+@%-]+$ ]] || word="'$word'"
    text+="${text:+ }$word"
  done
  text=${text//"$imgcache"/imgcache}
  text=${text//"$pillow_peer"/peers/pillow_thumbnail.py}
  text=${text//"$bench_dir/"/}
  text=${text//"$work/"/}
  echo "$text"
}

declare -A title=(
  [jpeg-24mp]="JPEG 6000x4000 -> fit 1014x474, JPEG" [jpeg-12mp]="JPEG 4000x3000 -> fit 510x510, JPEG"
  [png-rgba]="PNG RGBA 4000x3000 -> fit 1014x474, PNG" [gif-8-of-300]="GIF 800x600 x300 -> first 8 frames fit 510x510, GIF"
  [gif-8-of-120]="GIF 500x500 x120 -> first 8 frames fit 510x510, GIF"
)

echo "## imgcache against other thumbnailers"
echo
echo "- date: $started (UTC)"
echo "- machine: $(machine)"
echo "- load average (1, 5, 15 min): $load_before before, $load_after after"
echo "- imgcache: $(first_line "$imgcache" --version), $imgcache (checkout at commit $(commit))"
echo "- peers: libvips $(first_line vipsthumbnail --vips-version | sed 's/^libvips //'), $(first_line "$convert" -version | sed 's/^Version: //; s/ https.*//'), $(first_line gifsicle --version | sed 's/^LCDF //'), $(first_line djpeg -version | sed 's/ (build.*//'), Pillow $("$python" -c 'import PIL; print(PIL.__version__)') on Python $("$python" -c 'import platform; print(platform.python_version())')"
echo "- method: per case, 1 warm-up + $runs measured runs of each tool, taking turns (round-robin); medians of wall time (shell clock, process start to exit) and peak RSS (/usr/bin/time -v); CPU = user + system; ratio = tool / imgcache (above 1: imgcache is faster or smaller)"
echo "- corpus: $bench_dir (Benchmarks/make-corpus.py)"
echo
echo "| case | tool | wall (s) | wall runs (s) | wall ratio | peak RSS (MiB) | RSS ratio | CPU (s) | output |"
echo "|---|---|---:|---|---:|---:|---:|---:|---|"
imgcache_failed=0
for c in "${selected[@]}"; do
  base=$c/imgcache
  label=${title[$c]}  # on the case's first row only
  for tool in ${tools[$c]}; do
    key=$c/$tool
    if [ -n "${failure[$key]:-}" ]; then
      echo "| $label | $tool | failed | | | | | | ${failure[$key]//|//} |"
      label=""
      [ "$tool" != imgcache ] || imgcache_failed=1
      continue
    fi
    wall_ratio=- rss_ratio=-
    if [ -z "${failure[$base]:-}" ]; then
      wall_ratio=$(ratio "${med_wall[$key]}" "${med_wall[$base]}")
      rss_ratio=$(ratio "${med_rss[$key]}" "${med_rss[$base]}")
    fi
    runs_shown=$(tr ' ' '\n' <<<"${wall[$key]}" | grep . | awk '{ printf "%s%.3f", (NR > 1 ? " " : ""), $1 }')
    printf '| %s | %s | %.3f | %s | %s | %s | %s | %.3f | %s |\n' "$label" "$tool" "${med_wall[$key]}" \
      "$runs_shown" "$wall_ratio" "$(mib "${med_rss[$key]}")" "$rss_ratio" "${med_cpu[$key]}" "${produced[$key]}"
    label=""
  done
done

echo
echo "Commands (inputs in the corpus folder, outputs in a temporary folder):"
echo
for c in "${selected[@]}"; do
  for tool in ${tools[$c]}; do
    command_for "$c" "$tool" 1
    echo "- $c, $tool: \`$(shown "${cmd[@]}")\`"
  done
done

# target CASE TOOL LIMIT WHAT: a row comparing imgcache's WHAT (wall or rss) to LIMIT x TOOL's.
target() {
  local c=$1 tool=$2 limit=$3 what=$4 name
  name="${title[$c]}: imgcache $what <= $limit x $tool"
  local -n medians=med_$what
  if [ -z "${medians[$c/imgcache]:-}" ] || [ -z "${medians[$c/$tool]:-}" ]; then
    echo "| $name | - | not measured |"
    return
  fi
  local r; r=$(ratio "${medians[$c/imgcache]}" "${medians[$c/$tool]}")
  echo "| $name | ${r}x | $(awk -v r="$r" -v l="$limit" 'BEGIN { print (r <= l ? "met" : "**missed**") }') |"
}

echo
echo "Targets (imgcache / peer, medians of this run):"
echo
echo "| target | imgcache / peer | verdict |"
echo "|---|---:|---|"
for c in "${selected[@]}"; do
  case $c in
    jpeg-24mp) target "$c" vipsthumbnail 0.6 wall; target "$c" djpeg 1.2 wall; target "$c" vipsthumbnail 1.0 rss ;;
    gif-8-of-300) target "$c" gifsicle 0.3 wall ;;
    png-rgba) target "$c" vipsthumbnail 0.8 wall ;;
  esac
done

[ "$imgcache_failed" = 0 ] || { echo "compare.sh: imgcache failed a case (see the table)" >&2; exit 3; }
