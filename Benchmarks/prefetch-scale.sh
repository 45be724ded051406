#!/usr/bin/env bash
# Prefetch lists of millions in flat memory: `imgcache prefetch` of lists of 10,000, 100,000 and
# 1,000,000 URLs, each one 16x16 PNG behind nginx on 127.0.0.1 under a distinct query string (so
# every URL is a distinct original and variant), to 8x8 with `--store variants` into an empty cache
# folder under $IMGCACHE_BENCH_DIR: wall time, time per URL, peak RSS (GNU time) and the cache's
# size on disk, checked against the targets (peak RSS at most 64 MiB at every size; time per URL
# within 20% of the smallest list's). Reported, not enforced.
#
#   Benchmarks/prefetch-scale.sh [--sizes "10000 100000 1000000"] (commas or spaces)
#                                [--cache-size-limit SIZE] [--no-build]
#
# The cache's limit is 4GB by default, above what a million variants take (about 300 MB counted),
# so that every list measures prefetching alone; a smaller one (the default 256MB of imgcache) adds
# the sweeps of a full cache to the longer lists.
#
# A million URLs take long on a small loaded machine (about an hour at 3 ms a URL) and about 4 GB
# of disk (one file a variant); give fewer sizes to skip it. Each list's cache folder is removed
# once measured. Prints a markdown table on stdout (progress on stderr).
#
# Environment: IMGCACHE (default .build/release/imgcache, built unless --no-build),
# IMGCACHE_BENCH_DIR (default ${TMPDIR:-/tmp}/imgcache-bench; the cache folders), NGINX
# (/usr/sbin/nginx), PYTHON (python3). The lists and nginx's files go to a temporary folder
# removed at exit; nginx is stopped however the script ends.
# Exit status: 0 done; 2 bad usage or a missing tool; 3 nginx or a prefetch failed.
set -euo pipefail
export LC_ALL=C
# shellcheck source=Benchmarks/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

usage() { sed -n '2,24s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

sizes="10000 100000 1000000"
cache_size_limit=4GB
build=1
while [ $# -gt 0 ]; do
  case $1 in
    --sizes) sizes=${2:?--sizes needs a list of numbers}; shift ;;
    --sizes=*) sizes=${1#*=} ;;
    --cache-size-limit) cache_size_limit=${2:?--cache-size-limit needs a size such as 256MB}; shift ;;
    --cache-size-limit=*) cache_size_limit=${1#*=} ;;
    --no-build) build=0 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "$bench_name: unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
sizes=${sizes//,/ }
for size in $sizes; do [[ $size =~ ^[1-9][0-9]*$ ]] || die 2 "--sizes wants positive whole numbers, not '$size'"; done

cd "$root"
need_gnu_time
build_cli "$build"
work=$(mktemp -d "${TMPDIR:-/tmp}/imgcache-prefetch-scale.XXXXXX")
mkdir -p "$bench_dir"
cache=""
nginx_pid=""
cleanup() {
  stop nginx_pid
  rm -rf "$work"
  [ -z "$cache" ] || rm -rf "$cache"
}
trap cleanup EXIT

mkdir -p "$work/www"
# One 16x16 RGB PNG, written with the standard library only.
"$python" - "$work/www/a.png" <<'PY'
import struct, sys, zlib
width = height = 16
rows = b"".join(b"\0" + b"".join(bytes((x * 16, y * 16, 128)) for x in range(width)) for y in range(height))
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
open(sys.argv[1], "wb").write(png)
PY
serve_folder "$work/www" "$work/nginx" '$status'

echo "## imgcache prefetch of 10^4..10^6 URLs: one 16x16 PNG under distinct query strings, to 8x8"
echo
echo "$(machine); load before: $(load_average); commit $(commit); cache size limit $cache_size_limit"
echo
echo "| URLs | wall s | us/URL | peak RSS MiB | cache on disk MiB |"
echo "|---:|---:|---:|---:|---:|"
peaks=() per_url=()
for size in $sizes; do
  list=$work/urls-$size.txt
  seq 0 $((size - 1)) | sed "s|^|http://127.0.0.1:$nginx_port/a.png?i=|" >"$list"
  cache=$bench_dir/prefetch-scale-cache
  rm -rf "$cache"
  echo "$bench_name: prefetching $size URLs" >&2
  status=0
  "$gnu_time" -f '%e %M' -o "$work/time" "$imgcache" prefetch "$list" --size 8x8 --store variants \
    --cache-dir "$cache" --cache-size-limit "$cache_size_limit" >"$work/summary" 2>"$work/errors" || status=$?
  summary=$(head -n 1 "$work/summary")
  [ "$status" = 0 ] && [[ $summary == "prefetched $size of $size: $size from the network,"* ]] ||
    die 3 "the prefetch of $size URLs failed (exit $status): $summary $(head -n 3 "$work/errors")"
  read -r wall peak_kib <"$work/time"
  disk_kib=$(du -sk "$cache" | cut -f1)
  rm -rf "$cache"
  cache=""
  us=$(awk -v w="$wall" -v n="$size" 'BEGIN { printf "%.0f", w * 1e6 / n }')
  peaks+=("$(mib "$peak_kib")") per_url+=("$us")
  echo "| $size | $wall | $us | $(mib "$peak_kib") | $(mib "$disk_kib") |"
done
echo
echo "Load after: $(load_average)."
echo
max_peak=$(printf '%s\n' "${peaks[@]}" | sort -g | tail -n 1)
spread=$(printf '%s\n' "${per_url[@]}" | awk 'NR == 1 { first = $1 } { d = ($1 - first) / first; if (d < 0) d = -d; if (d > m) m = d } END { printf "%.0f", m * 100 }')
echo "- peak RSS at most 64 MiB at every size: $max_peak MiB, $([ "$(awk -v p="$max_peak" 'BEGIN { print (p <= 64) }')" = 1 ] && echo met || echo missed)"
echo "- time per URL within 20% of the first size's: at most $spread% apart, $([ "$spread" -le 20 ] && echo met || echo missed)"
