#!/usr/bin/env bash
# Runs the release build of imgcache on the sample media: the optimiser can break what the debug
# build (which `swift test` uses) gets right, so the main paths are run once more at -O.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
swift build -c release --product imgcache
bin=.build/release/imgcache
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() { echo "release-smoke: $*" >&2; exit 1; }

"$bin" decode Samples/media/harbour.jpg --size 1014x474 -o "$work/harbour.png" | grep -q "711x474 PNG" \
  || fail "decode of harbour.jpg did not give 711x474"
"$bin" decode Samples/media/spinner.gif --size 120x120 --max-frames 8 -o "$work/spinner.gif" | grep -q "120x120 GIF, 8 frames" \
  || fail "decode of spinner.gif did not keep 8 frames"
printf '%s\n' "$PWD/Samples/media/harbour.jpg" "$PWD/Samples/media/badge.png" "$PWD/Samples/media/spinner.gif" \
  "$PWD/Samples/media/missing.png" > "$work/urls.txt"
set +e
summary=$("$bin" prefetch "$work/urls.txt" --device "iPhone 16 Pro" --widget small --cache-dir "$work/cache")
status=$?
set -e
[ "$status" = 11 ] || fail "prefetch exited $status, expected 11 (one missing file)"
grep -q "^prefetched 3 of 4: 3 from the network" <<<"$summary" || fail "prefetch summary: $summary"
"$bin" fetch Samples/media/harbour.jpg --device "iPhone 16 Pro" --widget small --cache-dir "$work/cache" --json \
  | grep -q '"cache":"disk"' || fail "a second fetch was not a cache hit"
"$bin" cache verify --cache-dir "$work/cache" >/dev/null || fail "cache verify found inconsistencies"
"$bin" slice Samples/media/home-screen.png --all --ios 18 -o "$work/slices" >/dev/null || fail "slice --all of home-screen.png failed"
[ "$(ls "$work/slices" | wc -l)" = 11 ] || fail "slice --all did not write 11 slices"
"$bin" info "$work/slices/medium-top.png" | grep -q "1032x486 pixels" || fail "medium-top.png is not 1032x486"
"$bin" overlay Samples/media/home-screen.png -o "$work/overlay.png" | grep -q "1206x2622 PNG, 11 slots outlined" \
  || fail "overlay of home-screen.png failed"
# make demo's script, into $work/demo: nginx on 127.0.0.1 serving Samples/media, the fetch of
# harbour.jpg at three widget sizes and again from the disk cache, slice, overlay, spinner.gif.
demo=$work/demo
status=0
DEMO_OUT=$demo Samples/demo.sh "$bin" >"$work/demo.log" 2>&1 || status=$?
[ "$status" = 0 ] || { tail -n 5 "$work/demo.log" >&2; fail "Samples/demo.sh exited $status (the end of its output above)"; }
variants=$(grep -o '"path":"[^"]*"' "$demo/demo-fetch-1.json" | cut -d'"' -f4)
[ "$(wc -l <<<"$variants")" = 3 ] || fail "the demo's first fetch did not give 3 variants"
while read -r v; do [ -s "$v" ] || fail "the demo's variant $v is missing"; done <<<"$variants"
[ "$(grep -o '"cache":"[a-z]*"' "$demo/demo-fetch-2.json" | sort | uniq -c | sed 's/^ *//')" = '3 "cache":"disk"' ] \
  || fail "the demo's second fetch was not 3 disk hits: $(cat "$demo/demo-fetch-2.json")"
for f in slice-medium-top.png slice-medium-top-blurred.png home-screen-overlay.png portrait-medium-centre.jpg portrait-medium-smart.jpg; do
  [ -s "$demo/$f" ] || fail "the demo did not write $f"
done
cmp -s "$demo/portrait-medium-centre.jpg" "$demo/portrait-medium-smart.jpg" && fail "the demo's smart crop is its centre crop"
echo "release-smoke: decode, prefetch, fetch, cache verify, slice, overlay and the demo pass in the release build"
