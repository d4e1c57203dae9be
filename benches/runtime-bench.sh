#!/usr/bin/env bash
# Runtime benchmarks, written to BENCHMARKS.md between `<!-- runtime-bench:start -->` and
# `<!-- runtime-bench:end -->` (nothing else in the file is touched). Runs
#   cargo bench --bench relayout   RUNS times (about 1 minute each on 2 cores)
#   cargo bench --bench offset     (about 30 s)
#   cargo bench --bench iterate    (about 20 s)
# and copies the table each prints after criterion's report (relayout's of the last run, and
# its ratios from every run, since memory bandwidth drifts between runs). Run it by hand on a
# machine as quiet as you can get (the load average is recorded), never from CI.
#
# usage: benches/runtime-bench.sh [RUNS]   (default 3)
set -euo pipefail
RUNS=${1:-3}

ROOT=$(cd "$(dirname "$0")/.." && pwd)
# From the root, so that rustup picks the toolchain of rust-toolchain.toml.
cd "$ROOT"
unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS CARGO_BUILD_RUSTFLAGS CARGO_BUILD_TARGET
CARGO=${CARGO:-cargo}
LOGS=$ROOT/target/runtime-bench
mkdir -p "$LOGS"

say() { printf '==> %s\n' "$*" >&2; }

say "building the benches"
$CARGO bench --no-run --bench relayout --bench offset --bench iterate >"$LOGS/build.txt" 2>&1
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
START=$(date -u '+%Y-%m-%d %H:%M UTC')
for run in $(seq "$RUNS"); do
  say "cargo bench --bench relayout ($run of $RUNS)"
  $CARGO bench --bench relayout >"$LOGS/relayout-$run.txt" 2>&1
done
cp "$LOGS/relayout-$RUNS.txt" "$LOGS/relayout.txt"
for bench in offset iterate; do
  say "cargo bench --bench $bench"
  $CARGO bench --bench "$bench" >"$LOGS/$bench.txt" 2>&1
done
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

# The markdown table a bench printed last.
table() { grep '^|' "$LOGS/$1.txt"; }

# `copy_from / memcpy` of every relayout run, hot and cold, one row per direction.
ratios() {
  printf '| direction |'
  for run in $(seq "$RUNS"); do printf ' run %s: hot, cold |' "$run"; done
  printf '\n|---|'
  for _ in $(seq "$RUNS"); do printf -- '---|'; done
  printf '\n'
  for run in $(seq "$RUNS"); do
    grep '^| [a-z0-9]*-[^ ]*-to-' "$LOGS/relayout-$run.txt" | awk -F' [|] ' '{ print $1 "\t" $4 ", " $9 }'
  done | awk -F'\t' '
    !($1 in row) { order[++n] = $1; row[$1] = $1 " |" }
    { row[$1] = row[$1] " " $2 " |" }
    END { for (i = 1; i <= n; i++) print row[order[i]] }'
}

COMMIT=$(git rev-parse --short HEAD)
if [[ -n $(git status --porcelain --untracked-files=no -- . ':!BENCHMARKS.md') ]]; then
  COMMIT="$COMMIT (with uncommitted changes)"
fi
CPU=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
L3=$(lscpu 2>/dev/null | awk -F': +' '/^L3 cache/ { print $2; exit }' || true)
SECTION=$(mktemp)
cat >"$SECTION" <<EOF
<!-- runtime-bench:start -->
## Runtime

Written by \`benches/runtime-bench.sh\`; edit the script, not this section. These numbers were
produced by

\`\`\`sh
benches/runtime-bench.sh
\`\`\`

which runs \`cargo bench --bench relayout\` $RUNS times, \`cargo bench --bench offset\` and
\`cargo bench --bench iterate\` (criterion 0.5, medians of 10 samples), on $START, measuring
commit $COMMIT. Machine: ${CPU:-unknown CPU}, $(nproc) CPUs (\`nproc\`), L3 ${L3:-unknown};
$(uname -sr); \`$(rustc -V)\`; default target flags (x86-64 baseline, so SSE2 vectors; no
\`-C target-cpu\`). The 2 CPUs are shared with other jobs: load average (1, 5, 15 min)
$LOAD_BEFORE before and $LOAD_AFTER after. Memory bandwidth on this machine varies by ±15%
from minute to minute, memcpy's the most; ratios measured a few milliseconds apart (the cold
columns) are the steadier ones.

### Relayout of 4096×4096 arrays

\`Tensor::copy_from\` from row-major to TPU tiles and back, against \`copy_from_slice\` of the
same bytes (the memcpy bound) and a naive per-element loop,
\`dst[Dst::offset(idx)] = src[Src::offset(idx)]\` over all indices in row-major order. GB/s are
bytes of one buffer (64 MiB for f32, 32 MiB for bf16) per second, 10^9 bytes. *Hot*: criterion
repeats one copy on the same buffers, so a repeated 32 MiB memcpy finds part of its source in
the 32 MiB L3. *Cold*: 25 rounds of (read 128 MiB, memcpy, read 128 MiB, \`copy_from\`), each
copy starting from DRAM; the ratio is the median of the rounds' ratios. Goals: f32 at least 90%
of memcpy, bf16 at least 70%, in both directions.

The last run:

$(table relayout)

\`copy_from / memcpy\` in every run:

$(ratios)

\`copy_from\` copies each 128-element tile row as one run (f32), and interleaves two source rows
into the pairs of a \`(2,1)\` sub-tile (or splits them back) through a 128-pair block on the
stack (bf16). Copies of 16 MiB or more write with non-temporal stores (\`movntdq\`), which skip
the read-for-ownership a normal store makes of every destination line: that is why the f32
copies beat a memcpy that does not stream at this size. The hot bf16 columns compare against a
memcpy whose 32 MiB source partly stays in the L3 between criterion's repetitions, while the
streamed copy sends its output past the cache; the cold columns, both starting from DRAM, are
the fair comparison.

### Offset computation over a full traversal, 1024×1024

Every element visited in logical row-major order and loaded through its offset, the loaded bits
summed so that nothing is optimised away; ns per element. \`layout\` is the \`layout!\` type's
\`offset\`, \`hand\` the closed form written by hand (\`i * 1024 + j\`; for \`T(8,128)\`
\`(i / 8) * 8192 + (j / 128) * 1024 + (i % 8) * 128 + j % 128\`; for \`T(8,128)(2,1)\` also
\`(i % 8 / 2) * 256 + (j % 128) * 2 + i % 2\`), \`plan\` layout-core's runtime \`Plan::offset\`,
\`ndarray\` indexing an \`ndarray::Array2\` (untiled layouts only).

$(table offset)

### Iteration, 1024×1024 f32

\`Tensor::iter_physical\` (memory order, with each element's logical index) and \`Tensor::iter\`
(logical order) against summing the raw storage slice; ns per element.

$(table iterate)
<!-- runtime-bench:end -->
EOF

# shellcheck source=scripts/lib/bench-section.sh
source "$ROOT/scripts/lib/bench-section.sh"
write_section runtime-bench "$SECTION"
