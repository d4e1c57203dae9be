//! The next slot that holds an element, at or after an offset, found without stepping through
//! padding.
//!
//! A slot's expanded coordinates ("digits", major to minor) hold an element when undoing the
//! tiling steps ([`Plan::index_of`]) passes every bound. Fixing the major digits, giving one
//! digit a range and leaving the minor ones free describes a box of slots; pushing the box's
//! bounds back through the steps with interval arithmetic shows when no slot in it can hold an
//! element. The test is sound (it never rejects a box that holds an element) and exact for a
//! single slot, and for boxes whose bounds move monotonically through the steps (every layout
//! without `*`). The search takes the smallest digit that passes, level by level, and halves
//! the range of a digit whose lowest value fails, so a run of padding costs a few tests per
//! digit instead of one per slot.

use alloc::vec::Vec;

use crate::index::Plan;
use crate::model::tiling::Step;

/// A `u64` from the steps as `usize`, saturating (plans only hold sizes that fit).
fn size(v: u64) -> usize {
    usize::try_from(v).unwrap_or(usize::MAX)
}

/// Interval bounds of the working index while the steps are undone.
#[derive(Default)]
struct Bounds {
    lo: Vec<usize>,
    hi: Vec<usize>,
}

impl Bounds {
    /// Whether the box (digits `..level` fixed to `digits`, digit `level` in `from..=to`, the
    /// rest free) may hold an element: false only when none of its slots does.
    fn admits(
        &mut self,
        plan: &Plan,
        digits: &[usize],
        level: usize,
        from: usize,
        to: usize,
    ) -> bool {
        let (lo, hi) = (&mut self.lo, &mut self.hi);
        lo.clear();
        hi.clear();
        for (j, &extent) in plan.expanded.iter().enumerate() {
            let (l, h) = match j.cmp(&level) {
                core::cmp::Ordering::Less => (digits[j], digits[j]),
                core::cmp::Ordering::Equal => (from, to),
                core::cmp::Ordering::Greater => (0, extent - 1),
            };
            lo.push(l);
            hi.push(h);
        }
        for step in plan.steps.iter().rev() {
            match step {
                Step::Tile {
                    start,
                    sizes,
                    extents,
                } => {
                    let base = lo.len() - sizes.len();
                    for (j, (&t, &e)) in sizes.iter().zip(extents).enumerate() {
                        let (t, e) = (size(t), size(e));
                        let at = start + j;
                        let l = lo[at].saturating_mul(t).saturating_add(lo[base + j]);
                        let h = hi[at].saturating_mul(t).saturating_add(hi[base + j]);
                        if l >= e {
                            return false;
                        }
                        lo[at] = l;
                        hi[at] = h.min(e - 1);
                    }
                    lo.truncate(base);
                    hi.truncate(base);
                }
                Step::Combine { at, mult } => {
                    let m = size(*mult).max(1);
                    let (l, h) = (lo[*at], hi[*at]);
                    let (major_lo, major_hi) = (l / m, h / m);
                    let (minor_lo, minor_hi) = if major_lo == major_hi {
                        (l % m, h % m)
                    } else {
                        (0, m - 1)
                    };
                    lo[*at] = minor_lo;
                    hi[*at] = minor_hi;
                    lo.insert(*at, major_lo);
                    hi.insert(*at, major_hi);
                }
                Step::Pad { by } => {
                    if lo[..*by].iter().any(|&l| l > 0) {
                        return false;
                    }
                    lo.drain(..*by);
                    hi.drain(..*by);
                }
            }
        }
        lo.iter()
            .zip(&plan.physical)
            .all(|(&l, &d)| l < plan.dims[d])
    }

    /// The smallest value of digit `level`, at least `from`, whose box may hold an element.
    fn first(&mut self, plan: &Plan, digits: &[usize], level: usize, from: usize) -> Option<usize> {
        let top = plan.expanded[level] - 1;
        if from > top {
            return None;
        }
        if self.admits(plan, digits, level, from, from) {
            return Some(from);
        }
        // Ranges still to try, the lowest on top; at most two per halving.
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        if from < top {
            ranges.push((from + 1, top));
        }
        while let Some((a, b)) = ranges.pop() {
            if !self.admits(plan, digits, level, a, b) {
                continue;
            }
            if a == b {
                return Some(a);
            }
            let mid = a + (b - a) / 2;
            ranges.push((mid + 1, b));
            ranges.push((a, mid));
        }
        None
    }

    /// Completes `digits[..top]` with the smallest slot that holds an element and whose digit
    /// `top` is at least `from`; false if there is none.
    fn complete(&mut self, plan: &Plan, digits: &mut [usize], top: usize, from: usize) -> bool {
        let last = plan.expanded.len() - 1;
        let (mut level, mut from) = (top, from);
        loop {
            match self.first(plan, digits, level, from) {
                // At the last level the box is one slot, and the test is exact.
                Some(d) if level == last => {
                    digits[level] = d;
                    return true;
                }
                Some(d) => {
                    digits[level] = d;
                    level += 1;
                    from = 0;
                }
                None if level == top => return false,
                None => {
                    level -= 1;
                    from = digits[level] + 1;
                }
            }
        }
    }
}

/// The first slot at or after `from` that holds an element, if any.
pub(crate) fn next_element(plan: &Plan, from: usize) -> Option<usize> {
    if from >= plan.tiled_elements || plan.elements() == 0 {
        return None;
    }
    let n = plan.expanded.len();
    let mut digits: Vec<usize> = plan
        .expanded
        .iter()
        .zip(&plan.strides)
        .map(|(&p, &s)| from / s % p)
        .collect();
    let mut bounds = Bounds::default();
    // Every digit fixed: the slot itself.
    if bounds.admits(plan, &digits, n, 0, 0) {
        return Some(from);
    }
    // Otherwise keep the longest prefix of `from`'s digits that can still be completed, with
    // the next digit larger than `from`'s.
    for level in (0..n).rev() {
        let next = digits[level] + 1;
        if next < plan.expanded[level]
            && bounds.admits(plan, &digits, level, next, plan.expanded[level] - 1)
            && bounds.complete(plan, &mut digits, level, next)
        {
            return Some(digits.iter().zip(&plan.strides).map(|(d, s)| d * s).sum());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::next_element;
    use crate::index::Plan;
    use crate::text::parse_array;

    /// Against a scan of every slot with `index_of`, on layouts with padding, `*` merges,
    /// tiles of higher rank than the array, `L` and legacy padding.
    #[test]
    fn agrees_with_a_scan_of_every_slot() {
        let layouts = [
            "f32[3,5]{1,0:T(2,2)}",
            "f32[5,7]{0,1:T(4,2)(2,1)}",
            "bf16[6]{0:T(2,3,2)}",
            "f32[5,3]{1,0:T(*,4)}",
            "f32[3,5,7]{2,1,0:T(*,3,4)}",
            "f32[7,3,5]{2,0,1:T(2,*,3)(3,2)}",
            "s8[5,9]{1,0:T(*,4)(2,3)(5)}",
            "f32[4,6,5]{2,1,0:T(3,*,4)(*,2)}",
            "u8[3,2,5]{0,2,1:T(2,128,*,1)(4,2,2)}",
            "f32[5,3]{1,0:T(2,2)L(7)}",
            "f32[1,1]{1,0:T(1,9)}",
            "pred[0,4]{1,0:T(2,2)}",
        ];
        for text in layouts {
            let plan = Plan::new(&parse_array(text).unwrap()).unwrap();
            let slots = plan.tiled_elements();
            assert!(slots < 100_000, "{text}");
            let holds: alloc::vec::Vec<bool> =
                (0..slots).map(|o| plan.index_of(o).is_some()).collect();
            for from in 0..slots + 2 {
                let scan = (from..slots).find(|&o| holds[o]);
                assert_eq!(next_element(&plan, from), scan, "{text} from {from}");
            }
        }
    }
}
