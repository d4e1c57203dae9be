#!/usr/bin/env bash
# Runtime benchmarks, written to BENCHMARKS.md between `<!-- runtime-bench:start -->` and
# `<!-- runtime-bench:end -->` (nothing else in the file is touched). Runs
#   cargo bench -p xla-layout-benches --bench relayout   RUNS times (about 2 minutes each on 2 cores)
#   the same with --features rayon, RAYON_NUM_THREADS=2, once
#   the same with -- --sweep (every ordered pair of a set of layouts per type), once
#   benches/relayout_numpy.py      once, if $PYTHON has numpy (default: python3)
#   cargo bench -p xla-layout-benches --bench offset     (about 30 s)
#   cargo bench -p xla-layout-benches --bench iterate    (about 20 s)
# and copies the table each prints (relayout's of the last run, and its ratios from every
# run, since memory bandwidth drifts between runs). Run it by hand on a machine as quiet as
# you can get (the load average is recorded), never from CI.
#
# usage: benches/runtime-bench.sh [RUNS]   (default 3)
set -euo pipefail
RUNS=${1:-3}

ROOT=$(cd "$(dirname "$0")/.." && pwd)
# From the root, so that rustup picks the toolchain of rust-toolchain.toml.
cd "$ROOT"
unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS CARGO_BUILD_RUSTFLAGS CARGO_BUILD_TARGET
CARGO=${CARGO:-cargo}
PYTHON=${PYTHON:-python3}
LOGS=$ROOT/target/runtime-bench
mkdir -p "$LOGS"

say() { printf '==> %s\n' "$*" >&2; }

say "building the benches"
$CARGO bench -p xla-layout-benches --no-run --bench relayout --bench offset --bench iterate >"$LOGS/build.txt" 2>&1
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
START=$(date -u '+%Y-%m-%d %H:%M UTC')
for run in $(seq "$RUNS"); do
  say "cargo bench -p xla-layout-benches --bench relayout ($run of $RUNS)"
  $CARGO bench -p xla-layout-benches --bench relayout >"$LOGS/relayout-$run.txt" 2>&1
done
cp "$LOGS/relayout-$RUNS.txt" "$LOGS/relayout.txt"
say "cargo bench -p xla-layout-benches --features rayon --bench relayout (2 threads)"
RAYON_NUM_THREADS=2 $CARGO bench -p xla-layout-benches --features rayon --bench relayout >"$LOGS/relayout-rayon.txt" 2>&1
say "cargo bench -p xla-layout-benches --bench relayout -- --sweep"
$CARGO bench -p xla-layout-benches --bench relayout -- --sweep >"$LOGS/sweep.txt" 2>&1
if "$PYTHON" -c 'import numpy' 2>/dev/null; then
  say "benches/relayout_numpy.py"
  "$PYTHON" benches/relayout_numpy.py >"$LOGS/numpy.txt" 2>&1
else
  echo "| numpy not installed for $PYTHON |" >"$LOGS/numpy.txt"
fi
for bench in offset iterate; do
  say "cargo bench -p xla-layout-benches --bench $bench"
  $CARGO bench -p xla-layout-benches --bench "$bench" >"$LOGS/$bench.txt" 2>&1
done
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

# The markdown table a bench printed last.
table() { awk '/^\|/ { if (gap && n) print ""; print; n++; gap = 0; next } { gap = 1 }' "$LOGS/$1.txt"; }

# The relayout table of the last run with numpy's ratio beside ours, where numpy has one.
with_numpy() {
  table relayout | awk -F' [|] ' -v numpy="$LOGS/numpy.txt" '
    BEGIN {
      while ((getline line < numpy) > 0) {
        n = split(line, f, / [|] /)
        if (n == 4) { sub(/^[|] /, "", f[1]); sub(/ [|]$/, "", f[4]); np[f[1]] = f[4] }
      }
    }
    /^$/ { main = 0 }
    /^[|] relayout [|] MiB/ { print $0 " numpy / np.copyto |"; head = 1; main = 1; next }
    head { print $0 "---|"; head = 0; next }
    main && /^[|] / && NF == 6 {
      name = $1; sub(/^[|] (typed )?/, "", name)
      print $0 " " ((name in np) ? np[name] : "–") " |"; next
    }
    { print }'
}

# `ours / memcpy` of every relayout run, one row per case.
ratios() {
  printf '| relayout |'
  for run in $(seq "$RUNS"); do printf ' run %s |' "$run"; done
  printf '\n|---|'
  for _ in $(seq "$RUNS"); do printf -- '---|'; done
  printf '\n'
  for run in $(seq "$RUNS"); do
    grep -E '^\| .* \| ≥ ' "$LOGS/relayout-$run.txt" | awk -F' [|] ' '{ print $1 "\t" $5 }'
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

which runs \`cargo bench -p xla-layout-benches --bench relayout\` $RUNS times, \`cargo bench -p xla-layout-benches --bench offset\` and
\`cargo bench -p xla-layout-benches --bench iterate\` (criterion 0.5, medians of 10 samples), on $START, measuring
commit $COMMIT. Machine: ${CPU:-unknown CPU}, $(nproc) CPUs (\`nproc\`), L3 ${L3:-unknown};
$(uname -sr); \`$(rustc -V)\`; default target flags (x86-64 baseline: SSE2 vectors, and AVX2 kernels for row and \`E(4)\` sub-tiles, \`E(2)\`/\`E(1)\` pairs and fields across planes, \`E(1)\` packing and transposes (in panels, 4- to 16-byte slots, and bytes and \`E(4)\` \`E(2)\` \`E(1)\` fields zipped into words, in square blocks of 32-byte rows; staged; in place) chosen at run time when the CPU has it; no
\`-C target-cpu\`). The 2 CPUs are shared with other jobs: load average (1, 5, 15 min)
$LOAD_BEFORE before and $LOAD_AFTER after. Memory bandwidth on this machine varies by ±15%
from minute to minute, memcpy's the most; ratios measured a few milliseconds apart (the paired
rounds) are the steadier ones.

### Relayout of 64 MiB arrays

\`cargo bench -p xla-layout-benches --bench relayout\`: every kind of layout pair (tile rows, \`(2,1)\` \`(4,1)\`
\`(8,1)\` sub-tiles, transposed tiles, \`*\` tiles, \`E(4)\` \`E(2)\` \`E(1)\` packing and unpacking,
untiled permutations of rank 2 and 4; 1-bit to 16-byte elements) through the runtime API (\`CopyPlan::copy\` over bytes), then
a few through the typed \`Tensor::copy_from\` (the same engine), each against
\`copy_from_slice\` of the same bytes (the memcpy bound). 11 rounds of (read 128 MiB, memcpy,
read 128 MiB, relayout): every copy starts from DRAM, and the ratio is the median of the rounds'
ratios, both sides of each ratio measured a few milliseconds apart. GB/s are bytes of the larger
buffer per second (the memcpy copies as many; unpacking writes more than it reads), 10^9 bytes; single-threaded (the 2-thread figures follow). Buffers are
64-byte aligned (\`AlignedBuf\`), as XLA allocates them. Goals (issue 13): relayouts of
tiles at least 0.8 of memcpy, untiled permutations at least 0.5. Copies of 16 MiB or more
write whole cache lines with non-temporal stores (\`movntdq\`), which skip the
read-for-ownership a normal store makes: that is how a relayout can beat a memcpy that does not
stream at this size (a destination line that is not 64-byte aligned is stored normally).

The row \`hand-written f32 2-D transpose\` is the baseline of the transposes: the loop a user
would write (32×32 blocks, an element at a time), on the same array as \`f32 2-D transpose\`
and checked against the engine's result.

Then the same engine into a destination 16 bytes past a line, where a large \`Vec<u8>\` from
the system allocator starts, each beside its ratio into one on a line (measured right after
it): the lines the kernels stream are then two halves of the memory's, so the block kernels of
bit fields store normally, and the others stream what whole lines they can.

Then small tensors: \`copy_from\` of one 4 KiB tensor, hot, against \`copy_from_slice\`; the
copy plan of a pair of layout types is built on the first call and kept. And arrays that fit
the caches (256 KiB in L2 to 4 MiB in L3), hot: each relayout timed over 64 MiB of back-to-back
copies against as many \`copy_from_slice\` of the same bytes (which run at L2 or L3 speed, not
memory's). No goal in issue 13; most tensors are this size.

The last run, with numpy's best equivalent beside it where numpy has one (its own ratio to
its own copy, \`numpy / np.copyto\`, from the numpy table below):

$(with_numpy)

\`ours / memcpy\` in every run:

$(ratios)

With the \`rayon\` feature and 2 threads (\`RAYON_NUM_THREADS=2 cargo bench -p xla-layout-benches
--features rayon --bench relayout\`, run once right after; memcpy stays one thread, so a ratio
above 1 is the second core's share of the memory bandwidth):

$(table relayout-rayon)

Every ordered pair of a set of layouts per element type (\`cargo bench -p xla-layout-benches
--bench relayout -- --sweep\`: plain and transposed, tiled and transposed tiles, sub-tiles,
packed; 3 rounds each, run once), lowest ratio first: where the relayout cliffs are. The goal
column marks 0.5 of memcpy for every pair.

<details><summary>$(grep -c '^| [a-z0-9]*\[' "$LOGS/sweep.txt") pairs</summary>

$(table sweep)

</details>

numpy's best equivalent of each relayout (\`benches/relayout_numpy.py\`: a reshape into the
tiled dims, a transpose, and \`np.copyto\` into a preallocated array; \`np.packbits\` and
\`np.unpackbits\` for \`E(1)\`, which allocate their result), against \`np.copyto\` of the larger
side's bytes, measured the same way (bf16 as uint16). numpy picks AVX2 or AVX-512 code at run
time where it has it; so does this crate for row and \`E(4)\` sub-tiles, \`E(2)\`/\`E(1)\` pairs and planes, \`E(1)\` packing, transposes and packed fields zipped into words (AVX2), its other kernels are SSE2, the x86-64 baseline:

$(cat "$LOGS/numpy.txt")

### Offset computation over a full traversal, 1024×1024

Every element visited in logical row-major order and loaded through its offset, the loaded bits
summed so that nothing is optimised away; ns per element. \`layout\` is the \`layout!\` type's
\`offset\`, \`hand\` the closed form written by hand (\`i * 1024 + j\`; for \`T(8,128)\`
\`(i / 8) * 8192 + (j / 128) * 1024 + (i % 8) * 128 + j % 128\`; for \`T(8,128)(2,1)\` also
\`(i % 8 / 2) * 256 + (j % 128) * 2 + i % 2\`; for \`T(6,100)\`
\`(i / 6) * 6600 + (j / 100) * 600 + (i % 6) * 100 + j % 100\`), \`plan\` layout-core's
runtime \`Plan::offset\` (compiled at \`Plan::new\`: per dimension \`x·C0 + (x >> a1)·C1 + ...\`
for power-of-two tiles, one multiply \`x·C0\` untiled, exact multiply-shift reciprocals
otherwise, no hardware divide) in a function that takes the \`&Plan\`, as a user's loop would,
\`plan-batch\` its batch form \`Plan::offsets\` over one row of 1024 indices at a time,
\`plan-along\` \`Plan::offsets_along\` of each row from its first index (one offset per tile row),
\`ndarray\` indexing an \`ndarray::Array2\` (untiled layouts only). The untiled \`hand\` loop
is vectorised by the compiler (sixteen offsets a few instructions), which an offset per
index from a plan known only at run time cannot match: compare \`plan\` there with
\`ndarray\`'s indexing, whose strides are known only at run time too.

$(table offset)

### Iteration, 1024×1024 f32

Each tensor traversal against the same loop over the raw storage slice (\`÷ slice loop\`):
\`.map(f64::from).sum::<f64>()\` through \`iter\` (logical order), \`values_physical\` (memory
order), \`iter_physical\` (memory order with indices, ignored; \`iter_physical-index\` also adds
\`i ^ j\`, more work than the slice loop); \`map_inplace(|x| x * 0.5 + 1.0)\` and
\`zip_with(&b, |x, y| x * 0.5 + y)\` against the same loop over slices; \`*x += 1.0\` through
\`iter_mut\` (logical order) in a \`for\` loop (\`next\`) and through \`for_each\` (run by run)
against \`slice.iter_mut()\`; ns per element (criterion's median). \`÷ slice loop\` is the median of
31 rounds that each time the variant and its slice loop back to back (4 traversals each): the
loops over writes take 0.1 ns an element, and criterion's medians of the two, measured seconds
apart, swung by 2× from run to run. Goals (issue 13): \`iter\` within 2× of its slice
loop, \`iter_physical\`, \`map_inplace\` and \`zip_with\` within 1.3×.

$(table iterate)
<!-- runtime-bench:end -->
EOF

# shellcheck source=scripts/lib/bench-section.sh
source "$ROOT/scripts/lib/bench-section.sh"
write_section runtime-bench "$SECTION"
