//! The kernels of a relayout over storage of whole bytes per element: slots are `[u8; N]`
//! for `N` = 1, 2, 4, 8 or 16, any alignment. Runs are slice copies; blocks load `a` source
//! rows of `b` slots into a fixed-size array, transpose it and store `b` destination rows of
//! `a` slots: fixed trip counts that LLVM unrolls into vector shuffles. Blocks and runs that
//! the array's edge cuts are copied slot by slot, in bounds.

use core::ops::Range;

use super::digits::Loop;
use super::nest::{Kernel, Leaf, Nest};
use super::stream;

/// Where a row of blocks starts, how the block's loops step, how many blocks follow each
/// other and how.
#[derive(Clone, Copy)]
struct Blocks {
    at: (usize, usize),
    /// Destination stride of the block's source-contiguous loop.
    db: usize,
    /// Source stride of the block's destination-contiguous loop.
    sa: usize,
    reps: usize,
    step: (usize, usize),
    stream: bool,
}

type BlockFn<const N: usize> = fn(&mut [[u8; N]], &[[u8; N]], Blocks);

/// `reps` blocks of `A` source rows of `B` slots each into `B` destination rows of `A`.
#[inline(never)]
fn block<const N: usize, const A: usize, const B: usize>(
    dst: &mut [[u8; N]],
    src: &[[u8; N]],
    at: Blocks,
) {
    for r in 0..at.reps {
        let (d0, s0) = (at.at.0 + r * at.step.0, at.at.1 + r * at.step.1);
        let mut tile = [[[0u8; N]; A]; B];
        for x in 0..A {
            let row = &src[s0 + x * at.sa..][..B];
            for y in 0..B {
                tile[y][x] = row[y];
            }
        }
        if at.db == A {
            let out = &mut dst[d0..d0 + A * B];
            if at.stream && A * B * N >= 64 {
                stream::copy(out.as_flattened_mut(), tile.as_flattened().as_flattened());
            } else {
                out.copy_from_slice(tile.as_flattened());
            }
        } else {
            for (y, t) in tile.iter().enumerate() {
                let out = &mut dst[d0 + y * at.db..][..A];
                if at.stream && A * N >= 64 {
                    stream::copy(out.as_flattened_mut(), t.as_flattened());
                } else {
                    out.copy_from_slice(t);
                }
            }
        }
    }
}

/// The block kernel for `a × b` blocks (each a power of two up to 16).
fn block_fn<const N: usize>(a: usize, b: usize) -> BlockFn<N> {
    macro_rules! pick {
        ($($a:literal),*; $bs:tt) => {
            match a {
                $( $a => pick!(@b $a; $bs), )*
                _ => unreachable!("block sides are powers of two up to 16"),
            }
        };
        (@b $a:literal; [$($b:literal),*]) => {
            match b {
                $( $b => block::<N, $a, $b>, )*
                _ => unreachable!("block sides are powers of two up to 16"),
            }
        };
    }
    pick!(1, 2, 4, 8, 16; [1, 2, 4, 8, 16])
}

/// Copies the part `parts` of `nest` (see [`Nest::walk`]) from `src` into `dst`, with
/// non-temporal stores if `stream`.
pub(crate) fn copy<const N: usize>(
    nest: &Nest,
    dst: &mut [[u8; N]],
    src: &[[u8; N]],
    parts: Range<usize>,
    stream: bool,
) {
    match nest.kernel {
        Kernel::Element => nest.walk(parts, &mut |leaf: &Leaf<'_>| {
            for k in 0..leaf.n {
                let (d, s) = offsets(leaf, k);
                dst[d] = src[s];
            }
        }),
        Kernel::Run(run) => nest.walk(parts, &mut |leaf: &Leaf<'_>| {
            for k in 0..leaf.n {
                let len = nest.count(&run, Nest::at_step(leaf, run.dim, k));
                let (d, s) = offsets(leaf, k);
                let (d, s) = (&mut dst[d..d + len], &src[s..s + len]);
                if stream {
                    stream::copy(d.as_flattened_mut(), s.as_flattened());
                } else {
                    d.copy_from_slice(s);
                }
            }
        }),
        Kernel::Block { a, b } => {
            let kernel = block_fn::<N>(a.size, b.size);
            nest.walk(parts, &mut |leaf: &Leaf<'_>| {
                let whole = nest.whole_steps(leaf, &[a, b]);
                let at = Blocks {
                    at: leaf.at,
                    db: b.dst,
                    sa: a.src,
                    reps: whole,
                    step: (leaf.step.dst, leaf.step.src),
                    stream,
                };
                kernel(dst, src, at);
                for k in whole..leaf.n {
                    edge(nest, leaf, k, [a, b], &mut |d, s| dst[d] = src[s]);
                }
            });
        }
    }
}

/// The offsets of step `k` of a leaf's loop.
#[inline]
pub(crate) fn offsets(leaf: &Leaf<'_>, k: usize) -> (usize, usize) {
    (leaf.at.0 + k * leaf.step.dst, leaf.at.1 + k * leaf.step.src)
}

/// The slots of the block at step `k` of a leaf's loop that lie inside the array, each as
/// `copy(destination, source)`.
pub(crate) fn edge(
    nest: &Nest,
    leaf: &Leaf<'_>,
    k: usize,
    [a, b]: [Loop; 2],
    copy: &mut impl FnMut(usize, usize),
) {
    let (d0, s0) = offsets(leaf, k);
    let inside = |l: &Loop, x: usize, other: &Loop, y: usize| {
        let shared = if other.clip && other.dim == l.dim {
            y * other.mult
        } else {
            0
        };
        !l.clip || Nest::at_step(leaf, l.dim, k) + x * l.mult + shared < nest.bounds[l.dim]
    };
    for x in 0..a.size {
        for y in 0..b.size {
            if inside(&a, x, &b, y) && inside(&b, y, &a, x) {
                copy(d0 + x * a.dst + y * b.dst, s0 + x * a.src + y * b.src);
            }
        }
    }
}
