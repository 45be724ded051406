#!/usr/bin/env bash
# The tests under the sanitizers (`make test-sanitized`), each sanitizer with a build folder of its
# own (.build/asan, .build/tsan), so the normal debug build is never rebuilt:
#
#   address  the unit, CLI, server and integration suites under AddressSanitizer, with
#            UndefinedBehaviorSanitizer in the C the package compiles (the CPNG and CJPEG shims;
#            Swift refuses -sanitize=undefined on Linux, and Debian's libraries are not
#            instrumented); the CLI and the workers the tests start are the same ASan builds
#   leaks    Samples/demo.sh with that ASan CLI under LeakSanitizer (XCTest processes leak by
#            design, so the suites run without it), Tests/Sanitizers/leaks.supp for named
#            third-party frames
#   thread   the concurrent suites (pipeline, coalescer, blocking pool, loader, disk cache,
#            server, Redis) under ThreadSanitizer, with Tests/Sanitizers/mutex_annotations.c
#            preloaded (built here with the toolchain's clang): it tells TSan about
#            Synchronization.Mutex's waits, which it cannot see
#
#   Tests/Sanitizers/run.sh [address] [leaks] [thread]     (default: all three, in that order)
#
# Every report goes to .build/sanitizer-reports/STEP.PID (the sanitizers' log_path, also for the
# processes the tests start); any report fails the run and is printed. A line per step gives its
# time.
# IMGCACHE_SANITIZER tells the tests which sanitizer they run under (TestSupport's `Sanitizer`).
# Exit status: 0 every test passed and no report; 1 a test failed or a sanitizer reported;
# 2 bad usage or a build failure.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here/../.."
root=$PWD
reports=$root/.build/sanitizer-reports
# Linked with lld, as the fuzzing harnesses are (Fuzz/run.sh).
lld=(-Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld)
asan=(--scratch-path .build/asan -Xswiftc -sanitize=address -Xcc -fsanitize=address -Xcc -fsanitize=undefined "${lld[@]}")
tsan=(--scratch-path .build/tsan -Xswiftc -sanitize=thread -Xcc -fsanitize=thread "${lld[@]}")

# The suites under AddressSanitizer: all but the conformance suites (the third-party corpora, the
# slowest part of `make test`, already run by it and by the fuzzing harnesses under ASan).
asan_skip='^ConformanceTests\.'
# Left out under both: the multi-process Redis fleets, whose counts hold only while Redis answers
# within the tier's 100 ms command time-out; a sanitizer's slowdown on a loaded machine can miss
# it, which the tier rightly treats as an outage (`make test` runs them).
redis_fleet_skip='^IntegrationTests\.(RedisFleetTests|RedisLoadTests|RedisClusterFleetTests|RedisSentinelFleetTests)/'
# The suites with threads of their own or concurrent callers, under ThreadSanitizer, by the class
# names' families: the pipeline and its coalescer, pools and gates, the loader, the disk and
# memory caches, the Redis tier, the HTTP server and `imgcache serve` (a TSan build too).
tsan_families=(ImagePipeline Pipeline TaskCoalescer BlockingPool ConnectionSlots DecodeMemoryGate DataLoader DiskCache
  CachedDataSource MemoryCache Redis HTTPServer Serve)
tsan_filter="^(ImgCacheTests|IntegrationTests|ServerTests)\\.($(IFS='|'; echo "${tsan_families[*]}"))[A-Za-z]*Tests/"

steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(address leaks thread)
for step in "${steps[@]}"; do
  case $step in address | leaks | thread) ;; *) echo "sanitizers: unknown step '$step' (address, leaks, thread)" >&2; exit 2 ;; esac
done

rm -rf "$reports"
mkdir -p "$reports"
# A crash is the sanitizer's to report: Swift's backtracer would read the dying process's memory
# from a thread of its own, which AddressSanitizer reports as an overflow in the backtracer.
export SWIFT_BACKTRACE=enable=no
status=0
started=$SECONDS
say() { printf 'sanitizers: %s  [%ds]\n' "$*" $((SECONDS - started)) >&2; }

build() {
  say "building ($1)"
  shift
  swift build --build-tests "$@" || exit 2
}

# The preload of the thread step, in the TSan build's folder.
mutex_annotations() {
  local library=$root/.build/tsan/mutex_annotations.so
  clang -shared -fPIC -O1 -Wall -Werror -o "$library" "$here/mutex_annotations.c" -ldl || exit 2
  echo "$library"
}

# run_tests SANITIZER SWIFT-TEST-ARGUMENTS...: one `swift test` of the prebuilt suites.
run_tests() {
  local sanitizer=$1
  shift
  IMGCACHE_SANITIZER=$sanitizer swift test --skip-build "$@" || status=1
}

for step in "${steps[@]}"; do
  step_started=$SECONDS
  case $step in
    address)
      build "AddressSanitizer, UndefinedBehaviorSanitizer in C" "${asan[@]}"
      say "unit, CLI, server and integration suites under AddressSanitizer"
      ASAN_OPTIONS=log_path=$reports/address:detect_leaks=0:suppressions=$here/asan.supp \
        UBSAN_OPTIONS=log_path=$reports/address:print_stacktrace=1 \
        run_tests address "${asan[@]}" --skip "$asan_skip" --skip "$redis_fleet_skip"
      ;;
    leaks)
      [ -x .build/asan/debug/imgcache ] || build "AddressSanitizer, UndefinedBehaviorSanitizer in C" "${asan[@]}"
      say "Samples/demo.sh with the ASan CLI under LeakSanitizer"
      ASAN_OPTIONS=log_path=$reports/leaks:detect_leaks=1:fast_unwind_on_malloc=0 \
        LSAN_OPTIONS=suppressions=$here/leaks.supp:print_suppressions=0 \
        UBSAN_OPTIONS=log_path=$reports/leaks:print_stacktrace=1 \
        DEMO_OUT=$root/.build/sanitizer-demo Samples/demo.sh .build/asan/debug/imgcache >/dev/null || status=1
      ;;
    thread)
      build "ThreadSanitizer" "${tsan[@]}"
      preload=$(mutex_annotations)
      say "concurrent suites under ThreadSanitizer"
      LD_PRELOAD=$preload TSAN_OPTIONS=log_path=$reports/thread \
        run_tests thread "${tsan[@]}" --filter "$tsan_filter" --skip "$redis_fleet_skip"
      ;;
  esac
  say "$step step took $((SECONDS - step_started)) s"
done

found=$(find "$reports" -type f | sort)
if [ -n "$found" ]; then
  for report in $found; do
    printf '\n==> %s\n' "${report#"$root"/}"
    cat "$report"
  done
  say "$(wc -l <<<"$found") sanitizer report(s) in ${reports#"$root"/}"
  exit 1
fi
[ "$status" = 0 ] || { say "a test failed"; exit 1; }
say "no sanitizer report, every test passed"
