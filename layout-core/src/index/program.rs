//! The offset of a plan compiled once into straight arithmetic: what [`Plan::offset`] runs.
//!
//! The tiling steps act on a working index. Compiling them tracks which register holds each
//! working entry (or that it is known to be 0: the entries a tile of higher rank adds, and
//! every remainder by a tile size of 1), so that the program only divides what can be
//! nonzero, each division by a [`Divisor`] fixed here. When every division is by a power of
//! two and no `*` merges entries, each expanded coordinate is a bit field of one index entry,
//! and the offset is a sum of `((index[d] >> shift) & mask) · stride`.
//!
//! The bit fields of one index entry `x` cut its bits into ranges `[a_0 = 0, a_1)`,
//! `[a_1, a_2)`, ..., each with a stride `S_k` (0 for bits no field reads). Since
//! `(x >> a_k) & (2^(a_(k+1) − a_k) − 1) = (x >> a_k) − ((x >> a_(k+1)) << (a_(k+1) − a_k))`,
//! their sum telescopes to `Σ_k (x >> a_k) · C_k` with `C_k = S_k − S_(k−1) · 2^(a_k − a_(k−1))`
//! (in wrapping arithmetic, exact because the offset fits): no masks, and ranges that start
//! above the dimension's highest bit drop out. `T(8,128)` on `[i, j]` becomes
//! `i·128 + (i >> 3)·7168 + j + (j >> 7)·896`. Layouts of rank up to [`INLINE_DIMS`] with up
//! to three ranges per dimension (one level of tiles, or `T(8,128)(2,1)`) keep these terms in
//! the plan itself, so that a loop of offsets holds them in registers.
//!
//! Tiles that are not all powers of two telescope the same way whenever each dimension's
//! digits `(x / D_k) % M_k` are a mixed radix (`D_(k+1) = D_k · M_k`, true for one level of
//! tiles, and for nested tiles that divide the ones they split): [`Quotients`], each `x / D`
//! one multiply by a reciprocal. Anything else (`*` merges, tiles that split a remainder they
//! do not divide) runs the register program.
//!
//! [`Plan::offset`]: crate::index::Plan::offset

use alloc::boxed::Box;
use alloc::vec::Vec;

use crate::index::divide::Divisor;
use crate::model::tiling::Step;

/// One bit field of an index entry and its stride in the offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Field {
    pub(crate) dim: usize,
    pub(crate) shift: u32,
    pub(crate) mask: usize,
    pub(crate) stride: usize,
}

impl Field {
    #[inline(always)]
    fn eval(&self, index: &[usize]) -> usize {
        let v = index.get(self.dim).copied().unwrap_or(0);
        ((v >> self.shift) & self.mask).wrapping_mul(self.stride)
    }
}

/// One operation on the registers of [`Rest::Ops`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    /// `r[rem] = r[src] % t; r[src] = r[src] / t`.
    Split {
        src: usize,
        rem: usize,
        div: Divisor,
    },
    /// `r[lo] += r[hi] · mult` (a `*` merge).
    Combine { hi: usize, lo: usize, mult: usize },
    /// `r[reg] *= mult` (a `*` merge into an entry known to be 0).
    Scale { reg: usize, mult: usize },
}

/// The most dimensions whose terms a plan keeps in itself.
const INLINE_DIMS: usize = 4;

/// The offset contribution of one index entry `x`:
/// `x · scale + (x >> shifts[0]) · coefs[0] + (x >> shifts[1]) · coefs[1]` (wrapping).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Terms {
    scale: usize,
    shifts: [u32; 2],
    coefs: [usize; 2],
}

impl Terms {
    #[inline(always)]
    fn eval(&self, x: usize) -> usize {
        x.wrapping_mul(self.scale)
            .wrapping_add((x >> self.shifts[0]).wrapping_mul(self.coefs[0]))
            .wrapping_add((x >> self.shifts[1]).wrapping_mul(self.coefs[1]))
    }

    /// The terms of the fields of one index entry below `extent`, if they fit.
    fn new(fields: &[Field], extent: usize) -> Option<Terms> {
        // The bits an in-range entry can have.
        let bits = usize::BITS - extent.saturating_sub(1).leading_zeros();
        // (start bit, stride) of each range, in order, gaps filled with stride 0.
        let mut sorted: Vec<&Field> = fields.iter().collect();
        sorted.sort_by_key(|f| f.shift);
        let mut ranges: Vec<(u32, usize)> = Vec::new();
        let mut next = 0u32;
        for f in sorted {
            if f.shift < next {
                return None; // overlapping fields: not a partition
            }
            if f.shift > next {
                ranges.push((next, 0));
            }
            ranges.push((f.shift, f.stride));
            next = match f.mask {
                usize::MAX => u32::MAX,
                m => f.shift + m.count_ones(),
            };
        }
        if next < bits {
            ranges.push((next, 0));
        }
        // C_k = S_k − S_(k−1) · 2^(a_k − a_(k−1)); ranges past the entry's bits read 0.
        let mut terms: Vec<(u32, usize)> = Vec::new();
        let mut previous: Option<(u32, usize)> = None;
        for &(a, stride) in &ranges {
            if a >= bits && a > 0 {
                break;
            }
            let c = match previous {
                None => stride,
                Some((pa, ps)) => stride.wrapping_sub(ps.wrapping_mul(1usize << (a - pa))),
            };
            terms.push((a, c));
            previous = Some((a, stride));
        }
        let mut t = Terms::default();
        for (k, &(a, c)) in terms.iter().enumerate() {
            match k {
                0 if a == 0 => t.scale = c,
                1 | 2 if terms[0].0 == 0 => {
                    t.shifts[k - 1] = a;
                    t.coefs[k - 1] = c;
                }
                _ => return None,
            }
        }
        Some(t)
    }
}

/// The offset contribution of one index entry `x` as
/// `x · scale + (x / divisors[0]) · coefs[0] + (x / divisors[1]) · coefs[1]` (wrapping), each
/// quotient `(x · multiplier) >> (64 + shift)` (a power of two `2^b` is multiplier `2^63`,
/// shift `b − 1`). The digits `(x / D_k) % M_k` of a mixed radix (`D_(k+1) = D_k · M_k`)
/// telescope like bit fields: `(x / D_k) % M_k = x / D_k − (x / D_(k+1)) · M_k`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Quotients {
    scale: usize,
    multipliers: [u64; 2],
    shifts: [u32; 2],
    coefs: [usize; 2],
}

impl Quotients {
    #[inline(always)]
    fn eval(&self, x: usize) -> usize {
        let q = |k: usize| {
            let high = ((x as u64 as u128 * self.multipliers[k] as u128) >> 64) as u64;
            (high >> self.shifts[k]) as usize
        };
        let one = x
            .wrapping_mul(self.scale)
            .wrapping_add(q(0).wrapping_mul(self.coefs[0]));
        // One level of tiles has one quotient per dimension: the second multiply skipped (a
        // branch the same way for every index of a plan; measured `T(6,100)` on 1024×1024,
        // 3.06 -> 2.72 ns an offset, batch 2.27 -> 1.84).
        if self.coefs[1] == 0 {
            return one;
        }
        one.wrapping_add(q(1).wrapping_mul(self.coefs[1]))
    }

    /// The quotients of the digits `(x / divisor) % modulus` (modulus `None`: unbounded) of
    /// one index entry below `extent`, with their strides, if they form a mixed radix with at
    /// most three digits that can be nonzero.
    fn new(digits: &[(usize, Option<usize>, usize)], extent: usize) -> Option<Quotients> {
        let mut sorted = digits.to_vec();
        sorted.sort_by_key(|d| d.0);
        // (divisor, stride) of each digit from divisor 1 up, gaps filled with stride 0.
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        let mut next = Some(1usize);
        for (divisor, modulus, stride) in sorted {
            let n = next?;
            if divisor < n || divisor % n != 0 {
                return None;
            }
            if divisor > n {
                ranges.push((n, 0));
            }
            ranges.push((divisor, stride));
            next = modulus.and_then(|m| divisor.checked_mul(m));
        }
        if let Some(n) = next
            && n < extent
        {
            ranges.push((n, 0));
        }
        let mut q = Quotients::default();
        let mut previous: Option<(usize, usize)> = None;
        let mut k = 0;
        for &(divisor, stride) in &ranges {
            if divisor >= extent && divisor > 1 {
                break; // x / divisor is 0 below the extent
            }
            let c = match previous {
                None => stride,
                Some((pd, ps)) => stride.wrapping_sub(ps.wrapping_mul(divisor / pd)),
            };
            previous = Some((divisor, stride));
            if divisor == 1 {
                q.scale = c;
                continue;
            }
            if k == 2 {
                return None;
            }
            let (multiplier, shift) = reciprocal(divisor);
            q.multipliers[k] = multiplier;
            q.shifts[k] = shift;
            q.coefs[k] = c;
            k += 1;
        }
        Some(q)
    }
}

/// `(multiplier, shift)` with `x / t = (x · multiplier) >> (64 + shift)` for `x < 2^63`,
/// `t >= 2`: the reciprocal of [`Divisor`] (index/divide.rs proves it), or `2^63` and
/// `b − 1` for `t = 2^b`.
fn reciprocal(t: usize) -> (u64, u32) {
    match Divisor::new(t) {
        Divisor::Magic {
            multiplier, shift, ..
        } => (multiplier, shift),
        Divisor::Shift { shift, .. } => (1 << 63, shift.saturating_sub(1)),
    }
}

/// A compiled offset: for layouts of rank up to [`INLINE_DIMS`] made of bit fields that fit
/// [`Terms`], one `Terms` per dimension kept in the plan itself, so that a loop of offsets
/// holds them in registers; otherwise the rest of the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Program {
    inline: [Terms; INLINE_DIMS],
    pub(crate) rest: Rest,
}

/// What a [`Program`] runs when its inline terms are not the offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Rest {
    /// Nothing, and no inline term has a shifted part: the offset is `Σ index[d] · scale_d`
    /// (untiled layouts), one multiply a dimension.
    Strides,
    /// Nothing: the inline terms are the whole offset.
    None,
    /// Per dimension, quotients by reciprocals: for tiles that are not all powers of two,
    /// when each dimension's digits are a mixed radix (every tile size divides the extent of
    /// what it tiles, as for one level of tiles).
    Quotients(Box<[Quotients; INLINE_DIMS]>),
    /// Bit fields: `Σ ((index[dim] >> shift) & mask) · stride`.
    Fields(Vec<Field>),
    /// Registers loaded from the index (`loads[r]` is the logical dimension of register
    /// `r`), the operations, then `Σ r[reg] · stride` over `leaves`.
    Ops {
        loads: Vec<usize>,
        ops: Vec<Op>,
        registers: usize,
        leaves: Vec<(usize, usize)>,
    },
}

/// The most registers the compact evaluation keeps on the stack.
const NARROW: usize = 16;

/// A bit field of index entry `dim`: `(index[dim] >> shift)`, masked to `width` bits if
/// bounded.
#[derive(Clone, Copy)]
struct Bits {
    dim: usize,
    shift: u32,
    width: Option<u32>,
}

impl Program {
    /// Compiles `steps` acting on the index entries `physical` (logical dimension at each
    /// physical position, major to minor) into a program whose result is `Σ entry · stride`
    /// over the final working index, for indices below the logical `dims`. `strides` and
    /// `expanded` are the final sizes' strides and sizes. Registers are reused once a `*` merge frees them, so there are never more than
    /// the widest the working index gets.
    pub(crate) fn new(
        dims: &[usize],
        physical: &[usize],
        steps: &[Step],
        expanded: &[usize],
        strides: &[usize],
    ) -> Program {
        // The register of each working entry, `None` when the entry is known to be 0.
        let mut work: Vec<Option<usize>> = (0..physical.len()).map(Some).collect();
        let mut free: Vec<usize> = Vec::new();
        let mut registers = physical.len();
        let mut ops = Vec::new();
        for step in steps {
            match step {
                Step::Pad { by } => {
                    work.splice(0..0, core::iter::repeat_n(None, *by));
                }
                Step::Combine { at, mult } => {
                    let mult = usize::try_from(*mult).unwrap_or(usize::MAX);
                    let merged = match (work[*at], work[at + 1]) {
                        (None, lo) => lo,
                        (Some(hi), None) => {
                            ops.push(Op::Scale { reg: hi, mult });
                            Some(hi)
                        }
                        (Some(hi), Some(lo)) => {
                            ops.push(Op::Combine { hi, lo, mult });
                            free.push(hi);
                            Some(lo)
                        }
                    };
                    work[at + 1] = merged;
                    work.remove(*at);
                }
                Step::Tile { start, sizes, .. } => {
                    for (j, &t) in sizes.iter().enumerate() {
                        let t = usize::try_from(t).unwrap_or(usize::MAX);
                        let rem = match work[start + j] {
                            Some(src) if t > 1 => {
                                let rem = free.pop().unwrap_or_else(|| {
                                    registers += 1;
                                    registers - 1
                                });
                                ops.push(Op::Split {
                                    src,
                                    rem,
                                    div: Divisor::new(t),
                                });
                                Some(rem)
                            }
                            _ => None,
                        };
                        work.push(rem);
                    }
                }
            }
        }
        // Entries of size 1 are 0 for every in-bounds index.
        let leaves: Vec<(usize, usize)> = work
            .iter()
            .zip(expanded.iter().zip(strides))
            .filter_map(|(&reg, (&size, &stride))| Some((reg?, stride)).filter(|_| size > 1))
            .collect();
        let loads = physical.to_vec();
        let mut inline = [Terms::default(); INLINE_DIMS];
        let rest = match Self::fields(&loads, &ops, registers, &leaves) {
            Some(fields) if dims.len() <= INLINE_DIMS => {
                let per_dim = dims.iter().enumerate().map(|(d, &extent)| {
                    let of_dim: Vec<Field> =
                        fields.iter().filter(|f| f.dim == d).copied().collect();
                    Terms::new(&of_dim, extent)
                });
                let mut all = true;
                for (slot, terms) in inline.iter_mut().zip(per_dim) {
                    match terms {
                        Some(t) => *slot = t,
                        None => all = false,
                    }
                }
                if !all {
                    inline = [Terms::default(); INLINE_DIMS];
                    Rest::Fields(fields)
                } else if inline.iter().all(|t| t.coefs == [0, 0]) {
                    Rest::Strides
                } else {
                    Rest::None
                }
            }
            Some(fields) => Rest::Fields(fields),
            None => match Self::quotients(dims, &loads, &ops, registers, &leaves) {
                Some(per_dim) => Rest::Quotients(Box::new(per_dim)),
                None => Rest::Ops {
                    loads,
                    ops,
                    registers,
                    leaves,
                },
            },
        };
        Program { inline, rest }
    }

    /// The quotient form, if there is no `*`, at most [`INLINE_DIMS`] dimensions, and each
    /// dimension's digits fit [`Quotients`].
    fn quotients(
        dims: &[usize],
        loads: &[usize],
        ops: &[Op],
        registers: usize,
        leaves: &[(usize, usize)],
    ) -> Option<[Quotients; INLINE_DIMS]> {
        if dims.len() > INLINE_DIMS {
            return None;
        }
        // Each register as `(index[dim] / divisor) % modulus`.
        let mut digit: Vec<(usize, usize, Option<usize>)> = (0..registers)
            .map(|r| (loads.get(r).copied().unwrap_or(0), 1, None))
            .collect();
        for op in ops {
            let Op::Split { src, rem, div } = *op else {
                return None;
            };
            let t = match div {
                Divisor::Shift { mask, .. } => mask + 1,
                Divisor::Magic { divisor, .. } => divisor,
            };
            let (dim, divisor, modulus) = digit[src];
            // The quotient's digits stay a mixed radix only if `t` divides the modulus.
            if modulus.is_some_and(|m| m % t != 0) {
                return None;
            }
            digit[rem] = (dim, divisor, Some(t));
            digit[src] = (dim, divisor.checked_mul(t)?, modulus.map(|m| m / t));
        }
        let mut per_dim = [Quotients::default(); INLINE_DIMS];
        for (d, (slot, &extent)) in per_dim.iter_mut().zip(dims).enumerate() {
            let of_dim: Vec<(usize, Option<usize>, usize)> = leaves
                .iter()
                .filter(|&&(reg, _)| digit[reg].0 == d)
                .map(|&(reg, stride)| (digit[reg].1, digit[reg].2, stride))
                .collect();
            *slot = Quotients::new(&of_dim, extent)?;
        }
        Some(per_dim)
    }

    /// The bit-field form, if every operation is a split by a power of two.
    fn fields(
        loads: &[usize],
        ops: &[Op],
        registers: usize,
        leaves: &[(usize, usize)],
    ) -> Option<Vec<Field>> {
        let mut bits: Vec<Bits> = (0..registers)
            .map(|r| Bits {
                dim: loads.get(r).copied().unwrap_or(0),
                shift: 0,
                width: None,
            })
            .collect();
        for op in ops {
            let Op::Split {
                src,
                rem,
                div: Divisor::Shift { shift: b, .. },
            } = *op
            else {
                return None;
            };
            let x = bits[src];
            bits[rem] = Bits {
                width: Some(x.width.map_or(b, |w| w.min(b))),
                ..x
            };
            bits[src] = Bits {
                shift: x.shift + b,
                width: x.width.map(|w| w.saturating_sub(b)),
                ..x
            };
        }
        Some(
            leaves
                .iter()
                .filter_map(|&(reg, stride)| {
                    let b = bits[reg];
                    let mask = match b.width {
                        Some(0) => return None,
                        Some(w) if w < usize::BITS => (1usize << w) - 1,
                        _ => usize::MAX,
                    };
                    // A shift past the word leaves nothing of an in-range index.
                    (b.shift < usize::BITS).then_some(Field {
                        dim: b.dim,
                        shift: b.shift,
                        mask,
                        stride,
                    })
                })
                .collect(),
        )
    }

    /// Whether the offset of every index below `dims` is its row-major position (`Σ index[d]
    /// · Π dims[d + 1 ..]`): the inline terms are the whole program, and each dimension that
    /// can be nonzero has its row-major stride and no shifted terms.
    pub(crate) fn row_major(&self, dims: &[usize]) -> bool {
        if !matches!(self.rest, Rest::Strides | Rest::None) || dims.len() > INLINE_DIMS {
            return false;
        }
        let mut stride = 1usize;
        for (t, &n) in self.inline.iter().zip(dims).rev() {
            if n > 1 && (t.scale != stride || t.coefs != [0, 0]) {
                return false;
            }
            stride = stride.saturating_mul(n);
        }
        true
    }

    /// The offset of `index` (one entry per logical dimension; missing entries read as 0).
    #[inline]
    pub(crate) fn eval(&self, index: &[usize]) -> usize {
        match &self.rest {
            Rest::Strides => index.iter().zip(&self.inline).fold(0usize, |acc, (&x, t)| {
                acc.wrapping_add(x.wrapping_mul(t.scale))
            }),
            Rest::None => index
                .iter()
                .zip(&self.inline)
                .fold(0usize, |acc, (&x, t)| acc.wrapping_add(t.eval(x))),
            _ => self.eval_rest(index),
        }
    }

    /// The offset when the inline fields are not the whole program.
    fn eval_rest(&self, index: &[usize]) -> usize {
        match &self.rest {
            Rest::Strides | Rest::None => self.eval(index),
            Rest::Quotients(per_dim) => index
                .iter()
                .zip(per_dim.iter())
                .fold(0usize, |acc, (&x, q)| acc.wrapping_add(q.eval(x))),
            Rest::Fields(fields) => sum_fields(fields, index),
            Rest::Ops { registers, .. } if *registers <= NARROW => self.run_ops::<NARROW>(index),
            Rest::Ops { .. } => self.run_ops::<{ crate::index::MAX_EXPANDED_RANK }>(index),
        }
    }

    /// The general form, with `N >= registers` registers on the stack (a function of its
    /// own, so that the forms above need not reserve its stack).
    #[inline(never)]
    fn run_ops<const N: usize>(&self, index: &[usize]) -> usize {
        let Rest::Ops {
            loads, ops, leaves, ..
        } = &self.rest
        else {
            return 0;
        };
        let mut r = [0usize; N];
        for (slot, &d) in r.iter_mut().zip(loads) {
            *slot = index.get(d).copied().unwrap_or(0);
        }
        for op in ops {
            match *op {
                Op::Split { src, rem, div } => {
                    let (q, m) = div.div_rem(r[src]);
                    r[src] = q;
                    r[rem] = m;
                }
                Op::Combine { hi, lo, mult } => {
                    r[lo] = r[lo].wrapping_add(r[hi].wrapping_mul(mult));
                }
                Op::Scale { reg, mult } => r[reg] = r[reg].wrapping_mul(mult),
            }
        }
        leaves.iter().fold(0usize, |acc, &(reg, stride)| {
            acc.wrapping_add(r[reg].wrapping_mul(stride))
        })
    }

    /// The offsets of many indices: `out[n]` is the offset of `indices[n]`.
    #[inline]
    pub(crate) fn eval_many<I: AsRef<[usize]>>(&self, indices: &[I], out: &mut [usize]) {
        match &self.rest {
            Rest::Strides | Rest::None => {
                // Dimension by dimension over all indices: each pass keeps its dimension's
                // terms in registers and computes only those that are nonzero (one multiply
                // for an untiled dimension), where one index at a time looped over the
                // dimensions and all three terms of each (measured 2.5x slower than this).
                out.fill(0);
                for (d, &t) in self.inline.iter().enumerate() {
                    match (t.scale, t.coefs) {
                        (0, [0, 0]) => {}
                        (scale, [0, 0]) => add_pass(out, indices, d, |x| x.wrapping_mul(scale)),
                        (scale, [c, 0]) => add_pass(out, indices, d, |x| {
                            x.wrapping_mul(scale)
                                .wrapping_add((x >> t.shifts[0]).wrapping_mul(c))
                        }),
                        _ => add_pass(out, indices, d, |x| t.eval(x)),
                    }
                }
            }
            Rest::Fields(fields) => {
                // Field by field over all indices, so that each field's constants stay in
                // registers.
                out.fill(0);
                for &f in fields {
                    for (o, i) in out.iter_mut().zip(indices) {
                        *o = o.wrapping_add(f.eval(i.as_ref()));
                    }
                }
            }
            Rest::Quotients(per_dim) => {
                let per_dim = **per_dim;
                for (o, i) in out.iter_mut().zip(indices) {
                    *o = i
                        .as_ref()
                        .iter()
                        .zip(&per_dim)
                        .fold(0usize, |acc, (&x, q)| acc.wrapping_add(q.eval(x)));
                }
            }
            Rest::Ops { .. } => {
                for (o, i) in out.iter_mut().zip(indices) {
                    *o = self.eval_rest(i.as_ref());
                }
            }
        }
    }
}

/// `Σ field(index)`.
#[inline(always)]
fn sum_fields(fields: &[Field], index: &[usize]) -> usize {
    fields
        .iter()
        .fold(0usize, |acc, f| acc.wrapping_add(f.eval(index)))
}

/// `out[k] += f(indices[k][d])` for every `k` (an entry past an index's end reads as 0).
#[inline(always)]
fn add_pass<I: AsRef<[usize]>>(
    out: &mut [usize],
    indices: &[I],
    d: usize,
    f: impl Fn(usize) -> usize,
) {
    for (o, i) in out.iter_mut().zip(indices) {
        let x = i.as_ref().get(d).copied().unwrap_or(0);
        *o = o.wrapping_add(f(x));
    }
}

#[cfg(test)]
mod tests {
    use super::Rest;
    use crate::index::Plan;
    use crate::text::parse_array;

    fn plan(text: &str) -> Plan {
        Plan::new(&parse_array(text).unwrap()).unwrap()
    }

    /// Each layout compiles to the form meant for it, and every offset equals the closed
    /// form (`Expr`, which divides plainly).
    #[test]
    fn forms_and_offsets() {
        let cases = [
            ("f32[1024,1024]{1,0:T(8,128)}", "inline"),
            ("bf16[64,256]{1,0:T(8,128)(2,1)}", "inline"),
            ("f32[33,77]", "strides"),
            ("f32[33,77,5]{0,2,1}", "strides"),
            ("f32[100,70]{1,0:T(6,100)}", "quotients"),
            ("f32[50,70]{0,1:T(6,9)}", "quotients"),
            ("f32[5,70,9]{2,0,1:T(3,8)}", "quotients"),
            ("f32[50,70]{1,0:T(8,6)(4,3)}", "quotients"),
            ("f32[50,70]{1,0:T(8,6)(3,4)}", "ops"),
            ("f32[9,10,7]{2,1,0:T(3,*,4)}", "ops"),
            ("f32[3,4,5,6,7]{4,3,2,1,0:T(2,2)}", "fields"),
        ];
        for (text, form) in cases {
            let p = plan(text);
            let got = match p.program.rest {
                Rest::Strides => "strides",
                Rest::None => "inline",
                Rest::Quotients(_) => "quotients",
                Rest::Fields(_) => "fields",
                Rest::Ops { .. } => "ops",
            };
            assert_eq!(got, form, "{text}");
            let closed = p.offset_expr();
            let mut index = alloc::vec![0; p.dims().len()];
            for _ in 0..p.elements() {
                assert_eq!(p.offset(&index), closed.eval(&index), "{text} at {index:?}");
                for d in (0..index.len()).rev() {
                    index[d] += 1;
                    if index[d] < p.dims()[d] {
                        break;
                    }
                    index[d] = 0;
                }
            }
        }
    }
}
