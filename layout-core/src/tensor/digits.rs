//! The loops of a relayout: both layouts' offsets written as sums over common *digits* of the
//! logical index.
//!
//! A layout's offset is `Σ_j stride_j · c_j` over its expanded (tiled) coordinates, and each
//! tile turns a coordinate `c` into `c / t` and `c % t`. When tile sizes nest (each divides the
//! next, as TPU tiles do), every coordinate is a sum of *digits* `(i_d / lo) % range` of the
//! logical indices, so the offset is linear in the digits. Splitting each dimension at the
//! break points of both layouts gives digits that both offsets are linear in: one loop per
//! digit, with a stride on each side. Pairs whose tiles do not nest (a sub-tile that does not
//! divide its tile, `*` over dims a tile cuts across) have no such digits and are copied
//! element by element instead.

use alloc::vec;
use alloc::vec::Vec;

use crate::index::Plan;
use crate::model::tiling::Step;

/// `coef · ((i_dim / lo) % range)`, without the `%` when `top` (the most significant digit of
/// its dimension, whose value stays below `range` because the index stays below the extent).
#[derive(Clone, Copy, Debug)]
struct Term {
    dim: usize,
    lo: usize,
    range: usize,
    top: bool,
    coef: usize,
}

/// One loop of a copy: `size` steps, each moving the destination offset by `dst` and the
/// source offset by `src` element slots. The loop steps digit `mult` of dimension `dim` (its
/// index grows by `mult` per step); with `clip`, stepping it may leave the array (the
/// dimension is not a whole number of the digit's steps), so its step count is clipped to
/// stay below the dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Loop {
    pub(crate) size: usize,
    pub(crate) dst: usize,
    pub(crate) src: usize,
    pub(crate) dim: usize,
    pub(crate) mult: usize,
    /// The most significant digit of its dimension: splitting it into blocks may overhang,
    /// which a clip catches.
    pub(crate) top: bool,
    pub(crate) clip: bool,
}

/// `form / t` and `form % t` as forms, or `None` if either is not a sum of digits.
fn divmod(form: &[Term], t: usize) -> Option<(Vec<Term>, Vec<Term>)> {
    let (mut q, mut r) = (Vec::new(), Vec::new());
    for &term in form.iter().filter(|term| term.range > 1) {
        if term.coef.is_multiple_of(t) {
            q.push(Term {
                coef: term.coef / t,
                ..term
            });
        } else if term.coef > t {
            return None;
        } else if term.coef.checked_mul(term.range)? <= t {
            r.push(term);
        } else {
            // coef < t < coef · range: split the digit at t / coef.
            if !t.is_multiple_of(term.coef) {
                return None;
            }
            let f = t / term.coef;
            if !term.top && !term.range.is_multiple_of(f) {
                return None;
            }
            r.push(Term {
                range: f,
                top: false,
                ..term
            });
            q.push(Term {
                lo: term.lo.checked_mul(f)?,
                range: term.range.div_ceil(f),
                coef: 1,
                ..term
            });
        }
    }
    // The remainder is exact only if its terms never add up to `t`.
    let mut max = 0usize;
    for term in &r {
        max = max.checked_add(term.coef.checked_mul(term.range - 1)?)?;
    }
    (max < t).then_some((q, r))
}

/// A layout's offset as `Σ stride · digit` terms, or `None` if it is not linear in digits.
fn side_terms(plan: &Plan) -> Option<Vec<(Term, usize)>> {
    let extents = plan.tiling_stages().swap_remove(0);
    let mut work: Vec<Vec<Term>> = plan
        .physical_order()
        .iter()
        .zip(&extents)
        .map(|(&dim, &range)| {
            vec![Term {
                dim,
                lo: 1,
                range,
                top: true,
                coef: 1,
            }]
        })
        .collect();
    for step in &plan.steps {
        match step {
            Step::Pad { by } => {
                work.splice(0..0, (0..*by).map(|_| Vec::new()));
            }
            Step::Combine { at, mult } => {
                let mult = usize::try_from(*mult).ok()?;
                let major = work.remove(*at);
                for t in major {
                    let coef = t.coef.checked_mul(mult)?;
                    work[*at].push(Term { coef, ..t });
                }
            }
            Step::Tile { start, sizes, .. } => {
                for (j, &t) in sizes.iter().enumerate() {
                    let t = usize::try_from(t).ok()?;
                    let (q, r) = divmod(&work[start + j], t)?;
                    work[start + j] = q;
                    work.push(r);
                }
            }
        }
    }
    let mut out = Vec::new();
    for (form, &stride) in work.iter().zip(plan.expanded_strides()) {
        for t in form.iter().filter(|t| t.range > 1) {
            out.push((*t, t.coef.checked_mul(stride)?));
        }
    }
    Some(out)
}

/// The loops of a copy into the `dst` layout from the `src` layout (same dims), one per common
/// digit of size above 1, or `None` when one side's offset is not linear in common digits.
pub(crate) fn loops(dst: &Plan, src: &Plan) -> Option<Vec<Loop>> {
    let dims = dst.dims();
    if src.dims() != dims {
        return None;
    }
    let sides = [side_terms(dst)?, side_terms(src)?];
    // Break points of each dimension: where a digit of either side starts or ends.
    let mut breaks: Vec<Vec<usize>> = vec![vec![1]; dims.len()];
    for (t, _) in sides.iter().flatten() {
        let n = dims[t.dim];
        if t.lo >= n {
            continue; // always 0
        }
        breaks[t.dim].push(t.lo);
        let hi = t.lo.checked_mul(t.range)?;
        if !t.top && hi < n {
            breaks[t.dim].push(hi);
        }
    }
    let mut loops = Vec::new();
    for (dim, b) in breaks.iter_mut().enumerate() {
        b.sort_unstable();
        b.dedup();
        if b.windows(2).any(|w| !w[1].is_multiple_of(w[0])) {
            return None;
        }
        let n = dims[dim];
        let top_size = n.div_ceil(*b.last()?);
        let clip = top_size * b.last()? != n;
        for (k, &lo) in b.iter().enumerate() {
            let top = k + 1 == b.len();
            let size = if top { top_size } else { b[k + 1] / lo };
            let mut strides = [0usize; 2];
            for (side, stride) in sides.iter().zip(&mut strides) {
                let mut covers = 0;
                for &(t, s) in side {
                    let inside =
                        t.dim == dim && t.lo <= lo && (t.top || t.lo.checked_mul(t.range)? > lo);
                    if inside && t.lo < n {
                        covers += 1;
                        *stride = s.checked_mul(lo / t.lo)?;
                    }
                }
                // A layout is a bijection: each digit moves exactly one of its coordinates.
                if covers != 1 && size > 1 {
                    return None;
                }
            }
            if size > 1 {
                loops.push(Loop {
                    size,
                    dst: strides[0],
                    src: strides[1],
                    dim,
                    mult: lo,
                    top,
                    clip,
                });
            }
        }
    }
    Some(loops)
}

/// The dims whose loops clip (the tiles overhang the array: a dim that is not a multiple of
/// its tile) and that have whole steps of their top loop: the copy's interior, those steps,
/// needs no clipping (see [`interior`]).
pub(crate) fn clipped_dims(loops: &[Loop], dims: &[usize]) -> Vec<usize> {
    (0..dims.len())
        .filter(|&d| {
            loops.iter().any(|l| l.dim == d && l.clip)
                && loops
                    .iter()
                    .any(|l| l.dim == d && l.top && dims[d] / l.mult > 0)
        })
        .collect()
}

/// `loops` (of an array of `bounds`) cut to the whole steps of the top loop of dim `dim`
/// (one of [`clipped_dims`]): its size the steps that stay inside the array, no loop of the
/// dim clipped, its bound those steps' extent. A dim's loops are the digits of a mixed radix
/// whose top digit alone can overhang (see [`loops`]), so the digits below it are then whole.
pub(crate) fn interior(loops: &mut Vec<Loop>, bounds: &mut [usize], dim: usize) {
    for l in loops.iter_mut().filter(|l| l.dim == dim) {
        if l.top {
            l.size = bounds[dim] / l.mult;
            bounds[dim] = l.size * l.mult;
        }
        l.clip = false;
    }
    loops.retain(|l| l.size > 1);
}

/// `loops` (of an array of `bounds`) cut to `steps` steps of the top loop of dim `dim`, a dim
/// whose loops do not clip: a box of the array along that dim, which the caller runs from
/// the offsets of its first step (see `relayout::Peeled`); the dim's bound those steps'
/// extent.
pub(crate) fn top_steps(loops: &mut Vec<Loop>, bounds: &mut [usize], dim: usize, steps: usize) {
    for l in loops.iter_mut().filter(|l| l.dim == dim && l.top) {
        debug_assert!(!l.clip && steps <= l.size, "{steps} steps of {l:?}");
        l.size = steps;
        bounds[dim] = steps * l.mult;
    }
    loops.retain(|l| l.size > 1);
}

/// The lowest loop of dim `dim` (one of [`clipped_dims`]) split where the array's edge cuts
/// it ([`split`]): an inner loop of the largest power of two of slots that divides the part of
/// the top loop's last step inside the array (that part is then whole inner steps, so the
/// inner loop never clips), and an outer loop of such steps that clips. Unchanged where that
/// power of two is the whole loop.
pub(crate) fn split_low(loops: &mut Vec<Loop>, bounds: &[usize], dim: usize) {
    let Some(top) = loops.iter().find(|l| l.dim == dim && l.top) else {
        return;
    };
    let rest = bounds[dim] % top.mult;
    let low = loops
        .iter()
        .position(|l| l.dim == dim && l.mult == 1 && !l.top);
    let Some(k) = low.filter(|_| rest > 0) else {
        return;
    };
    let s = 1 << rest.trailing_zeros();
    if let (Some(outer), inner) = split(loops[k], s)
        && loops[k].size.is_multiple_of(s)
    {
        loops[k] = Loop {
            clip: false,
            ..inner
        };
        loops.push(outer);
    }
}

/// The lowest loop of dim `dim` (one of [`clipped_dims`]) cut to its first `width` slots,
/// `count` of which lie inside the array: one piece of the top loop's last step, whose other
/// pieces the caller copies from other offsets (see `relayout::Peeled`); the dim's top loop
/// one step that does not clip (the caller runs it from the last step's offset), the dim's
/// bound `count`, and the lowest loop clipped if `count < width`. The caller has checked that
/// the dim has a loop of unit stride below its top one, longer than `width`.
pub(crate) fn piece_low(
    loops: &mut [Loop],
    bounds: &mut [usize],
    dim: usize,
    (width, count): (usize, usize),
) {
    bounds[dim] = count;
    for l in loops.iter_mut().filter(|l| l.dim == dim) {
        if l.top {
            *l = Loop {
                size: 1,
                clip: false,
                ..*l
            };
        } else if l.mult == 1 {
            debug_assert!(width < l.size, "a piece of {width} of a loop of {}", l.size);
            *l = Loop {
                size: width,
                clip: count < width,
                ..*l
            };
        }
    }
}

/// `l` as an outer loop of blocks of `b` steps (`None` for one block) and the block; both
/// clip if the blocks overhang `l` (a top digit: its dimension's other digits stay inside).
pub(crate) fn split(l: Loop, b: usize) -> (Option<Loop>, Loop) {
    let l = Loop {
        clip: l.clip || !l.size.is_multiple_of(b),
        ..l
    };
    let inner = Loop { size: b, ..l };
    if l.size == b {
        return (None, inner);
    }
    let outer = Loop {
        size: l.size.div_ceil(b),
        dst: l.dst * b,
        src: l.src * b,
        mult: l.mult * b,
        ..l
    };
    (Some(outer), inner)
}

/// The loops of a copy of `E(n)` fields (`bits` = 1, 2 or 4 on both sides) as loops of bytes,
/// `8 / bits` fields to a byte, when no byte mixes fields the copy moves apart (see
/// [`grouped`]). A re-tiling of packed data (`T(8,128)E(4)` from rows) is then a copy of
/// bytes; an interleave of fields (`(2,1)` sub-tiles) is not.
pub(crate) fn packed_as_bytes(loops: &[Loop], dims: &[usize], bits: usize) -> Option<Vec<Loop>> {
    grouped(loops, dims, 8 / bits)
}

/// The loops of a copy of `E(1)` or `E(2)` fields (`bits` on both sides) as loops of fields
/// 2 or 4 bits wide, and that width, when the copy moves runs of a few fields whole on both
/// sides (the loop of unit stride on both sides: the two rows of a `(2,1)` sub-tile of `E(1)`
/// fields against a layout whose minor dim is theirs). A transpose of such pairs is then a
/// transpose of `E(2)` fields in the block kernels, not runs of two bits one by one
/// (measured, 32 MiB, GB/s, two alternating runs against the two steps through
/// `T(8,128)E(1)`: u1 `{0,1:E(1)}` -> `T(8,128)(2,1)E(1)` 3.0-3.7 -> 3.7-5.0, back 2.4-4.0 ->
/// 7.0-7.7; u2 `(2,1)E(2)` 5.4 -> 6.5-7.0, back 5.0-5.6 -> 6.5-10.3). `None` where there is no
/// such loop or the runs would fill a byte (see [`packed_as_bytes`]).
pub(crate) fn packed_as_fields(
    loops: &[Loop],
    dims: &[usize],
    bits: usize,
) -> Option<(Vec<Loop>, usize)> {
    let unit = loops.iter().find(|l| (l.dst, l.src) == (1, 1))?;
    let per = unit.size;
    (matches!(bits, 1 | 2) && per.is_power_of_two() && per > 1 && per * bits <= 4)
        .then(|| grouped(loops, dims, per))
        .flatten()
        .map(|loops| (loops, per * bits))
}

/// The loops of a copy of slots of `width` bytes as loops of wider slots, when the copy
/// moves runs of a few slots whole on both sides: the loop of unit stride on both sides
/// (pairs of `(2,1)` sub-tiles, or `(4,1)` and `(8,1)` groups of bytes) becomes one slot of
/// at most 8 bytes, with the loops' width. A transpose of sub-tiled data (`T(8,128)(2,1)` ->
/// `{0,1}`) then moves 4-byte slots in vector blocks, not 2-byte runs one by one (measured,
/// 64 MiB: bf16 `T(8,128)(2,1)` -> `{0,1}` 0.04 -> 0.77 of memcpy, u8 `T(8,128)(4,1)` ->
/// `{0,1:T(8,128)}` 0.04 -> 0.88, f32 `T(8,128)(2,1)` -> `{0,1}` 0.21 -> 0.74-0.83; u8 rows
/// -> `T(8,8)`, rows of one slot, 0.64 -> 1.4). Runs of 16 bytes stay runs: as 16-byte slots
/// they measured slower (u1 rows -> `T(8,128)E(1)`, 8 MiB, 0.52-0.56 -> 0.37-0.39). `None`
/// where there is no such loop.
pub(crate) fn widened(loops: &[Loop], dims: &[usize], width: usize) -> Option<(Vec<Loop>, usize)> {
    let unit = loops.iter().find(|l| (l.dst, l.src) == (1, 1))?;
    let per = unit.size;
    (per.is_power_of_two() && per > 1 && per * width <= 8)
        .then(|| grouped(loops, dims, per))
        .flatten()
        .map(|loops| (loops, per * width))
}

/// The loops of a copy of slots of `bits` as loops of `K × K` blocks of them, and the
/// blocks' width in bytes and `K`, when two layouts interleave `K` slots along different dims: a loop
/// of `K` steps that steps the destination by one slot and the source by `K`, another that
/// does the reverse (the pairs of a `T(8,128)(2,1)` tile against those of
/// `{0,1:T(8,128)(2,1)}`), every other loop whole blocks on both sides and both dims whole
/// numbers of `K`. Each block is then `K²` slots in a row on both sides, transposed within
/// (`lanes::transpose_slots`): K = 2 for 2- and 4-byte slots and `E(4)` fields (2 × 2
/// nibbles in 2 bytes) and `E(2)` fields (2 × 2 in a byte, `lanes::CRUMB_PAIRS`), 4 for
/// bytes and for `E(4)`, `E(2)` and `E(1)` fields in `(4,1)` groups (4 × 4 fields in 8, 4
/// and 2 bytes, `lanes::FIELD_SQUARES`; measured, GB/s, two
/// alternating runs against the two steps through `T(8,128)E(n)`: `s4[8000,8000]`
/// `T(8,128)(4,1)E(4)` -> `{0,1:T(8,128)(4,1)E(4)}` 4.2-4.3 -> 7.1-7.4, `s4[8192,8192]` 5.1-5.3
/// -> 8.2, `s4[8192,16384]` `T(32,128)(4,1)E(4)` 7.1-7.2 -> 11.5-11.9; `u2[8192,16384]`
/// 0.7-1.1 -> 7.0-7.6, `u2[8000,16000]` 0.6-1.0 -> 3.8-4.7, `u1[8192,32768]` 0.22-0.27 ->
/// 5.3-5.8; `(2,1)` pairs of `E(2)`, 2 × 2 in a byte, `u2[8192,16384]` 5.0-5.1 -> 5.4-6.2
/// against the three steps through bytes, `u2[8000,16000]` 0.01 -> 1.1). Measured, 64 MiB,
/// against 2×2 (4×4) blocks of slots one by one: bf16 `T(8,128)(2,1)` -> `{0,1:T(8,128)(2,1)}`
/// 0.05 -> 1.00 of memcpy, s8 `T(32,128)(4,1)` -> `{0,1:T(32,128)(4,1)}` 0.07 -> 0.31, f32
/// `(2,1)` 0.61; s4 `T(8,128)(2,1)E(4)` -> `{0,1:T(8,128)(2,1)E(4)}` 0.24 -> 0.61-0.72,
/// against two steps through `{0,1:T(8,128)E(4)}`. `None` if not so.
pub(crate) fn folded(
    loops: &[Loop],
    dims: &[usize],
    bits: usize,
) -> Option<(Vec<Loop>, usize, usize)> {
    let find = |dst: usize, src: usize| loops.iter().position(|l| (l.dst, l.src) == (dst, src));
    let ks: &[usize] = match bits {
        8 | 1 => &[4],
        4 | 2 => &[4, 2],
        16 | 32 => &[2],
        _ => return None,
    };
    let (k, (x, y)) = ks
        .iter()
        .find_map(|&k| Some((k, (find(1, k)?, find(k, 1)?))))?;
    let per = k * k;
    let whole = |l: &Loop| l.size == k && l.mult == 1 && dims[l.dim].is_multiple_of(k);
    if !whole(&loops[x]) || !whole(&loops[y]) {
        return None;
    }
    let rest: Option<Vec<Loop>> = loops
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != x && i != y)
        .map(|(_, l)| {
            (l.dst.is_multiple_of(per) && l.src.is_multiple_of(per)).then_some(Loop {
                dst: l.dst / per,
                src: l.src / per,
                ..*l
            })
        })
        .collect();
    Some((rest?, per * bits / 8, k))
}

/// The loops of a copy `per` slots at a time: a loop of unit stride on both sides (the slots
/// of a run) whose size is a multiple of `per` and whose dimension's extent is too (no group
/// straddles the array's edge) steps groups, every other loop whole groups on both sides;
/// `None` if not so. A loop left with one step is dropped.
fn grouped(loops: &[Loop], dims: &[usize], per: usize) -> Option<Vec<Loop>> {
    let unit = loops.iter().position(|l| (l.dst, l.src) == (1, 1))?;
    let u = loops[unit];
    let whole = |n: usize| n.is_multiple_of(per);
    // The run's digit is the lowest of its dimension but for the fields packed into its slot
    // (`mult`): a group is `mult · per` of the dimension's indices.
    if !whole(u.size) || !dims[u.dim].is_multiple_of(u.mult * per) {
        return None;
    }
    let grouped: Option<Vec<Loop>> = loops
        .iter()
        .enumerate()
        .map(|(k, l)| {
            if k == unit {
                Some(Loop {
                    size: l.size / per,
                    mult: l.mult * per,
                    ..*l
                })
            } else if whole(l.dst) && whole(l.src) {
                Some(Loop {
                    dst: l.dst / per,
                    src: l.src / per,
                    ..*l
                })
            } else {
                None
            }
        })
        .collect();
    let mut grouped = grouped?;
    grouped.retain(|l| l.size > 1);
    Some(grouped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_array;

    fn plan(text: &str) -> Plan {
        Plan::new(&parse_array(text).unwrap()).unwrap()
    }

    /// `(size, dst, src)` of each loop, sorted.
    fn shape(dst: &str, src: &str) -> Option<Vec<(usize, usize, usize)>> {
        let mut l: Vec<_> = loops(&plan(dst), &plan(src))?
            .iter()
            .map(|l| (l.size, l.dst, l.src))
            .collect();
        l.sort_unstable();
        Some(l)
    }

    /// `(size, dst, src)` of each loop of bytes of a copy of packed fields, sorted.
    fn bytes(dst: &str, src: &str, bits: usize) -> Option<Vec<(usize, usize, usize)>> {
        let (d, s) = (plan(dst), plan(src));
        let mut l: Vec<_> = packed_as_bytes(&loops(&d, &s)?, d.dims(), bits)?
            .iter()
            .map(|l| (l.size, l.dst, l.src))
            .collect();
        l.sort_unstable();
        Some(l)
    }

    /// Rows of 256 `E(4)` fields (128 bytes) into `T(8,128)` tiles (8 rows of 64 bytes):
    /// runs of 64 bytes, tile rows 64 bytes apart in the tile and a row (128 bytes) apart in
    /// the rows, tiles 512 bytes apart and 64 bytes along the row, bands of 8 rows 1024
    /// bytes apart on both sides.
    #[test]
    fn packed_fields_copy_as_bytes_where_no_byte_is_split() {
        let tiles = "s4[32,256]{1,0:T(8,128)E(4)}";
        assert_eq!(
            bytes(tiles, "s4[32,256]{1,0:E(4)}", 4),
            Some(vec![
                (2, 512, 64),
                (4, 1024, 1024),
                (8, 64, 128),
                (64, 1, 1)
            ])
        );
        // `E(2)`: 128 fields of a tile row are 32 bytes.
        assert_eq!(
            bytes("u2[8,256]{1,0:T(8,128)E(2)}", "u2[8,256]{1,0:E(2)}", 2),
            Some(vec![(2, 256, 32), (8, 32, 64), (32, 1, 1)])
        );
        // A sub-tile interleaves the fields of two rows within bytes.
        assert_eq!(
            bytes(
                "s4[32,256]{1,0:T(8,128)(2,1)E(4)}",
                "s4[32,256]{1,0:E(4)}",
                4
            ),
            None
        );
        // An odd extent ends a row in half a byte; a transpose moves fields apart.
        assert_eq!(
            bytes("s4[32,255]{1,0:T(8,128)E(4)}", "s4[32,255]{1,0:E(4)}", 4),
            None
        );
        assert_eq!(
            bytes("s4[32,256]{0,1:E(4)}", "s4[32,256]{1,0:E(4)}", 4),
            None
        );
    }

    /// `(size, dst, src)` of each loop, sorted.
    type Sizes = Vec<(usize, usize, usize)>;

    /// `(size, dst, src)` of each loop of wider slots of a copy, sorted, and the slots' width.
    fn wider(dst: &str, src: &str, width: usize) -> Option<(Sizes, usize)> {
        let (d, s) = (plan(dst), plan(src));
        let (loops, width) = widened(&loops(&d, &s)?, d.dims(), width)?;
        let mut l: Vec<_> = loops.iter().map(|l| (l.size, l.dst, l.src)).collect();
        l.sort_unstable();
        Some((l, width))
    }

    #[test]
    fn sub_tile_groups_copy_as_wider_slots() {
        // A `(2,1)` tile of bf16 pairs, `(r / 2)·256 + c·2 + r % 2` in each 8×128 tile, to
        // column-major `c·16 + r`: the pair `r % 2` is one 4-byte slot on both sides, and
        // every other stride halves (`r / 2`: 2 and 256 -> 1 and 128).
        assert_eq!(
            wider("bf16[16,256]{0,1}", "bf16[16,256]{1,0:T(8,128)(2,1)}", 2),
            Some((
                vec![(2, 4, 1024), (2, 1024, 512), (4, 1, 128), (128, 8, 1)],
                4
            ))
        );
        // `(4,1)` groups of bytes, `(r / 4)·512 + c·4 + r % 4` in each of two tiles of 1024,
        // to `c·8 + r`: 4-byte slots, strides in quarters (`r / 4`: 4 and 512 -> 1 and 128).
        assert_eq!(
            wider("u8[8,256]{0,1}", "u8[8,256]{1,0:T(8,128)(4,1)}", 1),
            Some((vec![(2, 1, 128), (2, 256, 256), (128, 2, 1)], 4))
        );
        // An odd extent ends the last pair at the edge; a transpose has no common run; runs
        // of 128 slots are longer than a slot of 8 bytes.
        assert_eq!(
            wider("bf16[15,256]{0,1}", "bf16[15,256]{1,0:T(8,128)(2,1)}", 2),
            None
        );
        assert_eq!(wider("f32[16,256]{0,1}", "f32[16,256]{1,0}", 4), None);
        assert_eq!(
            wider("f32[16,256]{1,0:T(8,128)}", "f32[16,256]{1,0}", 4),
            None
        );
    }

    #[test]
    fn interleaves_along_different_dims_fold_into_blocks() {
        // bf16 `(2,1)` pairs along dim 0 in the source, `(r / 8)·2048 + (c / 128)·1024 +
        // (r % 8 / 2)·256 + (c % 128)·2 + r % 2`, along dim 1 in the destination,
        // `(c / 8)·1024 + (c % 8 / 2)·256 + r·2 + c % 2` (dim 0's 16 padded to one tile of
        // 128): each 2×2 block is 4 slots in a row on both sides, 8 bytes; every other
        // digit's strides a quarter (`r % 8 / 2`: 4 and 256 -> 1 and 64; `c % 8 / 2`: 256 and
        // 4 -> 64 and 1; `c % 128 / 8`: 1024 and 16 -> 256 and 4).
        let (d, s) = (
            plan("bf16[16,256]{0,1:T(8,128)(2,1)}"),
            plan("bf16[16,256]{1,0:T(8,128)(2,1)}"),
        );
        let (l, width, k) = folded(&loops(&d, &s).unwrap(), d.dims(), 16).unwrap();
        let mut l: Vec<_> = l.iter().map(|l| (l.size, l.dst, l.src)).collect();
        l.sort_unstable();
        assert_eq!((width, k), (8, 2));
        assert_eq!(
            l,
            [
                (2, 4, 512),
                (2, 4096, 256),
                (4, 1, 64),
                (4, 64, 1),
                (16, 256, 4)
            ]
        );
        // `(4,1)` groups of bytes: 4×4 blocks of 16 bytes.
        let (d, s) = (
            plan("s8[64,256]{0,1:T(32,128)(4,1)}"),
            plan("s8[64,256]{1,0:T(32,128)(4,1)}"),
        );
        let (_, width, k) = folded(&loops(&d, &s).unwrap(), d.dims(), 8).unwrap();
        assert_eq!((width, k), (16, 4));
        // Pairs along the same dim are a run (`widened`), not a block; an odd dim cuts a
        // block at the edge.
        let (d, s) = (
            plan("bf16[16,256]{1,0:T(8,128)(2,1)}"),
            plan("bf16[16,256]{0,1}"),
        );
        assert!(folded(&loops(&d, &s).unwrap(), d.dims(), 16).is_none());
        let (d, s) = (
            plan("bf16[15,256]{0,1:T(8,128)(2,1)}"),
            plan("bf16[15,256]{1,0:T(8,128)(2,1)}"),
        );
        assert!(folded(&loops(&d, &s).unwrap(), d.dims(), 16).is_none());
    }

    #[test]
    fn tile_rows() {
        let l = shape("f32[64,256]{1,0:T(8,128)}", "f32[64,256]{1,0}").unwrap();
        assert_eq!(
            l,
            [(2, 1024, 128), (8, 128, 256), (8, 2048, 2048), (128, 1, 1)]
        );
    }

    #[test]
    fn pairs() {
        let l = shape("bf16[16,256]{1,0:T(8,128)(2,1)}", "bf16[16,256]{1,0}").unwrap();
        assert!(l.contains(&(2, 1, 256)));
        assert!(l.contains(&(128, 2, 1)));
        assert!(l.contains(&(4, 256, 512)));
    }

    #[test]
    fn two_tiled_sides() {
        // A transposed tile against a row-major tile: both linear in the digits of 8 and 128.
        let l = shape("f32[16,256]{1,0:T(8,128)}", "f32[16,256]{0,1:T(8,128)}").unwrap();
        assert_eq!(l.len(), 5);
    }

    #[test]
    fn combined_dims() {
        assert!(shape("f32[3,5,8]{2,1,0:T(2,*,4)}", "f32[3,5,8]{1,2,0}").is_some());
        // 4 does not split 6: `*` over [5,6] by 4 is not linear in the digits of dim 2.
        assert!(shape("f32[3,5,6]{2,1,0:T(*,4)}", "f32[3,5,6]{2,1,0}").is_none());
    }

    #[test]
    fn padding_inside_a_tile_is_not_linear() {
        assert!(shape("f32[6,6]{1,0:T(2,3)(2,2)}", "f32[6,6]{1,0}").is_none());
    }

    #[test]
    fn overhang_clips() {
        let l = loops(
            &plan("bf16[9,130]{1,0:T(8,128)(2,1)}"),
            &plan("bf16[9,130]{1,0}"),
        )
        .unwrap();
        assert!(l.iter().all(|l| l.clip));
    }
}
