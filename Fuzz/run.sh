#!/usr/bin/env bash
# Builds the libFuzzer harnesses (release, AddressSanitizer on, this package's own build folder:
# optimised code keeps Swift's overflow and bounds checks and runs about six times as many inputs
# a second as a debug build) and runs each for SECONDS, seeded from the conformance corpus (read in
# place, never copied) and from inputs this script makes. Prints each harness's executions per
# second and outcome.
#
#   Fuzz/run.sh [SECONDS] [HARNESS...]     (default: 600 seconds, every harness)
#
# Environment: IMGCACHE_CORPUS (default ../shared/corpus beside the checkout), FUZZ_WORK (default
# ${TMPDIR:-/tmp}/imgcache-fuzz: the corpora the runs grow and any crash inputs).
# Exit status: 0 no finding; 1 a harness crashed, leaked, timed out or ran out of memory (the
# input is kept in FUZZ_WORK/HARNESS/ and named in the output); 2 bad usage or a build failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
seconds=${1:-600}
[[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: SECONDS must be a positive whole number" >&2; exit 2; }
shift $(($# > 0 ? 1 : 0))
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(DecodeFuzzer EncodeFuzzer HTTPHeaderFuzzer CommandLineFuzzer ServeURLFuzzer)
corpus=${IMGCACHE_CORPUS:-../../shared/corpus}
work=${FUZZ_WORK:-${TMPDIR:-/tmp}/imgcache-fuzz}
flags=(-Xswiftc "-sanitize=fuzzer,address" -Xswiftc -parse-as-library -Xswiftc -enable-testing -Xcc "-fsanitize=fuzzer-no-link,address"
  -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld)

# seeds HARNESS DIR: inputs the harness starts from besides the corpus, written into DIR.
seeds() {
  mkdir -p "$2"
  case $1 in
    DecodeFuzzer)  # a phone-like HEIC grid of 64x64 tiles, turned (irot), when pillow-heif is installed
      python3 ../Tests/Scripts/make_heic.py 200 136 64 "$2/grid-irot.heic" 6 2>/dev/null || rm -f "$2/grid-irot.heic" ;;
    EncodeFuzzer)  # width, height, quality, frames, then pixel bytes
      printf '\x07\x05\x54\x02\xff\x00\x00\x80\x00\xff\x00\xff' >"$2/small-two-frames"
      head -c 4096 /dev/urandom >"$2/noise" ;;
    HTTPHeaderFuzzer)
      printf 'Cache-Control: max-age=60, no-cache\nAge: 30\nDate: Sun, 06 Nov 1994 08:49:37 GMT\nETag: W/"v1"\n' >"$2/cache-control"
      printf 'Expires: Sunday, 06-Nov-94 08:49:37 GMT\nLast-Modified: Sun Nov  6 08:49:37 1994\nRetry-After: 120\n' >"$2/dates"
      printf 'Cache-Control: max-age=99999999999999999999, s-maxage=-1\nRetry-After: Fri, 31 Dec 9999 23:59:59 GMT\n' >"$2/extremes" ;;
    CommandLineFuzzer)  # option, value, option, value...: lengths pick the options (see the harness)
      printf 'xx\n510x510\nxxx\n3\nxxxxxxx\n15MB\nxxxxxx\n8\n' >"$2/size-scale-budget-frames"
      printf 'xxxx\niphones\nxxxxx\nsmall,medium,today-compact\nxxxxxxxx\nxl\n' >"$2/devices-widgets" ;;
    ServeURLFuzzer)  # a mode byte (0 unsigned, 1 with a key, 2 signed by the harness, 3 small limits), then the path
      printf '\x00/insecure/rs:fill:300:200:1/q:80/plain/https%%3A%%2F%%2Fimages.example.com%%2Fa%%20b.jpg%%3Fv%%3D1@png' >"$2/plain"
      printf '\x02/wd:iphone-16-pro:medium/sl:medium:top::18/cp:keep/cb:v2/aHR0cHM6Ly9pbWFnZXMuZXhh/bXBsZS5jb20vYS5qcGc.png' >"$2/widget-slice"
      printf '\x02/w:300/dpr:2.5/el:t/fr:8/bu:4MB/f:gif/g:ce:0:0/ex:0/aHR0cHM6Ly9pbWFnZXMuZXhhbXBsZS5jb20vYS5qcGc=' >"$2/numbers"
      printf '\x01/MmRWx6Pw_L93k-sDtlto3y3PL1DQLowp6Z1JYQ7ogNw/g:ce/rs:fit:300:0:0/plain/http://a.example/b.jpg?x' >"$2/forged"
      printf '\x00/x/wd:iphone-8-plus:today-expanded:notification-center:landscape/fr:1/plain/http:%%2F%%2Fa.example/b' >"$2/today"
      printf '\x03/_/s:100:0:1/g:ce:0:0/plain/http:%%2F%%2Fa.example/b' >"$2/small-limits" ;;
  esac
}

status=0
for harness in "${harnesses[@]}"; do
  echo "fuzz: building $harness" >&2
  swift build -c release --product "$harness" "${flags[@]}" >&2 || exit 2
  dir=$work/$harness
  seeds "$harness" "$dir/seeds"
  mkdir -p "$dir/corpus"
  sources=("$dir/corpus" "$dir/seeds")
  if [ "$harness" = DecodeFuzzer ]; then
    if [ -d "$corpus" ]; then
      corpus=$(cd "$corpus" && pwd)
      for suite in pngsuite png-extra libpng jpeg-decoder libjpeg-turbo go-image giflib gif-test-suite-serenity image-gif image-rs pillow libwebp-test-data heif-avif; do
        [ -d "$corpus/$suite" ] && sources+=("$corpus/$suite")
      done
    else
      echo "fuzz: no corpus at $corpus: DecodeFuzzer starts from nothing" >&2
    fi
  fi
  log=$dir/run.log
  echo "fuzz: $harness for $seconds s" >&2
  set +e
  (cd "$dir" && "$OLDPWD/.build/release/$harness" "${sources[@]}" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -max_len=1048576 -print_final_stats=1 >"$log" 2>&1)
  code=$?
  set -e
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  if [ "$code" = 0 ]; then
    echo "$harness: $runs executions in $seconds s ($rate/s), no crash, leak or time-out"
  else
    status=1
    echo "$harness: FINDING after $runs executions (exit $code):"
    grep -E 'ERROR|SUMMARY|Test unit written|Fatal error|Precondition' "$log" | head -n 8 | sed 's/^/  /'
  fi
done
exit "$status"
