#!/bin/sh
# Findings identical before and after a scanner change that must not change any (speed, memory):
# `scan_dump --json` of BEFORE and AFTER (two builds of the example) over every bundle under
# tests/fixtures/skills and over the throughput set (throughput_set.py, written to WORK once),
# compared byte for byte.
#
#   nice -n 19 cargo build -p guest --release --locked --example scan_dump
#   cp target/release/examples/scan_dump /tmp/before/     # on the old commit
#   ... build the new commit the same way ...
#   guest/examples/support/same_findings.sh /tmp/before/scan_dump target/release/examples/scan_dump [WORK]
#
# Exit status 1 when any output differs.
set -eu
BEFORE=$1
AFTER=$2
WORK=${3:-${TMPDIR:-/tmp}/same_findings}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
mkdir -p "$WORK"
[ -d "$WORK/set" ] || python3 "$HERE/throughput_set.py" "$WORK/set" >/dev/null
differ=0
for what in "$ROOT/tests/fixtures/skills" "$WORK/set"; do
  name=$(basename "$what")
  "$BEFORE" --json "$what" >"$WORK/before_$name.out"
  "$AFTER" --json "$what" >"$WORK/after_$name.out"
  if cmp -s "$WORK/before_$name.out" "$WORK/after_$name.out"; then
    echo "identical: $what ($(wc -l <"$WORK/after_$name.out") bundles)"
  else
    echo "DIFFERS: $what"
    differ=1
  fi
done
[ "$differ" -eq 0 ]
