#!/usr/bin/env bash
# Compile time of a translation unit that includes one public header and nothing else: what a
# plugin author or host developer pays per file for including rpckit. Prints the median of
# N runs (default 5) per header, next to <string> and nlohmann/json.hpp for scale.
#   benchmarks/header_cost.sh [runs]       (CXX picks the compiler; -O0 as a debug build;
#                                           BUILD the configured tree, default build/dev)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
cxx="${CXX:-c++}"
# rpckit/version.hpp is configured into a build tree's include/ (BUILD, default build/dev).
build="${BUILD:-build/dev}"
if [ ! -f "$build/include/rpckit/version.hpp" ]; then
  echo "header_cost: $build/include/rpckit/version.hpp is missing: configure first" \
       "(cmake --preset dev), or set BUILD" >&2
  exit 1
fi
includes=("-I$build/include")
for dir in runtime/*/include generated; do includes+=("-I$dir"); done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

headers=(
  "<string>"
  "<nlohmann/json.hpp>"
  "\"streamnook_v1/types.hpp\""
  "\"rpckit/streamnook/plugin.hpp\""
  "\"rpckit/streamnook/host.hpp\""
)
printf '%-36s %10s %10s\n' "header (alone in a TU)" "median ms" "json.hpp?"
for header in "${headers[@]}"; do
  echo "#include $header" > "$work/tu.cpp"
  echo 'int main() {}' >> "$work/tu.cpp"
  times=()
  for _ in $(seq "$runs"); do
    start=$(date +%s%N)
    "$cxx" -std=c++20 -O0 "${includes[@]}" -c "$work/tu.cpp" -o "$work/tu.o"
    times+=($(( ($(date +%s%N) - start) / 1000000 )))
  done
  median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  pulls=$("$cxx" -std=c++20 "${includes[@]}" -dM -E "$work/tu.cpp" 2>/dev/null |
          grep -c 'INCLUDE_NLOHMANN_JSON_HPP_' || true)
  printf '%-36s %10s %10s\n' "$header" "$median" "$([ "$pulls" -gt 0 ] && echo yes || echo no)"
done
