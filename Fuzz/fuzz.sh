#!/usr/bin/env bash
# Builds every fuzz target with libFuzzer and AddressSanitizer, then runs each for SECONDS
# seconds: `make fuzz SECONDS=N` (see docs/development.md, Fuzzing). Built fuzzers stay in .build/fuzz/
# to be run again by hand; a crash keeps its input in .build/fuzz/crashes/TARGET/.
#   Fuzz/fuzz.sh SECONDS [TARGET...]       (SECONDS 0: build them, run none)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}; shift || true
out=.build/fuzz
modules=$out/modules
mkdir -p "$modules"
flags=(-sanitize=fuzzer,address -wmo -parse-as-library -enable-testing -package-name movies -swift-version 6 -I "$modules" -L "$modules" -suppress-warnings)

# One library per module the targets need, rebuilt when one of its sources is newer. The
# front end's parsers are four folders of MoviesCLI taken whole (Parsing/, Configuration/, and
# System/ and Output/, which they use), compiled as a module of that name: the whole of it would
# bring libcurl and the prompt for nothing. A file those folders need belongs in one of them.
module() {
  local name=$1; shift
  local sources=("$@")
  local library=$modules/lib$name.a
  # Up to date when no source, nor this script (its flags), is newer than the library.
  if [ -f "$library" ] && [ -z "$(find "${sources[@]}" Fuzz/fuzz.sh -newer "$library" 2>/dev/null | head -n 1)" ]; then return 0; fi
  # Made afresh: swiftc adds its objects to an archive that is there, and members an older build
  # left (other object names: a file each before -wmo) then defined every symbol twice at link.
  rm -f "$library"
  swiftc "${flags[@]}" -module-name "$name" -emit-module -emit-module-path "$modules/$name.swiftmodule" \
    -emit-library -static -o "$library" "${sources[@]}" 2>&1 | grep -v -e 'Cannot export local symbol' >&2 || true
  [ -f "$library" ] || { echo "fuzz: could not build the $name module" >&2; exit 1; }
}
# Modules that need only those built before them are built side by side; a failed one leaves no
# library, which stops the run below.
module Files Sources/Files/*.swift & module ImageFormats Sources/ImageFormats/*.swift & wait
module OMDbKit $(find Sources/OMDbKit -name '*.swift' | sort) & module LineEditing Sources/LineEditing/*.swift &
module TerminalImages Sources/TerminalImages/*.swift & wait
module MoviesCLI Sources/MoviesCLI/{Parsing,Configuration,System,Output}/*.swift
for name in Files ImageFormats OMDbKit LineEditing TerminalImages MoviesCLI; do [ -f "$modules/lib$name.a" ] || exit 1; done

# Each target: its harness (Fuzz/Targets/NAME.swift), the support files, the libraries.
libraries=(-lMoviesCLI -lTerminalImages -lLineEditing -lOMDbKit -lImageFormats -lFiles)
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=($(cd Fuzz/Targets && ls *.swift | sed 's/\.swift$//'))
# The targets are built side by side, as many at once as there are cores: each is one small file
# linked with the libraries, and a sequential loop left the other cores idle (CI time).
build_target() {
  local target=$1 binary=$out/$1
  if [ ! -f "$binary" ] || [ -n "$(find Fuzz/Targets/$target.swift Fuzz/Support "$modules" -newer "$binary" -name '*.swift' -o -newer "$binary" -name '*.a' | head -n 1)" ]; then
    rm -f "$binary"
    swiftc "${flags[@]}" -module-name "Fuzz_${target//-/_}" Fuzz/Targets/$target.swift Fuzz/Support/*.swift "${libraries[@]}" \
      -o "$binary" 2>&1 | grep -v -e 'Cannot export local symbol' >&2 || true
    [ -f "$binary" ] || { echo "fuzz: could not build $target" >&2; return 1; }
  fi
}
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  build_target "$target" &
done
wait
for target in "${targets[@]}"; do [ -f "$out/$target" ] || exit 1; done
# 0 seconds builds only (libFuzzer reads -max_total_time=0 as no limit): CI builds early, runs later.
[ "$seconds" -gt 0 ] || { echo "fuzz: ${#targets[@]} targets built in $out/, none run (SECONDS=0)"; exit 0; }

# Runs: each target from its committed seeds (Fuzz/Corpus/TARGET, the recorded answers in
# Fixtures/, the offline catalogue's posters, and ../shared/omdb-samples when it sits beside the clone), into a working
# corpus under .build/fuzz/corpus that grows from run to run.
failed=0
stamp=$(mktemp)
trap 'rm -f "$stamp"' EXIT
for target in "${targets[@]}"; do
  corpus=$out/corpus/$target crashes=$out/crashes/$target log=$out/logs/$target.log
  mkdir -p "$corpus" "$crashes" "$(dirname "$log")"
  seeds=()
  [ -d "Fuzz/Corpus/$target" ] && seeds+=("Fuzz/Corpus/$target")
  case $target in
    omdb-answer|wire-repair) seeds+=(Fixtures/omdb-samples); [ -d ../shared/omdb-samples ] && seeds+=(../shared/omdb-samples);;
    jpeg|image-width) seeds+=(Sources/OMDbCatalogue/Catalogue/posters);;
  esac
  set +e
  # No leak report at exit: the modules' lazily made globals (caches, tables) are not leaks.
  ASAN_OPTIONS=detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS} "$out/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -detect_leaks=0 -print_final_stats=1 \
    -artifact_prefix="$crashes/" "$corpus" "${seeds[@]}" > "$log" 2>&1
  status=$?
  set -e
  runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log" | tail -n 1)
  count=$(find "$crashes" -type f -newer "$stamp" | wc -l)   # this run's: earlier ones stay for reading
  [ "$status" -eq 0 ] || [ "$count" -gt 0 ] || count=1   # a failure that left no input is still one
  echo "fuzz $target: ${runs:-0} runs, $count crashes"
  if [ "$count" -gt 0 ]; then
    failed=1
    echo "  inputs: $crashes/ (log: $log; run again: $out/$target FILE)" >&2
  fi
done
exit "$failed"
