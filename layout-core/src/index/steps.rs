//! The index model's steps on a working index, as `const fn`s: what every tiling step does to
//! the index entries. [`Plan::offset`](crate::Plan::offset) runs them over the plan's steps at
//! run time; the typed layer runs the same functions over steps computed at compile time,
//! unrolled, so that a `layout!` type's offset is straight-line code.

/// A tile of higher rank than the index: `by` leading zero entries are prepended to the
/// `width` entries of `work`. Returns the new width.
#[inline(always)]
pub(crate) const fn pad(work: &mut [usize], width: usize, by: usize) -> usize {
    let mut i = width;
    while i > 0 {
        i -= 1;
        work[i + by] = work[i];
    }
    let mut j = 0;
    while j < by {
        work[j] = 0;
        j += 1;
    }
    width + by
}

/// A `*` in a tile: entry `at` is merged into the next one, `work[at + 1] += work[at] * mult`,
/// and removed. Returns the new width.
#[inline(always)]
pub(crate) const fn combine(work: &mut [usize], width: usize, at: usize, mult: usize) -> usize {
    work[at + 1] = work[at + 1].wrapping_add(work[at].wrapping_mul(mult));
    let mut i = at;
    while i + 1 < width {
        work[i] = work[i + 1];
        i += 1;
    }
    width - 1
}

/// A tile of sizes `sizes` over entries `start..`: each becomes its quotient by the tile size,
/// and the remainders are appended. Returns the new width.
#[inline(always)]
pub(crate) const fn tile(work: &mut [usize], width: usize, start: usize, sizes: &[u64]) -> usize {
    let mut j = 0;
    while j < sizes.len() {
        let i = work[start + j];
        let t = sizes[j] as usize;
        work[start + j] = i / t;
        work[width + j] = i % t;
        j += 1;
    }
    width + sizes.len()
}

#[cfg(test)]
mod tests {
    use super::{combine, pad, tile};

    #[test]
    fn steps_on_a_working_index() {
        let mut work = [7, 9, 0, 0];
        assert_eq!(pad(&mut work, 2, 1), 3);
        assert_eq!(work[..3], [0, 7, 9]);
        let mut work = [2, 3, 5];
        assert_eq!(combine(&mut work, 3, 0, 4), 2);
        assert_eq!(work[..2], [11, 5]);
        let mut work = [21, 300, 0, 0];
        assert_eq!(tile(&mut work, 2, 0, &[8, 128]), 4);
        assert_eq!(work, [2, 2, 5, 44]);
    }
}
