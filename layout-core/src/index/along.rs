//! Offsets of consecutive indices along one dimension: the batch a loop over a row (or a
//! column) needs, computed a run at a time. Within a run the index moves only the minor-most
//! digit of the dimension (the remainder of its innermost tile), so the offset grows by that
//! digit's stride; one full offset is computed per run.

use super::plan::{MAX_EXPANDED_RANK, Plan};
use crate::model::tiling::Step;

/// Where the minor-most digit of a dimension ends up after the tiling steps: its expanded
/// entry and the tile sizes whose remainders it went through, innermost last.
struct Digit {
    entry: usize,
    /// The sizes of the tiles that split the digit (at most the plan's steps).
    splits: [usize; MAX_SPLITS],
    count: usize,
}

/// The most tiles that split one dimension that [`Plan::offsets_along`] follows; past it (no
/// real layout has that many) it computes every offset in full.
const MAX_SPLITS: usize = 16;

impl Digit {
    /// How many index entries from `x` on the digit takes before a tile it went through
    /// carries (at most `extent - x`, for a digit no tile splits).
    fn run(&self, x: usize, extent: usize) -> usize {
        let mut v = x;
        let mut run = usize::MAX;
        for &t in &self.splits[..self.count] {
            v %= t;
            run = run.min(t - v);
        }
        if self.count == 0 { extent - x } else { run }
    }
}

impl Plan {
    /// Traces dimension `dim` through the tiling steps; `None` when a `*` merges its minor-most
    /// digit with another entry, or tiles split it more than [`MAX_SPLITS`] times.
    fn digit(&self, dim: usize) -> Option<Digit> {
        let mut entry = self.physical.iter().position(|&d| d == dim)?;
        let mut width = self.dims.len();
        let (mut splits, mut count) = ([0; MAX_SPLITS], 0);
        for step in &self.steps {
            match step {
                Step::Pad { by } => {
                    entry += by;
                    width += by;
                }
                Step::Combine { at, .. } => {
                    // `I[at+1] = I[at] * mult + I[at+1]`, entry `at` removed. Merged into
                    // another entry, the digit may carry where no tile split it, or step by
                    // `mult`: not followed.
                    if entry == *at || entry == at + 1 {
                        return None;
                    }
                    if entry > *at {
                        entry -= 1;
                    }
                    width -= 1;
                }
                Step::Tile { start, sizes, .. } => {
                    let k = sizes.len();
                    // A tile of size 1 leaves the digit in the quotient, in place.
                    if (*start..*start + k).contains(&entry) && sizes[entry - start] > 1 {
                        if count == MAX_SPLITS {
                            return None;
                        }
                        let j = entry - start;
                        splits[count] = usize::try_from(sizes[j]).ok()?;
                        count += 1;
                        entry = width + j;
                    }
                    width += k;
                }
            }
        }
        Some(Digit {
            entry,
            splits,
            count,
        })
    }

    /// The offsets of `out.len()` consecutive indices along dimension `dim` from `start`:
    /// `out[k]` is the offset of `start` with `start[dim] + k` in place of `start[dim]`.
    /// Within a tile the offsets of such indices are evenly spaced, so this computes one
    /// offset per run of them (a row of a tile, or the whole row of an untiled layout) and
    /// fills the rest by adding the stride: much faster than one [`offset`](Self::offset)
    /// per index.
    ///
    /// # Panics
    /// If `start` does not have the plan's rank, `dim` is not a dimension, or an index of the
    /// batch is out of bounds.
    ///
    /// ```
    /// let p: xla_layout::Plan = "f32[16,256]{1,0:T(8,128)}".parse().unwrap();
    /// let mut row = [0; 256];
    /// p.offsets_along(&[9, 0], 1, &mut row);
    /// assert_eq!(&row[..3], &[2048 + 128, 2048 + 129, 2048 + 130]); // tile (1, 0), row 1
    /// assert_eq!(row[128], 2048 + 1024 + 128); // the next tile along the row
    /// let mut column = [0; 3];
    /// p.offsets_along(&[7, 5], 0, &mut column);
    /// assert_eq!(column, [7 * 128 + 5, 2048 + 5, 2048 + 128 + 5]);
    /// ```
    pub fn offsets_along(&self, start: &[usize], dim: usize, out: &mut [usize]) {
        let rank = self.dims.len();
        assert!(
            start.len() == rank && dim < rank,
            "Plan::offsets_along: index {start:?} and dimension {dim} for dims {:?}",
            self.dims
        );
        let end = start[dim].checked_add(out.len());
        assert!(
            self.in_bounds(start) && end.is_some_and(|e| e <= self.dims[dim]) || out.is_empty(),
            "Plan::offsets_along: {} indices from {start:?} along dimension {dim} leave dims {:?}",
            out.len(),
            self.dims
        );
        let mut index = [0; MAX_EXPANDED_RANK];
        let index = &mut index[..rank];
        index.copy_from_slice(start);
        let Some(digit) = self.digit(dim) else {
            for o in out.iter_mut() {
                *o = self.program.eval(index);
                index[dim] += 1;
            }
            return;
        };
        let (stride, extent) = (self.strides[digit.entry], self.expanded[digit.entry]);
        let mut k = 0;
        while k < out.len() {
            let first = self.program.eval(index);
            let run = digit.run(index[dim], extent).min(out.len() - k);
            let mut next = first;
            for o in &mut out[k..k + run] {
                *o = next;
                next = next.wrapping_add(stride);
            }
            k += run;
            index[dim] += run;
        }
    }
}
