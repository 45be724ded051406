#!/usr/bin/env bash
# A disk hit against finding the file: `imgcache fetch` of a stored 8-frame GIF variant against
# `imgcache cache path` of its original, in a cache of 600 entries, timed by hyperfine.
#
#   Benchmarks/disk-hit.sh [--rounds R] [--runs N] [--baseline BIN] [--no-build]
#
# The cache: Samples/media/spinner.gif (480x480, 36 frames) under 300 local paths, prefetched as
# file URLs to 160x160 with --max-frames 8 (300 originals and 300 variants of 8 frames) into a
# fresh folder. The commands take turns: R rounds (7), each a hyperfine run of every command (one
# warm-up, N measured runs, 10), the order shifted by one each round. With --baseline, another
# imgcache binary (an older build, say) is measured in the same rounds, on a cache folder of its
# own made by its own prefetch, so that before and after come from one run. Before timing, each
# fetch is checked to be a disk hit of 8 frames, and, when strace is installed, each command's
# fsync and fdatasync calls are counted over one run.
# Prints a markdown report on stdout: the machine, the median, mean and minimum of each command,
# each binary's hit against its `cache path`, and whether that is within the target of 1.2x.
#
# Environment: IMGCACHE (default .build/release/imgcache, built unless --no-build),
# PYTHON (python3). Everything goes to a temporary folder removed at exit.
# Exit status: 0 done (the target is reported, not enforced); 2 bad usage or a missing tool;
# 3 a command failed or a fetch was not a disk hit.
set -euo pipefail
export LC_ALL=C
# shellcheck source=Benchmarks/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

usage() { sed -n '2,21s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

rounds=7
runs=10
baseline=""
build=1
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=${2:?--rounds needs a number}; shift ;;
    --rounds=*) rounds=${1#*=} ;;
    --runs) runs=${2:?--runs needs a number}; shift ;;
    --runs=*) runs=${1#*=} ;;
    --baseline) baseline=${2:?--baseline needs a binary}; shift ;;
    --baseline=*) baseline=${1#*=} ;;
    --no-build) build=0 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "disk-hit.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
[[ $rounds =~ ^[1-9][0-9]*$ && $runs =~ ^[1-9][0-9]*$ ]] || die 2 "--rounds and --runs want positive whole numbers"
[ -z "$baseline" ] || [ -x "$baseline" ] || die 2 "--baseline $baseline is not an executable"

cd "$root"
command -v hyperfine >/dev/null || die 2 "needs hyperfine (make setup)"
build_cli "$build"
load_before=$(load_average)

work=$(mktemp -d "${TMPDIR:-/tmp}/imgcache-disk-hit.XXXXXX")
trap 'rm -rf "$work"' EXIT

sources=300
size=160x160
frames=8
mkdir -p "$work/src"
cp Samples/media/spinner.gif "$work/spinner.gif"
for i in $(seq "$sources"); do ln "$work/spinner.gif" "$work/src/s$i.gif"; done
seq "$sources" | sed "s|^|$work/src/s|; s|$|.gif|" >"$work/list.txt"
hit=$work/src/s$((sources / 2)).gif

# binaries: label and path of each imgcache measured, each with its own cache folder.
labels=(current)
declare -A binary=([current]=$imgcache)
if [ -n "$baseline" ]; then
  labels+=(baseline)
  binary[baseline]=$baseline
fi

declare -A command=()
names=()
for label in "${labels[@]}"; do
  cache=$work/cache-$label
  echo "disk-hit.sh: $label: prefetching $sources GIFs into $cache" >&2
  "${binary[$label]}" prefetch "$work/list.txt" --size "$size" --max-frames "$frames" --cache-dir "$cache" >"$work/prefetch-$label.txt" ||
    die 3 "$label: the prefetch failed: $(cat "$work/prefetch-$label.txt")"
  entries=$("${binary[$label]}" cache stats --json --cache-dir "$cache" | "$python" -c 'import json, sys; print(json.load(sys.stdin)["entries"])')
  [ "$entries" = $((2 * sources)) ] || die 3 "$label: the cache holds $entries entries, expected $((2 * sources))"
  report=$("${binary[$label]}" fetch "$hit" --size "$size" --max-frames "$frames" --cache-dir "$cache" --json) ||
    die 3 "$label: the fetch failed"
  "$python" -c 'import json, sys; r = json.loads(sys.argv[1]); sys.exit(not (r["cache"] == "disk" and r["frames"] == int(sys.argv[2])))' \
    "$report" "$frames" || die 3 "$label: the fetch was not a disk hit of $frames frames: $report"
  command["$label fetch"]="${binary[$label]} fetch $hit --size $size --max-frames $frames --cache-dir $cache"
  command["$label cache path"]="${binary[$label]} cache path file://$hit --cache-dir $cache"
  names+=("$label fetch" "$label cache path")
done

# The fsync and fdatasync calls of one run of each command ("-" without strace).
declare -A synced=()
for name in "${names[@]}"; do
  synced[$name]=-
  command -v strace >/dev/null || continue
  # shellcheck disable=SC2086  # the command is words
  strace -f -qq -e trace=fsync,fdatasync -o "$work/strace.txt" ${command[$name]} >/dev/null || die 3 "$name failed under strace"
  synced[$name]=$(grep -c -E '^([0-9]+ +)?f(data)?sync\(' "$work/strace.txt" || true)
done

for round in $(seq 0 $((rounds - 1))); do
  shift_by=$((round % ${#names[@]}))
  order=("${names[@]:$shift_by}" "${names[@]:0:$shift_by}")
  arguments=()
  for name in "${order[@]}"; do arguments+=(--command-name "$name" "${command[$name]}"); done
  echo "disk-hit.sh: round $((round + 1)) of $rounds: ${order[*]}" >&2
  hyperfine -N --style none --warmup 1 --runs "$runs" --export-json "$work/round-$round.json" "${arguments[@]}" >&2 ||
    die 3 "a command failed (run it by hand: ${command[current fetch]})"
done

echo "## Disk hit: fetch of a stored $frames-frame GIF variant against cache path"
echo
echo "- machine: $(machine); load average $load_before"
echo "- commit $(commit); $(first_line hyperfine --version)${baseline:+; baseline $baseline}"
echo "- cache: $((2 * sources)) entries ($sources originals of $(stat -L -c %s Samples/media/spinner.gif) bytes, $sources variants $size); $rounds rounds of $runs runs a command, taking turns"
echo
syncs_list=()
for name in "${names[@]}"; do syncs_list+=("$name=${synced[$name]}"); done
"$python" - "$work" "${syncs_list[@]}" <<'PYTHON'
import json, statistics, sys, glob
folder, syncs = sys.argv[1], dict(item.split("=", 1) for item in sys.argv[2:])
times = {}
for path in sorted(glob.glob(f"{folder}/round-*.json")):
    for result in json.load(open(path))["results"]:
        times.setdefault(result["command"], []).extend(result["times"])
print("| command | median ms | mean ms | min ms | runs | fsync + fdatasync |")
print("| --- | ---: | ---: | ---: | ---: | ---: |")
for name in syncs:
    t = [1000 * s for s in times[name]]
    print(f"| {name} | {statistics.median(t):.1f} | {statistics.mean(t):.1f} | {min(t):.1f} | {len(t)} | {syncs[name]} |")
print()
for label in dict.fromkeys(name.split(" ")[0] for name in syncs):
    hit, path = statistics.median(times[f"{label} fetch"]), statistics.median(times[f"{label} cache path"])
    verdict = "met" if hit <= 1.2 * path else "missed"
    print(f"- {label}: the hit takes {hit / path:.2f}x the time of cache path (median); target 1.2x: {verdict}")
PYTHON
echo
echo "- load average after: $(load_average)"
