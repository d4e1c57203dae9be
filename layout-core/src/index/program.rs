//! The offset of a plan compiled once into straight arithmetic: what [`Plan::offset`] runs.
//!
//! The tiling steps act on a working index. Compiling them tracks which register holds each
//! working entry (or that it is known to be 0: the entries a tile of higher rank adds, and
//! every remainder by a tile size of 1), so that the program only divides what can be
//! nonzero, each division by a [`Divisor`] fixed here. When every division is by a power of
//! two and no `*` merges entries, each expanded coordinate is a bit field of one index entry,
//! and the offset is a sum of `((index[d] >> shift) & mask) · stride`: the [`Program::Fields`]
//! form, which is what the common layouts (`T(8,128)`, `T(8,128)(2,1)`, untiled) compile to.
//!
//! [`Plan::offset`]: crate::index::Plan::offset

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

/// One operation on the registers of [`Program::Ops`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    /// `r[rem] = r[src] % t; r[src] = r[src] / t`.
    Split { src: usize, rem: usize, div: Divisor },
    /// `r[lo] += r[hi] · mult` (a `*` merge).
    Combine { hi: usize, lo: usize, mult: usize },
    /// `r[reg] *= mult` (a `*` merge into an entry known to be 0).
    Scale { reg: usize, mult: usize },
}

/// A compiled offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Program {
    /// `Σ ((index[dim] >> shift) & mask) · stride`.
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
    /// over the final working index. `strides` and `expanded` are the final sizes' strides and
    /// sizes. Registers are reused once a `*` merge frees them, so there are never more than
    /// the widest the working index gets.
    pub(crate) fn new(
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
        match Self::fields(&loads, &ops, registers, &leaves) {
            Some(fields) => Program::Fields(fields),
            None => Program::Ops {
                loads,
                ops,
                registers,
                leaves,
            },
        }
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

    /// The offset of `index` (one entry per logical dimension; missing entries read as 0).
    #[inline]
    pub(crate) fn eval(&self, index: &[usize]) -> usize {
        match self {
            Program::Fields(fields) => sum_fields(fields, index),
            Program::Ops { registers, .. } if *registers <= NARROW => {
                self.run_ops::<NARROW>(index)
            }
            Program::Ops { .. } => self.run_ops::<{ crate::index::MAX_EXPANDED_RANK }>(index),
        }
    }

    /// The general form, with `N >= registers` registers on the stack.
    #[inline]
    fn run_ops<const N: usize>(&self, index: &[usize]) -> usize {
        let Program::Ops {
            loads, ops, leaves, ..
        } = self
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
        leaves
            .iter()
            .fold(0usize, |acc, &(reg, stride)| {
                acc.wrapping_add(r[reg].wrapping_mul(stride))
            })
    }

    /// The offsets of many indices: `out[n]` is the offset of `indices[n]`.
    pub(crate) fn eval_many<I: AsRef<[usize]>>(&self, indices: &[I], out: &mut [usize]) {
        match self {
            Program::Fields(fields) => {
                // Field by field over all indices, so that each field's constants stay in
                // registers and the inner loop is a shift, a mask, a multiply and an add.
                out.fill(0);
                for f in fields {
                    for (o, i) in out.iter_mut().zip(indices) {
                        *o = o.wrapping_add(f.eval(i.as_ref()));
                    }
                }
            }
            Program::Ops { .. } => {
                for (o, i) in out.iter_mut().zip(indices) {
                    *o = self.eval(i.as_ref());
                }
            }
        }
    }
}

/// `Σ field(index)`, unrolled for the common field counts (2 per dimension of a tiled
/// rank-2 layout, up to 8).
#[inline(always)]
fn sum_fields(fields: &[Field], index: &[usize]) -> usize {
    #[inline(always)]
    fn unrolled<const N: usize>(fields: &[Field; N], index: &[usize]) -> usize {
        fields
            .iter()
            .fold(0usize, |acc, f| acc.wrapping_add(f.eval(index)))
    }
    macro_rules! by_len {
        ($($n:literal)*) => {
            match fields.len() {
                $($n => {
                    if let Ok(f) = <&[Field; $n]>::try_from(fields) {
                        return unrolled(f, index);
                    }
                })*
                _ => {}
            }
        };
    }
    by_len!(1 2 3 4 5 6 7 8);
    fields
        .iter()
        .fold(0usize, |acc, f| acc.wrapping_add(f.eval(index)))
}
