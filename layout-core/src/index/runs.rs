//! The elements of a plan as runs of evenly spaced slots, in memory order or in logical order,
//! so that a traversal does its bookkeeping once per run and a plain loop over each run.
//!
//! **Memory order.** Without `*` merges, undoing the tiling steps turns every working entry
//! into a linear form with nonnegative coefficients over the expanded coordinates ("digits",
//! major to minor): a slot holds an element exactly when every bound met on the way holds
//! (`outer · t + inner < extent` at each tile, `0` for the entries a tile of higher rank adds,
//! `index < dim` at the end). Bounds that the largest digits cannot break are dropped. With the
//! more major digits fixed and the more minor ones at 0, each bound caps the next digit, so the
//! digits that hold elements form a prefix `0..limit` of its range, and the walk is an
//! odometer whose every digit runs up to its limit: no slot of padding is visited. Digits that
//! no bound involves (all of them in a layout without padding) make one contiguous block each.
//!
//! **Logical order.** Without `*`, the offset is a sum of one term per logical dimension, so
//! a walk adds a table entry per outer dimension and, along the last dimension, follows the
//! runs of its offsets that step by a fixed amount (128 for `T(8,128)`).
//!
//! Layouts with `*` (or tables past [`TABLE_CAP`]) walk element by element with
//! [`MemoryOrder`] and [`LogicalOffsets`], in runs of one.

use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;

use crate::index::{LogicalOffsets, MemoryOrder, Plan};
use crate::model::tiling::Step;

/// The most table entries a logical walk builds (per-dimension offsets and the runs of the
/// last dimension); past it, the walk computes offsets element by element.
const TABLE_CAP: usize = 1 << 20;

/// Slots `offset, offset + stride, ...` (`len` of them) holding consecutive elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Run {
    pub(crate) offset: usize,
    pub(crate) len: usize,
    pub(crate) stride: usize,
}

impl Run {
    /// The one run of the first `len` slots, if there are any.
    fn first(len: usize) -> Option<Run> {
        (len > 0).then_some(Run {
            offset: 0,
            len,
            stride: 1,
        })
    }
}

/// A bound `Σ coefs[k] · digit[k] < bound` over the digits.
#[derive(Clone, Debug)]
struct Bound {
    coefs: Vec<usize>,
    bound: usize,
}

/// How the digits of a slot read back as a logical index: for each digit, the logical
/// dimension it moves and by how much (`None` for digits that hold no coordinate).
pub(crate) type DigitDims = Vec<Option<(usize, usize)>>;

/// The bounds over the digits and the logical dimension and weight of each digit, for a plan
/// without `*`; `None` with `*`.
fn bounds(plan: &Plan) -> Option<(Vec<Bound>, DigitDims)> {
    let n = plan.expanded.len();
    // Undo the steps on forms over the digits, like `Plan::index_of` on values.
    let mut forms: Vec<Vec<usize>> = (0..n)
        .map(|k| {
            let mut f = vec![0; n];
            f[k] = 1;
            f
        })
        .collect();
    let mut bounds = Vec::new();
    for step in plan.steps.iter().rev() {
        match step {
            Step::Tile {
                start,
                sizes,
                extents,
            } => {
                let inner = forms.split_off(forms.len() - sizes.len());
                for (j, ((&t, &e), r)) in sizes.iter().zip(extents).zip(inner).enumerate() {
                    let t = usize::try_from(t).ok()?;
                    let f = &mut forms[start + j];
                    for (c, r) in f.iter_mut().zip(r) {
                        *c = c.checked_mul(t)?.checked_add(r)?;
                    }
                    bounds.push(Bound {
                        coefs: f.clone(),
                        bound: usize::try_from(e).ok()?,
                    });
                }
            }
            Step::Combine { .. } => return None,
            Step::Pad { by } => {
                for f in forms.drain(..by) {
                    bounds.push(Bound { coefs: f, bound: 1 });
                }
            }
        }
    }
    let mut dims = vec![None; n];
    for (f, &d) in forms.into_iter().zip(&plan.physical) {
        for (k, &c) in f.iter().enumerate() {
            if c > 0 {
                dims[k] = Some((d, c));
            }
        }
        bounds.push(Bound {
            coefs: f,
            bound: plan.dims[d],
        });
    }
    // Keep the bounds that some slot breaks.
    bounds.retain(|b| {
        let top = b
            .coefs
            .iter()
            .zip(&plan.expanded)
            .try_fold(0usize, |acc, (&c, &s)| {
                acc.checked_add(c.checked_mul(s.saturating_sub(1))?)
            });
        top.is_none_or(|top| top >= b.bound)
    });
    Some((bounds, dims))
}

/// The odometer over the digits of a plan without `*`, in memory order.
#[derive(Clone, Debug)]
pub(crate) struct DigitWalk {
    sizes: Vec<usize>,
    strides: Vec<usize>,
    bounds: Vec<Bound>,
    dims: DigitDims,
    /// The digits `..inner` are the odometer; digit `inner` and the ones after it make a run.
    inner: usize,
    /// Whether the digits after `inner` are all of size 1 (else the run is their whole block).
    single: bool,
    digits: Vec<usize>,
    limits: Vec<usize>,
    /// `Σ coefs[k] · digits[k]` over the odometer's digits, per bound.
    partial: Vec<usize>,
    /// The offset of the next run's first slot, and its logical index, kept as the odometer
    /// moves (recomputed from every digit for each run, they measured `iter_physical` over
    /// `T(8,128)` at 1.23× its slice loop, against 1.17× kept).
    offset: usize,
    index: Vec<usize>,
    done: bool,
}

impl DigitWalk {
    /// The walk of a plan without `*` (`None` with `*`): with runs as long as possible
    /// (`per_digit` false), or along one digit only, so that a single logical coordinate moves
    /// along each run, by [`step`](Self::step).
    pub(crate) fn new(plan: &Plan, per_digit: bool) -> Option<DigitWalk> {
        let (bounds, dims) = bounds(plan)?;
        let n = plan.expanded.len();
        let last_moving = plan.expanded.iter().rposition(|&s| s > 1).unwrap_or(0);
        // The first digit from which no bound involves any digit.
        let free = bounds
            .iter()
            .filter_map(|b| b.coefs.iter().rposition(|&c| c > 0))
            .max()
            .map_or(0, |k| k + 1);
        let inner = if per_digit {
            last_moving
        } else {
            free.saturating_sub(1).min(last_moving)
        };
        let mut walk = DigitWalk {
            single: plan.expanded.iter().skip(inner + 1).all(|&s| s == 1),
            sizes: plan.expanded.clone(),
            strides: plan.strides.clone(),
            partial: vec![0; bounds.len()],
            bounds,
            dims,
            inner,
            digits: vec![0; n],
            limits: vec![0; n],
            offset: 0,
            index: vec![0; plan.dims.len()],
            done: plan.elements() == 0,
        };
        walk.set_limits(0);
        Some(walk)
    }

    /// The logical dimension that moves along each run, and by how much per slot (for walks
    /// along one digit; `None` if no coordinate moves).
    pub(crate) fn step(&self) -> Option<(usize, usize)> {
        self.dims.get(self.inner).copied().flatten()
    }

    /// Recomputes the limits of digits `from..=inner` (the odometer's digits from `from` on
    /// being 0).
    fn set_limits(&mut self, from: usize) {
        if self.sizes.is_empty() {
            return;
        }
        for l in from..=self.inner {
            let mut limit = self.sizes[l];
            for (b, &p) in self.bounds.iter().zip(&self.partial) {
                let c = b.coefs[l];
                if c > 0 {
                    // partial + c·d < bound, i.e. d < ⌈(bound − partial) / c⌉.
                    limit = limit.min(b.bound.saturating_sub(p).div_ceil(c));
                }
            }
            self.limits[l] = limit;
        }
    }

    /// The next run; writes the logical index of its first element into `index` if given.
    pub(crate) fn next_run(&mut self, index: Option<&mut [usize]>) -> Option<Run> {
        if self.done {
            return None;
        }
        if let Some(index) = index {
            index.copy_from_slice(&self.index);
        }
        if self.sizes.is_empty() {
            self.done = true;
            return Some(Run {
                offset: 0,
                len: 1,
                stride: 1,
            });
        }
        let offset = self.offset;
        let (len, stride) = (self.limits[self.inner], self.strides[self.inner]);
        let run = if self.single {
            Run {
                offset,
                len,
                stride,
            }
        } else {
            // The digits after `inner` are free: the run is their whole block, contiguous.
            Run {
                offset,
                len: len * stride,
                stride: 1,
            }
        };
        self.advance();
        Some(run)
    }

    /// Moves the odometer to the next run's first slot.
    fn advance(&mut self) {
        for l in (0..self.inner).rev() {
            let d = self.digits[l];
            let dim = self.dims.get(l).copied().flatten();
            if d + 1 < self.limits[l] {
                self.digits[l] = d + 1;
                for (b, p) in self.bounds.iter().zip(&mut self.partial) {
                    *p += b.coefs[l];
                }
                self.offset += self.strides[l];
                if let Some((dim, w)) = dim {
                    self.index[dim] += w;
                }
                self.set_limits(l + 1);
                return;
            }
            for (b, p) in self.bounds.iter().zip(&mut self.partial) {
                *p -= b.coefs[l] * d;
            }
            self.offset -= self.strides[l] * d;
            if let Some((dim, w)) = dim {
                self.index[dim] -= w * d;
            }
            self.digits[l] = 0;
        }
        self.done = true;
    }
}

/// The walk of the last logical dimension of a plan without `*`: the offset of each outer
/// index is a sum of table entries, and each row is the same runs shifted by it.
#[derive(Clone, Debug)]
pub(crate) struct RowWalk {
    /// Offset contribution of each coordinate of each outer dimension (all but the last).
    tables: Vec<Vec<usize>>,
    /// The runs of one row, relative to the row's offset.
    row: Vec<Run>,
    outer: Vec<usize>,
    base: usize,
    next: usize,
    done: bool,
}

impl RowWalk {
    /// The walk of a plan without `*` whose tables fit [`TABLE_CAP`]; `None` otherwise.
    pub(crate) fn new(plan: &Plan) -> Option<RowWalk> {
        if plan.steps.iter().any(|s| matches!(s, Step::Combine { .. })) {
            return None;
        }
        let rank = plan.dims.len();
        let total = plan
            .dims
            .iter()
            .try_fold(0usize, |a, &d| a.checked_add(d))?;
        if total > TABLE_CAP {
            return None;
        }
        if plan.elements() == 0 {
            return Some(RowWalk {
                tables: Vec::new(),
                row: Vec::new(),
                outer: Vec::new(),
                base: 0,
                next: 0,
                done: true,
            });
        }
        let mut unit = vec![0; rank];
        let mut along = |d: usize, i: usize| {
            unit[d] = i;
            let o = plan.offset(&unit);
            unit[d] = 0;
            o
        };
        let (tables, row) = match rank.checked_sub(1) {
            None => (
                Vec::new(),
                vec![Run {
                    offset: 0,
                    len: 1,
                    stride: 1,
                }],
            ),
            Some(last) => {
                let tables: Vec<Vec<usize>> = (0..last)
                    .map(|d| (0..plan.dims[d]).map(|i| along(d, i)).collect())
                    .collect();
                let mut row: Vec<Run> = Vec::new();
                for j in 0..plan.dims[last] {
                    let o = along(last, j);
                    match row.last_mut() {
                        Some(r) if r.len == 1 && o > r.offset => {
                            r.stride = o - r.offset;
                            r.len = 2;
                        }
                        Some(r) if r.len > 1 && o == r.offset + r.len * r.stride => r.len += 1,
                        _ => row.push(Run {
                            offset: o,
                            len: 1,
                            stride: 1,
                        }),
                    }
                }
                (tables, row)
            }
        };
        Some(RowWalk {
            tables,
            row,
            outer: vec![0; rank.saturating_sub(1)],
            base: 0,
            next: 0,
            done: false,
        })
    }

    /// The next run in logical order.
    #[inline]
    pub(crate) fn next_run(&mut self) -> Option<Run> {
        if self.done {
            return None;
        }
        let r = self.row[self.next];
        let run = Run {
            offset: self.base + r.offset,
            ..r
        };
        self.next += 1;
        if self.next == self.row.len() {
            self.next = 0;
            self.advance();
        }
        Some(run)
    }

    /// Moves to the next row.
    fn advance(&mut self) {
        for d in (0..self.outer.len()).rev() {
            let t = &self.tables[d];
            let i = self.outer[d];
            if i + 1 < t.len() {
                self.outer[d] = i + 1;
                self.base = self.base - t[i] + t[i + 1];
                return;
            }
            self.base = self.base - t[i] + t[0];
            self.outer[d] = 0;
        }
        self.done = true;
    }
}

/// Runs in memory order: a [`DigitWalk`], element by element for layouts with `*`, the one
/// run of every slot where each slot holds an element (no padding), or the rows of a layout
/// whose offsets are row-major positions (walked with indices).
#[derive(Clone, Debug)]
pub(crate) enum MemoryRuns {
    Digits(Box<DigitWalk>),
    Elements(Box<MemoryOrder>),
    Whole(Option<Run>),
    Rows(RowMajor),
}

/// The rows of a layout whose offsets are row-major positions (rank at most
/// [`RowMajor::RANK`]): row `r` is the run of `len` slots from `r · len`, its first index `r`
/// in the mixed radix of the outer dimensions, then 0.
#[derive(Clone, Debug)]
pub(crate) struct RowMajor {
    dims: [usize; RowMajor::RANK],
    rank: usize,
    next: usize,
    rows: usize,
}

impl RowMajor {
    /// The most dimensions of a row-major plan (`Plan::row_major` holds only for plans whose
    /// offset is their inline terms).
    const RANK: usize = 4;

    fn new(plan: &Plan) -> Option<RowMajor> {
        let rank = plan.dims.len();
        if !plan.row_major || rank == 0 || rank > RowMajor::RANK {
            return None;
        }
        let mut dims = [0; RowMajor::RANK];
        dims[..rank].copy_from_slice(&plan.dims);
        let len = dims[rank - 1];
        Some(RowMajor {
            dims,
            rank,
            next: 0,
            rows: plan.elements().checked_div(len).unwrap_or(0),
        })
    }

    fn next_run(&mut self, index: Option<&mut [usize]>) -> Option<Run> {
        if self.next == self.rows {
            return None;
        }
        let (r, last) = (self.next, self.rank - 1);
        self.next += 1;
        if let Some(index) = index {
            let mut q = r;
            for d in (0..last).rev() {
                index[d] = q % self.dims[d];
                q /= self.dims[d];
            }
            index[last] = 0;
        }
        let len = self.dims[last];
        Some(Run {
            offset: r * len,
            len,
            stride: 1,
        })
    }
}

impl MemoryRuns {
    /// The one run of the first `len` slots: the memory order of a layout without padding.
    pub(crate) fn whole(len: usize) -> MemoryRuns {
        MemoryRuns::Whole(Run::first(len))
    }

    /// The runs of `plan` in memory order (`per_digit`: see [`DigitWalk::new`]). Without
    /// padding and `per_digit`, one run of every slot; `per_digit`, the rows of a plan whose
    /// offsets are row-major positions: both found without making a walk of the digits (a
    /// traversal of a 4 KiB tensor spent more time making its walk than walking it).
    pub(crate) fn new(plan: &Plan, per_digit: bool) -> MemoryRuns {
        let len = plan.elements();
        if !per_digit && len == plan.physical_elements() {
            return MemoryRuns::whole(len);
        }
        if per_digit && let Some(rows) = RowMajor::new(plan) {
            return MemoryRuns::Rows(rows);
        }
        match DigitWalk::new(plan, per_digit) {
            Some(walk) => MemoryRuns::Digits(Box::new(walk)),
            None => MemoryRuns::Elements(Box::new(plan.memory_order())),
        }
    }

    /// The next run, and the logical index of its first element in `index` if given.
    pub(crate) fn next_run(&mut self, index: Option<&mut [usize]>) -> Option<Run> {
        match self {
            MemoryRuns::Digits(walk) => walk.next_run(index),
            MemoryRuns::Elements(order) => {
                let offset = match index {
                    Some(index) => order.next_with_index(index)?,
                    None => order.next()?.0,
                };
                Some(Run {
                    offset,
                    len: 1,
                    stride: 1,
                })
            }
            MemoryRuns::Whole(run) => {
                debug_assert!(index.is_none(), "a whole run is walked without indices");
                run.take()
            }
            MemoryRuns::Rows(rows) => rows.next_run(index),
        }
    }

    /// The logical dimension each run moves along, and by how much per slot.
    pub(crate) fn step(&self) -> Option<(usize, usize)> {
        match self {
            MemoryRuns::Digits(walk) => walk.step(),
            MemoryRuns::Elements(_) | MemoryRuns::Whole(_) => None,
            MemoryRuns::Rows(rows) => Some((rows.rank - 1, 1)),
        }
    }
}

/// Runs in logical order: a [`RowWalk`], element by element, or one run of the slots of a
/// layout whose offsets are row-major positions.
#[derive(Clone, Debug)]
pub(crate) enum LogicalRuns {
    Rows(RowWalk),
    Elements(Box<LogicalOffsets>),
    Whole(Option<Run>),
}

impl LogicalRuns {
    /// The runs of `plan` in logical row-major order: one where its offsets are row-major
    /// positions, found without building the rows' tables (which cost a traversal of a 4
    /// KiB tensor several times its elements' loop).
    pub(crate) fn new(plan: &Plan) -> LogicalRuns {
        if plan.row_major {
            return LogicalRuns::Whole(Run::first(plan.elements()));
        }
        match RowWalk::new(plan) {
            Some(walk) => LogicalRuns::Rows(walk),
            None => LogicalRuns::Elements(Box::new(plan.logical_offsets())),
        }
    }

    /// The next run.
    #[inline]
    pub(crate) fn next_run(&mut self) -> Option<Run> {
        match self {
            LogicalRuns::Rows(walk) => walk.next_run(),
            LogicalRuns::Elements(offsets) => offsets.next().map(|offset| Run {
                offset,
                len: 1,
                stride: 1,
            }),
            LogicalRuns::Whole(run) => run.take(),
        }
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use proptest::prelude::*;

    use super::{LogicalRuns, MemoryRuns, Run};
    use crate::index::Plan;
    use crate::model::{ArrayLayout, ArrayShape, PaddingValue, PrimitiveType, Tile, TileDim};

    /// The row-major multi-index of a linear index.
    fn unravel(mut linear: usize, dims: &[usize]) -> Vec<usize> {
        let mut index = alloc::vec![0; dims.len()];
        for k in (0..dims.len()).rev() {
            index[k] = linear % dims[k];
            linear /= dims[k];
        }
        index
    }

    fn slots(run: Run) -> impl Iterator<Item = usize> {
        (0..run.len).map(move |k| run.offset + k * run.stride)
    }

    fn arb_tile(max_rank: usize) -> impl Strategy<Value = Tile> {
        prop::collection::vec(
            prop_oneof![
                5 => prop::sample::select(alloc::vec![1i64, 2, 3, 4, 5, 8]).prop_map(TileDim::Size),
                1 => Just(TileDim::Combine)
            ],
            1..=max_rank,
        )
        .prop_map(|mut dims| {
            if let Some(last) = dims.last_mut()
                && *last == TileDim::Combine
            {
                *last = TileDim::Size(2);
            }
            Tile(dims)
        })
    }

    fn arb_array() -> impl Strategy<Value = ArrayShape> {
        (0usize..=4)
            .prop_flat_map(|rank| {
                (
                    prop::collection::vec(prop_oneof![12 => 1i64..9, 1 => Just(0i64)], rank),
                    Just((0..rank as i64).collect::<Vec<_>>()).prop_shuffle(),
                    prop::collection::vec(arb_tile(rank + 1), 0..=3),
                    prop_oneof![3 => Just(1i64), 1 => 2i64..10],
                    prop::option::weighted(0.2, prop::collection::vec(0i64..3, rank)),
                )
            })
            .prop_map(|(dims, m2m, tiles, l, extra)| {
                let mut layout = ArrayLayout::new(m2m)
                    .with_tiles(tiles)
                    .with_tail_padding_alignment(l);
                if let Some(extra) = extra {
                    let padded = dims.iter().zip(extra).map(|(d, x)| d + x);
                    layout = layout.with_padding(padded, PaddingValue::Zero);
                }
                ArrayShape::new(PrimitiveType::F32, dims).with_layout(layout)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// Both walks visit exactly the slots the per-index references give, in their order:
        /// `Plan::offset` of each logical index, and every slot whose `Plan::index_of` holds
        /// an element; the runs along one digit carry the logical index of each element.
        #[test]
        fn runs_match_per_index_references(a in arb_array()) {
            let p = Plan::new(&a).unwrap();
            prop_assume!(p.tiled_elements() <= 20_000);
            let logical: Vec<usize> = (0..p.elements()).map(|l| p.offset(&unravel(l, p.dims()))).collect();
            let mut runs = LogicalRuns::new(&p);
            let mut walked = Vec::new();
            while let Some(run) = runs.next_run() {
                prop_assert!(run.len > 0);
                walked.extend(slots(run));
            }
            prop_assert_eq!(&walked, &logical, "logical order of {}", a);

            let in_memory: Vec<(usize, Vec<usize>)> = (0..p.tiled_elements())
                .filter_map(|s| Some((s, p.index_of(s)?)))
                .collect();
            let mut runs = MemoryRuns::new(&p, false);
            let mut walked = Vec::new();
            while let Some(run) = runs.next_run(None) {
                prop_assert!(run.len > 0);
                walked.extend(slots(run));
            }
            let expected: Vec<usize> = in_memory.iter().map(|(s, _)| *s).collect();
            prop_assert_eq!(&walked, &expected, "memory order of {}", a);

            let mut runs = MemoryRuns::new(&p, true);
            let step = runs.step();
            let mut walked = Vec::new();
            let mut index = alloc::vec![0; p.dims().len()];
            while let Some(run) = runs.next_run(Some(&mut index)) {
                prop_assert!(run.len > 0);
                for s in slots(run) {
                    walked.push((s, index.clone()));
                    if let Some((d, w)) = step {
                        index[d] += w;
                    }
                }
            }
            prop_assert_eq!(&walked, &in_memory, "memory order with indices of {}", a);
        }
    }
}
