#!/usr/bin/env bash
# Compile-time cost of `layout!`, written to BENCHMARKS.md between
# `<!-- compile-bench:start -->` and `<!-- compile-bench:end -->` (nothing else in the file is
# touched). Stable toolchain only. Slow (minutes): run it by hand, never from CI.
#
# usage: scripts/compile-bench.sh [--worktree | --rev REV] [N] [RUNS]
#   N      distinct layouts to generate (default 500)
#   RUNS   timed builds per measurement; the table gives the minimum and the median (default 5)
#   --rev REV   measure a `git archive` of REV (default HEAD), so the numbers belong to a commit
#   --worktree  measure the working tree as it is instead
#
# What it measures, each in its own target dir under target/compile-bench/:
#  1. a clean `cargo build -p xla-layout-macros --release` (the macro and its dependencies:
#     proc-macro2, quote, syn, xla-layout-core), and the macro crate alone with its
#     dependencies already built;
#  2. generated crates (scripts/compile-bench/gen.rs): `layouts`, N functions each calling
#     `<layout!(..)>::offset` on a distinct layout, and `hand`, the same N functions with the
#     closed form written out; `cargo check`, debug and release builds of each, timed after a
#     first build so that only the generated crate is compiled (incremental compilation off);
#  3. per-invocation cost: (layouts - hand) / N for each profile, and the expansion alone:
#     (`aliases` - `baseline`) / N from `cargo check`, where `aliases` has only
#     `type LK = layout!(..);` and `baseline` has `type LK = [u8; K];`.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
# From the root, so that rustup picks the toolchain of rust-toolchain.toml.
cd "$ROOT"
COMMAND="scripts/compile-bench.sh${*:+ $*}"
WORKTREE=0
REVISION=HEAD
while [[ ${1:-} == --* ]]; do
  case $1 in
    --worktree) WORKTREE=1 ;;
    --rev)
      REVISION=${2:?--rev needs a revision}
      shift
      ;;
    *)
      echo "unknown option $1" >&2
      exit 2
      ;;
  esac
  shift
done
N=${1:-500}
RUNS=${2:-5}

CARGO=${CARGO:-cargo}
BENCH=$ROOT/target/compile-bench
rm -rf "$BENCH"
mkdir -p "$BENCH"
LOG=$BENCH/log.txt
: >"$LOG"
export CARGO_INCREMENTAL=0
unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS CARGO_BUILD_RUSTFLAGS CARGO_TARGET_DIR CARGO_BUILD_TARGET

say() { printf '==> %s\n' "$*" >&2; }

# The sources to measure.
if [[ $WORKTREE == 1 ]]; then
  SRC=$ROOT
  REV="working tree at $(git -C "$ROOT" rev-parse --short HEAD)"
  git -C "$ROOT" diff --quiet HEAD -- || REV+=" with uncommitted changes"
else
  SRC=$BENCH/src
  mkdir -p "$SRC"
  git -C "$ROOT" archive "$REVISION" | tar -x -C "$SRC"
  REV="commit $(git -C "$ROOT" rev-parse --short "$REVISION")"
fi

# Runs a command quietly (output to the log); on failure shows the log's tail and exits.
run() {
  if ! "$@" >>"$LOG" 2>&1; then
    echo "failed: $*" >&2
    tail -n 60 "$LOG" >&2
    exit 1
  fi
}

# Times a command: prints "WALL CPU" in seconds, CPU being user + system time of the command
# and its children. On a shared machine the CPU time is the steadier of the two.
timed() {
  local tf TIMEFORMAT='%3R %3U %3S'
  tf=$(mktemp)
  if ! { time "$@" >>"$LOG" 2>&1; } 2>"$tf"; then
    echo "failed: $*" >&2
    tail -n 60 "$LOG" >&2
    rm -f "$tf"
    exit 1
  fi
  awk '{ printf "%.2f %.2f", $1, $2 + $3 }' "$tf"
  rm -f "$tf"
}

# Minimum and median of the wall and the CPU times in "WALL CPU" arguments, into
# WMIN[key], WMED[key], CMIN[key] and CMED[key].
declare -A WMIN WMED CMIN CMED
record() {
  local key=$1 col out
  shift
  for col in 1 2; do
    out=$(printf '%s\n' "$@" | awk -v c="$col" '{ print $c }' | sort -g | awk '{ v[NR] = $1 } END {
      m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
      printf "%.2f %.2f", v[1], m }')
    if [[ $col == 1 ]]; then
      WMIN[$key]=${out% *} WMED[$key]=${out#* }
    else
      CMIN[$key]=${out% *} CMED[$key]=${out#* }
    fi
  done
}

# ---------------------------------------------------------------------------------------------
say "1. clean release build of xla-layout-macros"
MACRO_TARGET=$BENCH/macro
# (Each time is assigned before it is used, so that `set -e` stops the script on a failure.)
t=$(cd "$SRC" && CARGO_TARGET_DIR=$MACRO_TARGET timed "$CARGO" build -p xla-layout-macros --release)
record macro.clean "$t"
runs=()
for ((r = 0; r < RUNS; r++)); do
  (cd "$SRC" && CARGO_TARGET_DIR=$MACRO_TARGET run "$CARGO" clean -p xla-layout-macros --release)
  t=$(cd "$SRC" && CARGO_TARGET_DIR=$MACRO_TARGET timed "$CARGO" build -p xla-layout-macros --release)
  runs+=("$t")
done
record macro.alone "${runs[@]}"

# ---------------------------------------------------------------------------------------------
say "2. generating $N layouts"
GEN=$BENCH/gen
mkdir -p "$GEN/src"
cp "$ROOT/scripts/compile-bench/gen.rs" "$GEN/src/main.rs"
cp "$SRC/Cargo.lock" "$GEN/Cargo.lock"
cat >"$GEN/Cargo.toml" <<EOF
[package]
name = "compile-bench-gen"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
xla-layout-core = { path = "$SRC/layout-core" }

[workspace]
EOF
CRATES=$BENCH/crates
CRATE_TARGET=$BENCH/crates-target
run env CARGO_TARGET_DIR="$BENCH/gen-target" "$CARGO" build --manifest-path "$GEN/Cargo.toml"
MIX=$("$BENCH/gen-target/debug/compile-bench-gen" "$N" "$CRATES")
for c in layouts hand aliases baseline; do
  cat >"$CRATES/$c/Cargo.toml" <<EOF
[package]
name = "bench-$c"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
xla-layout = { path = "$SRC" }

[workspace]
EOF
  cp "$SRC/Cargo.lock" "$CRATES/$c/Cargo.lock"
done

# Times one generated crate in one mode: a first build (dependencies), then RUNS rebuilds of
# the crate alone, recorded under CRATE.MODE.
measure() {
  local crate=$1 mode=$2 cmd envs=() runs=() t
  say "   $crate: $mode"
  case $mode in
    check) cmd=(check) ;;
    check-opt)
      cmd=(check)
      envs=(CARGO_PROFILE_DEV_BUILD_OVERRIDE_OPT_LEVEL=3)
      ;;
    debug) cmd=(build) ;;
    release) cmd=(build --release) ;;
  esac
  cmd=(env CARGO_TARGET_DIR="$CRATE_TARGET" "${envs[@]}"
    "$CARGO" "${cmd[@]}" --lib --manifest-path "$CRATES/$crate/Cargo.toml")
  run "${cmd[@]}"
  for ((r = 0; r < RUNS; r++)); do
    touch "$CRATES/$crate/src/lib.rs"
    t=$(timed "${cmd[@]}")
    runs+=("$t")
  done
  record "$crate.$mode" "${runs[@]}"
}

for mode in check debug release; do
  measure layouts "$mode"
  measure hand "$mode"
done
measure aliases check
measure aliases check-opt
measure baseline check

# Milliseconds per layout between the minimum CPU (c) or wall (w) times of two keys.
per() {
  local a b
  if [[ $1 == c ]]; then a=${CMIN[$2]} b=${CMIN[$3]}; else a=${WMIN[$2]} b=${WMIN[$3]}; fi
  awk -v a="$a" -v b="$b" -v n="$N" 'BEGIN { printf "%.2f", (a - b) * 1000 / n }'
}
# "min (median)" of a key's CPU (c) or wall (w) times.
cell() {
  if [[ $1 == c ]]; then echo "${CMIN[$2]} (${CMED[$2]})"; else echo "${WMIN[$2]} (${WMED[$2]})"; fi
}

# ---------------------------------------------------------------------------------------------
say "3. writing BENCHMARKS.md"
CPU=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
EXAMPLE=$(awk '/^pub fn/ { getline; sub(/^ +/, ""); print; exit }' "$CRATES/hand/src/lib.rs")
SECTION=$(mktemp)
cat >"$SECTION" <<EOF
<!-- compile-bench:start -->
## Compile time of \`layout!\`

Written by \`scripts/compile-bench.sh\`; edit the script, not this section. These numbers were
produced by

\`\`\`sh
$COMMAND
\`\`\`

on $(date -u +%Y-%m-%d), measuring $REV, with $N layouts and $RUNS timed runs per measurement.
Machine: ${CPU:-unknown CPU}, $(nproc) CPUs (\`nproc\`), $(uname -sr);
\`$(rustc -V)\`, \`$("$CARGO" -V)\`. The machine is shared with other jobs, so
**CPU** time (user + system, of cargo, rustc and the proc macro) is the number to read; the
wall-clock time is inflated by whatever else was running. Every cell is in seconds: the
minimum over the runs, with the median in parentheses. Incremental compilation is off.

### The macro crate

| Build | CPU s | wall s |
|---|---|---|
| clean \`cargo build -p xla-layout-macros --release\` (with proc-macro2, quote, syn, xla-layout-core) | ${CMIN[macro.clean]} | ${WMIN[macro.clean]} |
| the macro crate alone, its dependencies built | $(cell c macro.alone) | $(cell w macro.alone) |

### $N uses

$MIX.

The crate \`layouts\` has $N functions
\`pub fn fK(i0: usize, ..) -> usize { <layout!(..)>::offset([i0, ..]) }\`, one per layout. The
crate \`hand\` has the same functions with the closed form that \`Plan::offset_expr\` prints written
out, such as \`$EXAMPLE\`. Each
cell is a rebuild of that crate alone, after its dependencies were built.

| CPU s | \`cargo check\` | debug build | release build |
|---|---|---|---|
| \`layouts\` | $(cell c layouts.check) | $(cell c layouts.debug) | $(cell c layouts.release) |
| \`hand\` | $(cell c hand.check) | $(cell c hand.debug) | $(cell c hand.release) |
| **per \`layout!\` use**, (layouts − hand) / $N, **ms** | **$(per c layouts.check hand.check)** | **$(per c layouts.debug hand.debug)** | **$(per c layouts.release hand.release)** |

| wall s | \`cargo check\` | debug build | release build |
|---|---|---|---|
| \`layouts\` | $(cell w layouts.check) | $(cell w layouts.debug) | $(cell w layouts.release) |
| \`hand\` | $(cell w hand.check) | $(cell w hand.debug) | $(cell w hand.release) |
| per \`layout!\` use, (layouts − hand) / $N, ms | $(per w layouts.check hand.check) | $(per w layouts.debug hand.debug) | $(per w layouts.release hand.release) |

### The expansion alone

\`cargo check\` of a crate of $N \`type LK = layout!(..);\` aliases, against the same crate with
\`type LK = [u8; K];\`. This is the proc macro (tokens to text, parse, validate, plan, spell the
type) plus rustc resolving the alias. Cargo compiles proc macros unoptimised (opt-level 0) by
default, even for release builds. The second row sets
\`CARGO_PROFILE_DEV_BUILD_OVERRIDE_OPT_LEVEL=3\` instead.

| \`cargo check\` | CPU s | wall s |
|---|---|---|
| \`aliases\` | $(cell c aliases.check) | $(cell w aliases.check) |
| \`aliases\`, macro at opt-level 3 | $(cell c aliases.check-opt) | $(cell w aliases.check-opt) |
| \`baseline\` | $(cell c baseline.check) | $(cell w baseline.check) |
| **per expansion**, (aliases − baseline) / $N, **ms** | **$(per c aliases.check baseline.check)** | $(per w aliases.check baseline.check) |
| per expansion, macro at opt-level 3, ms | $(per c aliases.check-opt baseline.check) | $(per w aliases.check-opt baseline.check) |

The rest of a use's cost, in the tables above, is rustc's. It type-checks the spelled
\`Array<..>\` type and its \`Layout\` impl, evaluates the \`const fn\`s that compute the
layout's steps, sizes and text from the type's arguments, and monomorphises \`offset\`: the
plan's steps unrolled over those constants. A debug build emits the steps as calls, so debug
builds pay the most. A release build folds them into the closed form.
<!-- compile-bench:end -->
EOF

# shellcheck source=scripts/lib/bench-section.sh
source "$ROOT/scripts/lib/bench-section.sh"
write_section compile-bench "$SECTION"
