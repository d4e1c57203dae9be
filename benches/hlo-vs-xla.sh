#!/usr/bin/env bash
# XLA's HLO parser and `xla_layout::hlo::parse_module` side by side on the same ~20 MB module
# (built by benches/hlo_parse.rs from tests/data/hlo and written to target/hlo-bench/).
# Alternates the two ROUNDS times, so that both see the same load on a shared machine, and
# prints each round's MB/s (wall-clock and CPU time of the parsing thread) and the ratios.
#
# XLA's parser comes from jaxlib 0.10.2:
#   python3 -m venv /tmp/xlavenv && /tmp/xlavenv/bin/pip install jaxlib==0.10.2 numpy
#
# usage: benches/hlo-vs-xla.sh [ROUNDS] [PYTHON]   (defaults: 3, /tmp/xlavenv/bin/python)
set -euo pipefail
ROUNDS=${1:-3}
PYTHON=${2:-/tmp/xlavenv/bin/python}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
MODULE=$ROOT/target/hlo-bench/module.hlo

cargo bench --bench hlo_parse --no-run 2>/dev/null
ours() { HLO_PARSE_TIMES=10 cargo bench -q --bench hlo_parse 2>/dev/null | grep '^reader'; }
ours >/dev/null # writes the module
echo "module: $(wc -c <"$MODULE") bytes; load average $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs"
LOG=$(mktemp)
for round in $(seq "$ROUNDS"); do
  x=$("$PYTHON" benches/hlo_xla_parse.py "$MODULE" 5)
  o=$(ours)
  echo "round $round: $x" | tee -a "$LOG"
  echo "round $round: $o" | tee -a "$LOG"
done
python3 - "$LOG" <<'PY'
import re, sys, statistics
xla, ours = [], []
for line in open(sys.argv[1]):
    m = re.search(r"(xla|reader) MB/s: wall median ([\d.]+) max [\d.]+, cpu median ([\d.]+)", line)
    if m:
        (xla if m[1] == "xla" else ours).append((float(m[2]), float(m[3])))
for i, ((xw, xc), (ow, oc)) in enumerate(zip(xla, ours), 1):
    print(f"round {i}: wall {ow:.0f} vs {xw:.1f} MB/s = {ow / xw:.1f}x; cpu {oc:.0f} vs {xc:.1f} MB/s = {oc / xc:.1f}x")
med = lambda v: statistics.median(v)
print(f"median: reader {med([o[0] for o in ours]):.0f} MB/s wall, {med([o[1] for o in ours]):.0f} MB/s cpu; "
      f"XLA {med([x[0] for x in xla]):.1f} MB/s wall, {med([x[1] for x in xla]):.1f} MB/s cpu; "
      f"ratio {med([o[0] / x[0] for o, x in zip(ours, xla)]):.1f}x wall, {med([o[1] / x[1] for o, x in zip(ours, xla)]):.1f}x cpu")
PY
rm -f "$LOG"
