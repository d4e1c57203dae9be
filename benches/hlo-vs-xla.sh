#!/usr/bin/env bash
# XLA's HLO parser and `xla_layout::hlo::parse_module` side by side on the same ~20 MB module
# (built by benches/hlo_parse.rs from tests/data/hlo and written to target/hlo-bench/).
# Alternates the two ROUNDS times, so that both see the same load on a shared machine, prints
# each round's MB/s (wall-clock and CPU time of the parsing thread) and the ratios, and writes
# them to BENCHMARKS.md between `<!-- hlo-bench:start -->` and `<!-- hlo-bench:end -->`
# (nothing else in the file is touched). Run it by hand, never from CI.
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

cargo bench -p xla-layout-benches --bench hlo_parse --no-run 2>/dev/null
ours() { HLO_PARSE_TIMES=10 cargo bench -p xla-layout-benches -q --bench hlo_parse 2>/dev/null | grep '^reader'; }
ours >/dev/null # writes the module
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
START=$(date -u '+%Y-%m-%d %H:%M UTC')
echo "module: $(wc -c <"$MODULE") bytes; load average $LOAD_BEFORE; $(nproc) CPUs"
LOG=$(mktemp)
for round in $(seq "$ROUNDS"); do
  x=$("$PYTHON" benches/hlo_xla_parse.py "$MODULE" 5)
  o=$(ours)
  echo "round $round: $x" | tee -a "$LOG"
  echo "round $round: $o" | tee -a "$LOG"
done
export START LOAD_BEFORE ROUNDS
export COMMIT=$(git rev-parse --short HEAD)
export MACHINE="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) CPUs, Linux $(uname -r)"
export RUSTC="$(rustc --version)"
export JAXLIB="$("$PYTHON" -c 'import jaxlib; print(jaxlib.__version__)')"
export LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
export BYTES=$(wc -c <"$MODULE")
python3 - "$LOG" BENCHMARKS.md <<'PY'
import os, re, sys, statistics
xla, ours = [], []
for line in open(sys.argv[1]):
    m = re.search(r"(xla|reader) MB/s: wall median ([\d.]+) max [\d.]+, cpu median ([\d.]+)", line)
    if m:
        (xla if m[1] == "xla" else ours).append((float(m[2]), float(m[3])))
e = os.environ
rows = []
for i, ((xw, xc), (ow, oc)) in enumerate(zip(xla, ours), 1):
    rows.append(f"| {i} | {ow:.0f} | {xw:.1f} | {ow / xw:.1f}x | {oc:.0f} | {xc:.1f} | {oc / xc:.1f}x |")
med = statistics.median
summary = (
    f"| median | {med([o[0] for o in ours]):.0f} | {med([x[0] for x in xla]):.1f} | "
    f"{med([o[0] / x[0] for o, x in zip(ours, xla)]):.1f}x | {med([o[1] for o in ours]):.0f} | "
    f"{med([x[1] for x in xla]):.1f} | {med([o[1] / x[1] for o, x in zip(ours, xla)]):.1f}x |"
)
section = f"""<!-- hlo-bench:start -->
## Reading HLO modules

Written by `benches/hlo-vs-xla.sh`; edit the script, not this section. These numbers were
produced by

```sh
benches/hlo-vs-xla.sh {e['ROUNDS']}
```

on {e['START']}, measuring commit {e['COMMIT']}. Machine: {e['MACHINE']}; `{e['RUSTC']}`;
jaxlib {e['JAXLIB']}. Load average {e['LOAD_BEFORE']} before, {e['LOAD_AFTER']} after: the
machine is shared, so the CPU time of the parsing thread is the fairer figure.

The module: {int(e['BYTES']):,} bytes, built by `benches/hlo_parse.rs` from every module of
`tests/data/hlo` that XLA accepts (copies with renamed computations, one ENTRY). Each round
times XLA's own parser (jaxlib's `hlo_module_from_text`, warm, in-process, median of 5) and
then `xla_layout::hlo::parse_module` (median of 10) on that same text; MB = 10^6 bytes.

| round | reader MB/s (wall) | XLA MB/s (wall) | ratio | reader MB/s (CPU) | XLA MB/s (CPU) | ratio |
|---|---|---|---|---|---|---|
""" + "\n".join(rows) + "\n" + summary + "\n<!-- hlo-bench:end -->"
print(section)
path = sys.argv[2]
text = open(path).read()
if "<!-- hlo-bench:start -->" in text:
    text = re.sub(r"<!-- hlo-bench:start -->.*<!-- hlo-bench:end -->", lambda _: section, text, flags=re.S)
else:
    text = text.rstrip("\n") + "\n\n" + section + "\n"
open(path, "w").write(text)
PY
rm -f "$LOG"
