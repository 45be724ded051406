#!/usr/bin/env bash
# Peak memory (maximum resident set size) of imgcache's decode paths, against the cost of merely
# starting the tool. See Benchmarks/README.md for what each figure means.
#
#   Benchmarks/memory.sh [--report-only] [--runs N] [--limit-mb MB] [--no-build]
#
# Builds the release CLI, makes the two corpus files it needs (Benchmarks/make-corpus.py, in
# $IMGCACHE_BENCH_DIR, default ${TMPDIR:-/tmp}/imgcache-bench), runs each case N times (3) under
# /usr/bin/time -v and prints a markdown table on stdout (progress goes to stderr).
#
# Exit status: 0 all within the limit; 1 a case used more than the limit over the baseline (only
# without --report-only); 2 bad usage or a missing tool; 3 a command failed or wrote no output.
set -euo pipefail
export LC_ALL=C
# shellcheck source=Benchmarks/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

usage() { sed -n '2,13s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

report_only=0
runs=3
limit_mb=8
build=1
while [ $# -gt 0 ]; do
  case $1 in
    --report-only) report_only=1 ;;
    --runs) runs=${2:?--runs needs a number}; shift ;;
    --runs=*) runs=${1#*=} ;;
    --limit-mb) limit_mb=${2:?--limit-mb needs a number}; shift ;;
    --limit-mb=*) limit_mb=${1#*=} ;;
    --no-build) build=0 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "memory.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "memory.sh: --runs wants a positive whole number" >&2; exit 2; }
[[ $limit_mb =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "memory.sh: --limit-mb wants a number" >&2; exit 2; }

cd "$root"
need_gnu_time
build_cli "$build"  # IMGCACHE=... measures another build

photo="photo-6000x4000.jpg"
anim="anim-800x600x300.gif"
"$python" Benchmarks/make-corpus.py "$bench_dir" --only "$photo" --only "$anim" >&2

work=$(mktemp -d "${TMPDIR:-/tmp}/imgcache-memory.XXXXXX")
trap 'rm -rf "$work"' EXIT

# What a decode wrote: "WxH FORMAT[, N frames]", read back with Pillow.
describe() {
  "$python" - "$1" <<'EOF' 2>/dev/null || echo "unreadable"
import sys
from PIL import Image
with Image.open(sys.argv[1]) as im:
    n = getattr(im, "n_frames", 1)
    print(f"{im.size[0]}x{im.size[1]} {im.format}" + (f", {n} frames" if n > 1 else ""))
EOF
}

# measure OUTPUT -- COMMAND...: runs COMMAND $runs times; sets rss_kib (median), rss_all (every
# run, MiB), wall_s (median) and produced (what OUTPUT holds, or "-" for no OUTPUT).
measure() {
  local output=$1; shift 2
  local rss=() wall=() i t0 t1 kib
  for ((i = 1; i <= runs; i++)); do
    [ "$output" = - ] || rm -f "$output"
    t0=$EPOCHREALTIME
    if ! "$gnu_time" -v -o "$work/time.txt" "$@" >"$work/stdout" 2>"$work/stderr"; then
      echo "memory.sh: this command failed (run $i):" >&2
      echo "  $*" >&2
      sed 's/^/  | /' "$work/stderr" | tail -n 20 >&2
      exit 3
    fi
    t1=$EPOCHREALTIME
    kib=$(awk -F': *' '/Maximum resident set size/ { print $2 }' "$work/time.txt")
    [ -n "$kib" ] || { echo "memory.sh: no 'Maximum resident set size' from $gnu_time -v" >&2; exit 2; }
    rss+=("$kib")
    wall+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")
  done
  rss_kib=$(printf '%s\n' "${rss[@]}" | median)
  rss_all=$(printf '%s\n' "${rss[@]}" | awk '{ printf "%s%.1f", (NR > 1 ? " " : ""), $1 / 1024 }')
  wall_s=$(printf '%s\n' "${wall[@]}" | median)
  produced=-
  if [ "$output" != - ]; then
    if [ ! -s "$output" ]; then
      echo "memory.sh: $* exited 0 but wrote nothing to $output" >&2
      exit 3
    fi
    produced=$(describe "$output")
  fi
}

secs() { awk -v s="$1" 'BEGIN { printf "%.3f", s }'; }

rows=()
exceeded=0
run_case() {  # run_case NAME OUTPUT COMMAND...
  local name=$1 output=$2; shift 2
  echo "memory.sh: measuring $name ($runs runs)" >&2
  measure "$output" -- "$@"
  local shown="$*"
  shown=${shown//"$imgcache"/imgcache}
  shown=${shown//"$bench_dir/"/}
  shown=${shown//"$work/"/}
  if [ "$name" = baseline ]; then
    base_kib=$rss_kib
    rows+=("| $name | \`$shown\` | $(mib "$rss_kib") | $rss_all | - | $(secs "$wall_s") | - | - |")
    return
  fi
  local delta_kib verdict
  delta_kib=$(awk -v a="$rss_kib" -v b="$base_kib" 'BEGIN { print a - b }')
  if awk -v d="$delta_kib" -v l="$limit_mb" 'BEGIN { exit !(d > l * 1024) }'; then
    verdict="**no**"
    exceeded=1
  else
    verdict="yes"
  fi
  rows+=("| $name | \`$shown\` | $(mib "$rss_kib") | $rss_all | $(awk -v d="$delta_kib" 'BEGIN { printf "%+.1f", d / 1024 }') | $(secs "$wall_s") | $produced | $verdict |")
}

run_case baseline - "$imgcache" --version
run_case jpeg-24mp "$work/out.png" "$imgcache" decode "$bench_dir/$photo" --size 1014x474 -o "$work/out.png"
run_case gif-8-of-300 "$work/out.gif" "$imgcache" decode "$bench_dir/$anim" --size 510x510 --max-frames 8 -o "$work/out.gif"

version=$("$imgcache" --version 2>/dev/null | sed -n 1p || true)
commit=$(commit)
size_mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1e6 }'; }

echo "## imgcache peak memory"
echo
echo "- imgcache: ${version:-?} (commit $commit), $imgcache"
echo "- machine: $(nproc) cores, $(uname -sm), $(date -u +%Y-%m-%dT%H:%MZ)"
echo "- corpus: $bench_dir ($photo $(size_mb "$bench_dir/$photo") MB, $anim $(size_mb "$bench_dir/$anim") MB)"
echo "- peak RSS = \"Maximum resident set size\" of /usr/bin/time -v, median of $runs run(s); 1 MiB = 1024 KiB"
echo "- limit: at most $limit_mb MiB over the baseline$([ "$report_only" = 1 ] && echo " (report only: not enforced)")"
echo
echo "| case | command | peak RSS (MiB) | runs (MiB) | over baseline (MiB) | wall (s) | output | within limit |"
echo "|---|---|---:|---|---:|---:|---|---|"
printf '%s\n' "${rows[@]}"

if [ "$exceeded" = 1 ]; then
  if [ "$report_only" = 1 ]; then
    echo
    echo "memory.sh: a case exceeded the limit (not enforced: --report-only)" >&2
  else
    echo
    echo "memory.sh: a case used more than $limit_mb MiB over the baseline" >&2
    exit 1
  fi
fi
