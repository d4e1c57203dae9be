//! Division by a tile size that is fixed when a plan is built: a shift and a mask for a power
//! of two, otherwise a multiply by a precomputed reciprocal (a "magic number") and a shift,
//! so that computing an offset never runs a hardware divide.
//!
//! The reciprocal is the round-up method (Granlund and Montgomery, "Division by invariant
//! integers using multiplication", 1994, §4). For a divisor `t` that is not a power of two, let
//! `k = ⌊log2 t⌋` (so `2^k < t < 2^(k+1)`) and `m = ⌈2^(64+k) / t⌉`. Then:
//!
//! - `m < 2^64`: `2^(64+k) / t < 2^64` because `2^k < t`, and it is not an integer (`t` has
//!   an odd factor above 1), so its ceiling is below `2^64` too.
//! - `e = m·t − 2^(64+k)` satisfies `0 < e < t`.
//! - For every `x < 2^63`, `⌊x·m / 2^(64+k)⌋ = ⌊x / t⌋`. Write `x = q·t + r` with `r < t`:
//!   `x·m / 2^(64+k) = x/t + x·e / (t·2^(64+k)) = q + (r + x·e / 2^(64+k)) / t`, and
//!   `x·e < 2^63 · 2^(k+1) = 2^(64+k)`, so the added fraction is below `(r + 1) / t ≤ 1`.
//!
//! Every value a plan divides is below `2^63` (sizes are checked against `i64::MAX` when
//! the plan is built), so the quotient is exact over the whole index range. `x·m` is one
//! 64×64 → 128-bit multiply (`mul` on x86_64, `umulh` on aarch64); the remainder is
//! `x − q·t`. The tests below check the identity against plain division exhaustively for
//! small divisors and ranges, and at the edges of the range for divisors up to `2^40`.

/// Division by a fixed positive divisor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Divisor {
    /// A power of two, `2^shift`: `x >> shift` and `x & mask`.
    Shift { shift: u32, mask: usize },
    /// Any other divisor: `(x·multiplier) >> (64 + shift)`, then `x − q·divisor`.
    Magic {
        multiplier: u64,
        shift: u32,
        divisor: usize,
    },
}

impl Divisor {
    /// The divisor `t` (at least 1).
    pub(crate) fn new(t: usize) -> Divisor {
        debug_assert!(t >= 1);
        let t = t.max(1);
        if t.is_power_of_two() {
            return Divisor::Shift {
                shift: t.trailing_zeros(),
                mask: t - 1,
            };
        }
        let k = t.ilog2();
        let t128 = t as u128;
        // ⌈2^(64+k) / t⌉ < 2^64 (module docs), so the cast keeps every bit.
        let multiplier = ((1u128 << (64 + k)).div_ceil(t128)) as u64;
        Divisor::Magic {
            multiplier,
            shift: k,
            divisor: t,
        }
    }

    /// `(x / t, x % t)`, exact for `x < 2^63`; for larger `x` some pair of values, without
    /// overflow or panic.
    #[inline(always)]
    pub(crate) fn div_rem(self, x: usize) -> (usize, usize) {
        match self {
            Divisor::Shift { shift, mask } => (x >> shift, x & mask),
            Divisor::Magic {
                multiplier,
                shift,
                divisor,
            } => {
                let high = ((x as u64 as u128 * multiplier as u128) >> 64) as u64;
                let q = (high >> shift) as usize;
                (q, x.wrapping_sub(q.wrapping_mul(divisor)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Divisor;

    fn check(t: usize, x: usize) {
        assert_eq!(Divisor::new(t).div_rem(x), (x / t, x % t), "{x} / {t}");
    }

    /// Every divisor up to 1100 against every dividend up to 70 000 (tile sizes and
    /// extents of real layouts are in this range).
    #[test]
    fn exhaustive_for_small_divisors() {
        for t in 1..=1100 {
            for x in 0..70_000 {
                check(t, x);
            }
        }
    }

    /// The top of the range, where the error term is largest: the last `2^16` dividends
    /// below `2^63`, around multiples of `t` there, and around `2^32` and `2^48`.
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn exact_at_the_edges_of_the_range() {
        let top = 1usize << 63;
        let divisors = (1..=300)
            .chain([
                1000,
                1023,
                1025,
                3 << 20,
                1_000_003,
                (1 << 31) - 1,
                (1 << 40) + 7,
            ])
            .chain((2..40).map(|b| (1usize << b) - 1))
            .chain((2..40).map(|b| (1usize << b) + 1));
        for t in divisors {
            for x in top - (1 << 16)..top {
                check(t, x);
            }
            for base in [top - 1, 1 << 32, 1 << 48] {
                let q = base / t;
                for d in 0..4 {
                    for m in [q.saturating_sub(d), q + d] {
                        let x = m * t;
                        for x in [x.saturating_sub(1), x, x + 1] {
                            if x < top {
                                check(t, x);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Past `2^63` the result is unspecified but computing it never panics.
    #[test]
    fn never_panics_past_the_range() {
        for t in [3, 7, 100, 1 << 20] {
            let _ = Divisor::new(t).div_rem(usize::MAX);
        }
    }
}
