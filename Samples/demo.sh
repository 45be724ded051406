#!/usr/bin/env bash
# imgcache's main job on the embedded samples (`make demo` runs it after setup and the release
# build):
#
#   Samples/demo.sh [IMGCACHE]
#
# Serves Samples/media from Debian's nginx on a free port of 127.0.0.1 (a temporary prefix and
# configuration, `daemon off; master_process off;`, stopped however the script ends), then:
# fetches harbour.jpg for the iPhone 16 Pro's small, medium and large widgets into an empty cache,
# fetches it again (every variant a disk hit, nothing downloaded), prints the cache's stats, cuts
# the wallpaper slice behind the medium widget at the top of home-screen.png (and blurred, under
# a dark tint), draws every widget slot over it, fetches the first 8 frames of spinner.gif for the small widget, and crops
# portrait.jpg to the medium widget at its centre and by --gravity smart.
#
# IMGCACHE: the CLI (default $IMGCACHE_BIN, else .build/release/imgcache in the checkout).
# Environment: DEMO_OUT, the output folder (default out in the checkout; its demo-cache folder is
# emptied first), NGINX (/usr/sbin/nginx), PYTHON (python3).
# Exit status: 0 done; 2 a missing tool or file; 3 nginx did not start; else the failed step's.
set -euo pipefail
# shellcheck source=Benchmarks/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../Benchmarks/common.sh"

case ${1:-} in -h | --help) sed -n '2,17s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;; esac
[ $# -le 1 ] || die 2 "takes one argument, the imgcache binary (see --help)"
# Paths given by the caller are taken from the caller's folder; the defaults are in the checkout.
absolute() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
bin=${1:-${IMGCACHE_BIN:-}}
if [ -n "$bin" ]; then bin=$(absolute "$bin"); else bin=$root/.build/release/imgcache; fi
out=$(absolute "${DEMO_OUT:-$root/out}")
cd "$root"

[ -x "$bin" ] || die 2 "$bin is missing; build it (make release) or pass the binary's path"
for f in harbour.jpg portrait.jpg home-screen.png spinner.gif; do
  [ -f "Samples/media/$f" ] || die 2 "Samples/media/$f is missing"
done
command -v "$python" >/dev/null || die 2 "needs $python (make setup)"

work=$(mktemp -d "${TMPDIR:-/tmp}/imgcache-demo.XXXXXX")
nginx_pid=""
trap 'stop nginx_pid; rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

cache=$out/demo-cache
device="iPhone 16 Pro"
mkdir -p "$out"
rm -rf "$cache"

# step TEXT: the line before each step, saying what it shows.
step() { printf '\n%s\n' "$*"; }
# show COMMAND...: the command as one would type it in the checkout.
show() {
  local arg shown="$ imgcache"
  for arg in "${@:2}"; do
    arg=${arg#"$root"/}
    if [[ $arg =~ ^[A-Za-z0-9_./:,=@%+-]+$ ]]; then shown+=" $arg"; else shown+=" \"$arg\""; fi
  done
  echo "$shown"
}
# run COMMAND...: shows the command, then runs it.
run() { show "$@"; "$@"; }
# run_json FILE COMMAND...: run, with what the command prints (its --json) also kept in FILE.
run_json() {
  local file=$1
  shift
  show "$@"
  "$@" | tee "$file"
}
# variants JSON_FILE: one line per variant in what a fetch --json printed (one object or an array):
# its size, format, bytes, cache outcome and file.
variants() {
  "$python" - "$1" <<'EOF'
import json, sys
found = json.load(open(sys.argv[1]))
for v in found if isinstance(found, list) else [found]:
    p, pt = v["pixels"], v["points"]
    print(f'  {p["width"]}x{p["height"]} px ({pt["width"]}x{pt["height"]} pt at {v["scale"]}x), '
          f'{v["format"]}, {v["frames"]} frame(s), {v["bytes"]} bytes, cache: {v["cache"]}, {v["path"]}')
EOF
}
# path_of JSON_FILE [INDEX]: the file of a fetch's --json object, or of variant INDEX in its array.
path_of() {
  "$python" -c 'import json, sys; v = json.load(open(sys.argv[1])); print((v[int(sys.argv[2])] if isinstance(v, list) else v)["path"])' "$1" "${2:-0}"
}
# describe FILE: "WxH FORMAT", with ", N frames" for an animation, from `imgcache info --json`.
describe() {
  "$bin" info --json "$1" | "$python" -c 'import json, sys; i = json.load(sys.stdin)
print("{width}x{height} {0}".format(i["format"].upper(), **i) + (", {frames} frames".format(**i) if i["frames"] > 1 else ""))'
}
# origin: what nginx has served so far, one line per request.
origin() {
  echo "origin: $(wc -l <"$work/nginx/access.log") request(s) so far"
  sed 's/^/  /' "$work/nginx/access.log"
}

harbour_is=$(describe Samples/media/harbour.jpg)
spinner_is=$(describe Samples/media/spinner.gif)
portrait_is=$(describe Samples/media/portrait.jpg)

step "Starting the local origin: Debian's nginx serving Samples/media on 127.0.0.1 (temporary configuration, stopped when the demo ends)"
serve_folder "$root/Samples/media" "$work/nginx" '$request_method $uri $status $body_bytes_sent bytes'
base=http://127.0.0.1:$nginx_port
echo "nginx (pid $nginx_pid) serves $root/Samples/media at $base/"
widgets=(small medium large)
targets=(--device "$device" --widget "$(IFS=,; echo "${widgets[*]}")")

step "1. Fetch harbour.jpg ($harbour_is) from the origin for the $device's three widget sizes into an empty cache: one download, one decode per DCT scale, three variants"
run_json "$out/demo-fetch-1.json" "$bin" fetch "$base/harbour.jpg" "${targets[@]}" --json --cache-dir "$cache"
variants "$out/demo-fetch-1.json"
origin

step "2. The same command again: each variant is a disk hit (cache: disk), with nothing downloaded or decoded"
run_json "$out/demo-fetch-2.json" "$bin" fetch "$base/harbour.jpg" "${targets[@]}" --json --cache-dir "$cache"
variants "$out/demo-fetch-2.json"
origin
echo "the medium variant, from its headers:"
run "$bin" info "$(path_of "$out/demo-fetch-2.json" 1)"

step "3. The cache's stats: one original and its three variants, files plus a SQLite index"
run "$bin" cache stats --cache-dir "$cache"

step "4. The wallpaper slice behind a medium widget at the top of the home screen (home-screen.png, a synthetic $device screenshot): exact pixels, no resampling"
run "$bin" slice Samples/media/home-screen.png --widget medium --position top --device "$device" --ios 18 -o "$out/slice-medium-top.png"
echo "the same slice blurred by 10 points under Widget-Blur's dark overlay, a transparent widget's background:"
run "$bin" slice Samples/media/home-screen.png --widget medium --position top --device "$device" --ios 18 --blur 10 --tint dark -o "$out/slice-medium-top-blurred.png"

step "5. Every widget slot outlined and labelled over the same screenshot, to check the layout by eye"
run "$bin" overlay Samples/media/home-screen.png --device "$device" --ios 18 -o "$out/home-screen-overlay.png"

step "6. Fetch the animated spinner.gif ($spinner_is) from the origin for the small widget: only its first 8 frames (--max-frames 8), in one GIF variant (a source smaller than the widget is not scaled up)"
run_json "$out/demo-fetch-3.json" "$bin" fetch "$base/spinner.gif" --device "$device" --widget small --max-frames 8 --json --cache-dir "$cache"
variants "$out/demo-fetch-3.json"
run "$bin" info "$(path_of "$out/demo-fetch-3.json")"
origin

step "7. portrait.jpg ($portrait_is, its subject above and left of the middle) for the medium widget: the centre crop, then --gravity smart, which keeps the part of most interest (edges, skin tones, saturation)"
run "$bin" fetch "$base/portrait.jpg" --device "$device" --widget medium --cache-dir "$cache" -o "$out/portrait-medium-centre.jpg"
run "$bin" fetch "$base/portrait.jpg" --device "$device" --widget medium --gravity smart --cache-dir "$cache" -o "$out/portrait-medium-smart.jpg"
origin

step "Outputs, in ${DEMO_OUT:-out}/:"
echo "  slice-medium-top.png       the wallpaper slice (step 4), and slice-medium-top-blurred.png blurred"
echo "  home-screen-overlay.png    the overlay (step 5)"
echo "  portrait-medium-centre.jpg, portrait-medium-smart.jpg   the centre and smart crops (step 7)"
echo "  demo-fetch-{1,2,3}.json    what each fetch printed (steps 1, 2 and 6)"
echo "  demo-cache/                the cache (index.sqlite, and data/ with the files), whose variants are"
for i in 0 1 2; do echo "    ${widgets[i]}: $(path_of "$out/demo-fetch-2.json" "$i")"; done
echo "    the spinner: $(path_of "$out/demo-fetch-3.json")"
echo "demo: done"
