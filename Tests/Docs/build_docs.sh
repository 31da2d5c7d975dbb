#!/usr/bin/env bash
# Builds StoryKit's documentation with the toolchain's own docc (no plugin
# package): the symbol graph of the built StoryKit module, then the catalog
# Sources/StoryKit/StoryKit.docc, into a static site in .build/docs. A warning
# (a broken link, an undocumented parameter) fails the build.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --target StoryKit >/dev/null
triple=$(swiftc -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')
graphs=.build/symbol-graphs
rm -rf "$graphs" .build/docs && mkdir -p "$graphs"
swift-symbolgraph-extract -module-name StoryKit -I .build/debug/Modules -target "$triple" \
    -minimum-access-level public -output-dir "$graphs"
docc convert Sources/StoryKit/StoryKit.docc --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name StoryKit --fallback-bundle-identifier org.storyrun.StoryKit \
    --output-path .build/docs --transform-for-static-hosting --warnings-as-errors
echo "documentation: .build/docs (open it with: python3 -m http.server -d .build/docs, then /documentation/storykit)"
