#!/bin/sh
# Byte-for-byte comparison of two builds of the native profile helpers (`filter_prof`,
# `recommend_prof`): every output of BEFORE must equal AFTER's. Used for changes that must not change
# any output (data flow, representation, speed).
#
#   nice -n 10 cargo build -p guest --release --locked --example filter_prof --example recommend_prof
#   cp target/release/examples/{filter_prof,recommend_prof} /tmp/before/   # on the old commit
#   ... build the new commit the same way ...
#   guest/examples/support/same_output.sh /tmp/before target/release/examples [WORK]
#
# Inputs: data/sample_candidates.json, the acceptance generator's 1,000 and 100,000 candidates
# (host-harness/benches/whole_process.py's `candidates()`, seed 7; written to WORK once), and the
# small hand-written files beside this script (a partly invalid list, a bare array, a ClawHub
# response, odd counts, a list of strings, a scalar, a truncated file). Cases: `filter`, dry-run
# `recommend` through `filter_prof` (task extract-pdf-tables) and `recommend_prof` (English
# "merge pdf files"), and for the sample, the 1,000 file and the invalid list also Chinese
# ("提取 pdf 表格") and no task. Exit status 1 when any output differs.
set -eu
BEFORE=$1
AFTER=$2
WORK=${3:-${TMPDIR:-/tmp}/same_output}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
mkdir -p "$WORK/in" "$WORK/before" "$WORK/after"
cp "$HERE"/same_output/*.json "$WORK/in/"
cp "$ROOT/data/sample_candidates.json" "$WORK/in/sample.json"
python3 - "$ROOT" "$WORK" <<'PY'
import sys
sys.path.insert(0, sys.argv[1] + "/host-harness/benches")
import whole_process
whole_process.candidates(sys.argv[2] + "/in/c1k.json", 1000)
whole_process.candidates(sys.argv[2] + "/c100k.json", 100000)
PY

run() { # BIN_DIR OUT_DIR
  F=$1/filter_prof
  R=$1/recommend_prof
  O=$2
  for f in "$WORK"/in/*.json "$WORK/c100k.json"; do
    b=$(basename "$f" .json)
    "$F" "$f" "$O/f_$b.out" 2>/dev/null
    SR_PROF_RECOMMEND=1 "$F" "$f" "$O/rf_$b.out" 2>/dev/null
    "$R" "$f" "merge pdf files" "$O/r_$b.out" 2>/dev/null
  done
  for b in sample c1k invalid; do
    SR_PROF_LANG=zh "$R" "$WORK/in/$b.json" "提取 pdf 表格" "$O/rzh_$b.out" 2>/dev/null
    "$R" "$WORK/in/$b.json" "" "$O/rnotask_$b.out" 2>/dev/null
  done
}
run "$BEFORE" "$WORK/before"
run "$AFTER" "$WORK/after"
same=0
differ=0
for o in "$WORK"/before/*.out; do
  if cmp -s "$o" "$WORK/after/$(basename "$o")"; then
    same=$((same + 1))
  else
    differ=$((differ + 1))
    echo "differs: $(basename "$o")"
  fi
done
echo "$same identical, $differ different"
[ "$differ" -eq 0 ]
