#!/usr/bin/env bash
# `make docs`: the ImgCache library's reference documentation as static HTML in out/docs, built
# offline with the toolchain's own swift-symbolgraph-extract and docc from the doc comments and the
# catalog Sources/ImgCache/ImgCache.docc. Fails when a public symbol has no doc comment
# (Tools/undocumented-symbols.swift names each with its file and line) and on any DocC warning.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

graphs=.build/symbol-graphs
output=out/docs

swift build --target ImgCache
modules=$(swift build --show-bin-path)/Modules
bin=$(dirname "$modules")

# ImgCache imports the C modules of its system libraries (Sources/C*/module.modulemap) and of its
# two C targets (module maps SwiftPM writes into the build folder).
clang_modules=()
for map in Sources/C*/module.modulemap "$bin"/C*.build/module.modulemap; do
  [ -f "$map" ] && clang_modules+=(-Xcc "-fmodule-map-file=$map")
done
for include in Sources/C*/include; do clang_modules+=(-I "$include"); done

rm -rf "$graphs"
mkdir -p "$graphs"
swift-symbolgraph-extract -module-name ImgCache -minimum-access-level public \
  -target "$(swift -print-target-info | sed -n 's/^ *"triple": "\(.*\)",$/\1/p' | head -n 1)" \
  -I "$modules" "${clang_modules[@]}" -output-dir "$graphs"

swift Tools/undocumented-symbols.swift "$graphs/ImgCache.symbols.json"

rm -rf "$output"
mkdir -p "$(dirname "$output")"
docc convert Sources/ImgCache/ImgCache.docc --additional-symbol-graph-dir "$graphs" \
  --fallback-display-name ImgCache --fallback-bundle-identifier imgcache.ImgCache \
  --transform-for-static-hosting --warnings-as-errors --output-path "$output"
echo "docs: $output (serve the folder over HTTP and open /documentation/imgcache)"
