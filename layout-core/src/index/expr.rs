//! The closed form of a layout's offset function: the plan's steps run on symbols instead of
//! numbers, simplified with the known bounds of every value. It is what `explain` prints and
//! what the `layout!` macro compiles to straight-line code.

use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;

use crate::index::Plan;
use crate::model::tiling::Step;

/// An integer expression over the logical index `i0, i1, ...`, with unsigned arithmetic.
///
/// Subexpressions are shared ([`Arc`]), so that a layout whose tiles use one value twice
/// (a `*` merge that is then split again) builds its expression in time linear in the number
/// of tiles; [`Expr::tree_size`] says how large the expression is written out.
///
/// ```
/// use xla_layout::{parse_array, Expr, Plan};
/// let p = Plan::new(&parse_array("f32[3,5]{1,0:T(2,2)}").unwrap()).unwrap();
/// let e = p.offset_expr();
/// assert_eq!(e.to_string(), "(i0>>1)*12 + (i1>>1)*4 + (i0&1)*2 + (i1&1)");
/// assert_eq!(e.eval(&[2, 3]), 17);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// The constant 0.
    Zero,
    /// Logical index entry `i_d`.
    Index(usize),
    /// `a * m + b` (two dimensions merged by `*`).
    MulAdd(Arc<Expr>, usize, Arc<Expr>),
    /// `x / t`.
    Div(Arc<Expr>, usize),
    /// `x % t`.
    Rem(Arc<Expr>, usize),
    /// `Σ term * stride`: the offset.
    Sum(Vec<(Expr, usize)>),
}

/// An expression with an exclusive upper bound on its value.
#[derive(Clone, Debug)]
struct Bounded {
    expr: Expr,
    bound: usize,
}

impl Bounded {
    fn new(expr: Expr, bound: usize) -> Bounded {
        // A value below 1 is always 0.
        if bound <= 1 {
            return Bounded {
                expr: Expr::Zero,
                bound: 1,
            };
        }
        Bounded { expr, bound }
    }

    /// `self / t`, simplified exactly: a quotient of a quotient is one quotient, and the
    /// quotient of a `*` merge `a*m + b` (where `b < m`) by a multiple or a divisor of `m`
    /// drops `b` or splits over the sum.
    fn div(&self, t: usize) -> Bounded {
        let bound = self.bound.div_ceil(t);
        let expr = match &self.expr {
            _ if t == 1 => self.expr.clone(),
            Expr::Div(x, a) => match a.checked_mul(t) {
                Some(at) => Expr::Div(x.clone(), at),
                None => Expr::Zero,
            },
            Expr::MulAdd(a, m, b) if t.is_multiple_of(*m) => {
                // (a*m + b) / (k*m) = a / k, as b < m.
                let a = Bounded::new((**a).clone(), self.bound.div_ceil(*m));
                return Bounded::new(a.div(t / m).expr, bound);
            }
            Expr::MulAdd(a, m, b) if m % t == 0 => {
                // (a*m + b) / t = a*(m/t) + b/t, as t divides a*m.
                let a = Bounded::new((**a).clone(), self.bound.div_ceil(*m));
                let b = Bounded::new((**b).clone(), *m).div(t);
                return Bounded::new(a.mul_add(m / t, &b).expr, bound);
            }
            e => Expr::Div(Arc::new(e.clone()), t),
        };
        Bounded::new(expr, bound)
    }

    /// `self % t`, simplified exactly: a remainder that cannot change its operand is dropped,
    /// and the remainder of a `*` merge `a*m + b` (where `b < m`) by a divisor of `m` is
    /// `b % t`, by a multiple `k*m` it is `(a % k)*m + b`.
    fn rem(&self, t: usize) -> Bounded {
        if self.bound <= t {
            return self.clone();
        }
        let expr = match &self.expr {
            Expr::Rem(x, a) if a % t == 0 => Expr::Rem(x.clone(), t),
            Expr::MulAdd(_, m, b) if m % t == 0 => {
                return Bounded::new((**b).clone(), *m).rem(t);
            }
            Expr::MulAdd(a, m, b) if t.is_multiple_of(*m) => {
                let a = Bounded::new((**a).clone(), self.bound.div_ceil(*m)).rem(t / m);
                let b = Bounded::new((**b).clone(), *m);
                return Bounded::new(a.mul_add(*m, &b).expr, t);
            }
            e => Expr::Rem(Arc::new(e.clone()), t),
        };
        Bounded::new(expr, t)
    }

    fn mul_add(&self, m: usize, b: &Bounded) -> Bounded {
        let bound = self.bound.saturating_mul(m);
        let expr = match (&self.expr, &b.expr) {
            (Expr::Zero, _) => b.expr.clone(),
            (a, Expr::Zero) if m == 1 => a.clone(),
            (a, bx) => Expr::MulAdd(Arc::new(a.clone()), m, Arc::new(bx.clone())),
        };
        Bounded::new(expr, bound)
    }
}

impl Expr {
    /// The number of operations and leaves of the expression written out as a tree (shared
    /// subexpressions counted at each use), or `None` when it exceeds `limit`. Costs at most
    /// `limit` steps, so callers can check an expression's size before printing it.
    ///
    /// ```
    /// let p = xla_layout::Plan::new(&xla_layout::parse_array("f32[3,5]{1,0:T(2,2)}").unwrap()).unwrap();
    /// let e = p.offset_expr(); // (i0>>1)*12 + (i1>>1)*4 + (i0&1)*2 + (i1&1)
    /// assert_eq!(e.tree_size(100), Some(9));
    /// assert_eq!(e.tree_size(5), None);
    /// ```
    pub fn tree_size(&self, limit: usize) -> Option<usize> {
        fn walk(e: &Expr, left: &mut usize) -> bool {
            if *left == 0 {
                return false;
            }
            *left -= 1;
            match e {
                Expr::Zero | Expr::Index(_) => true,
                Expr::MulAdd(a, _, b) => walk(a, left) && walk(b, left),
                Expr::Div(x, _) | Expr::Rem(x, _) => walk(x, left),
                Expr::Sum(terms) => terms.iter().all(|(t, _)| walk(t, left)),
            }
        }
        let mut left = limit;
        walk(self, &mut left).then(|| limit - left)
    }

    /// Evaluates the expression at a logical index.
    ///
    /// ```
    /// use xla_layout::Expr;
    /// let e = Expr::Rem(std::sync::Arc::new(Expr::Index(1)), 4);
    /// assert_eq!(e.eval(&[0, 11]), 3);
    /// ```
    pub fn eval(&self, index: &[usize]) -> usize {
        match self {
            Expr::Zero => 0,
            Expr::Index(d) => index[*d],
            Expr::MulAdd(a, m, b) => a.eval(index) * m + b.eval(index),
            Expr::Div(x, t) => x.eval(index) / t,
            Expr::Rem(x, t) => x.eval(index) % t,
            Expr::Sum(terms) => terms.iter().map(|(e, s)| e.eval(index) * s).sum(),
        }
    }
}

impl Plan {
    /// The offset function in closed form: the plan's steps applied to the symbols
    /// `i0, i1, ...`, simplified using each value's bounds (a division or remainder that
    /// cannot change its operand is dropped, a value that is always 0 vanishes).
    ///
    /// ```
    /// let a = xla_layout::parse_array("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}").unwrap();
    /// let e = xla_layout::Plan::new(&a).unwrap().offset_expr();
    /// assert_eq!(
    ///     e.to_string(),
    ///     "i0*20971520 + (i2>>3)*131072 + (i3>>7)*1024 + ((i2&7)>>1)*256 + (i3&127)*2 + (i2&1)"
    /// );
    /// ```
    pub fn offset_expr(&self) -> Expr {
        let mut work: Vec<Bounded> = self
            .physical
            .iter()
            .map(|&d| Bounded::new(Expr::Index(d), self.dims[d]))
            .collect();
        for step in &self.steps {
            match step {
                Step::Pad { by } => {
                    let zeros = core::iter::repeat_n(Bounded::new(Expr::Zero, 1), *by);
                    work.splice(0..0, zeros);
                }
                Step::Combine { at, mult } => {
                    let merged = work[*at].mul_add(*mult as usize, &work[*at + 1]);
                    work[*at + 1] = merged;
                    work.remove(*at);
                }
                Step::Tile { start, sizes, .. } => {
                    let mut inner = Vec::with_capacity(sizes.len());
                    for (j, &t) in sizes.iter().enumerate() {
                        let x = work[start + j].clone();
                        work[start + j] = x.div(t as usize);
                        inner.push(x.rem(t as usize));
                    }
                    work.extend(inner);
                }
            }
        }
        Expr::Sum(
            work.into_iter()
                .zip(&self.strides)
                .filter(|(b, _)| b.expr != Expr::Zero)
                .map(|(b, &s)| (b.expr, s))
                .collect(),
        )
    }
}

impl Plan {
    /// The inverse in closed form: for each logical dimension, the expression of its index in
    /// terms of the element offset, written `i0`. It is exact for offsets that hold an
    /// element; for a padding slot it yields some index whose offset differs, which is how
    /// [`Plan::index_of`]-style callers detect padding (`offset(index) != offset`).
    ///
    /// ```
    /// let p = xla_layout::Plan::new(&xla_layout::parse_array("f32[3,5]{1,0:T(2,2)}").unwrap()).unwrap();
    /// let inverse = p.index_exprs();
    /// assert_eq!(inverse[0].to_string(), "((i0/12)*2 + ((i0>>1)&1))");
    /// let index: Vec<usize> = inverse.iter().map(|e| e.eval(&[17])).collect();
    /// assert_eq!(index, [2, 3]);
    /// ```
    pub fn index_exprs(&self) -> Vec<Expr> {
        if self.elements() == 0 {
            return alloc::vec![Expr::Zero; self.dims.len()];
        }
        let offset = Bounded::new(Expr::Index(0), self.tiled_elements);
        let mut work: Vec<Bounded> = self
            .strides
            .iter()
            .zip(&self.expanded)
            .map(|(&s, &p)| offset.div(s).rem(p))
            .collect();
        for step in self.steps.iter().rev() {
            match step {
                Step::Tile { start, sizes, .. } => {
                    let inner = work.split_off(work.len() - sizes.len());
                    for (j, (&t, r)) in sizes.iter().zip(&inner).enumerate() {
                        work[start + j] = work[start + j].mul_add(t as usize, r);
                    }
                }
                Step::Combine { at, mult } => {
                    let c = work[*at].clone();
                    let m = *mult as usize;
                    work[*at] = c.rem(m);
                    work.insert(*at, c.div(m));
                }
                Step::Pad { by } => {
                    work.drain(..by);
                }
            }
        }
        let mut out = alloc::vec![Expr::Zero; self.dims.len()];
        for (b, &d) in work.into_iter().zip(&self.physical) {
            out[d] = b.expr;
        }
        out
    }
}

impl Plan {
    /// A normal form of the map from element number (logical row-major linear index) to
    /// offset: two layouts of the same element type and storage size put every element at
    /// the same offset exactly when their signatures are equal. Used to check bitcasts.
    ///
    /// For layouts without `*` and without padding slots it is the coalesced list of
    /// `(size, stride)` modes, most significant first (so a reshape that keeps the memory
    /// order has the same signature), then the number of element slots; other layouts get `usize::MAX` followed by their dims,
    /// physical order and tiling steps, so they match only the same layout.
    ///
    /// ```
    /// use xla_layout::{parse_array, Plan};
    /// let sig = |t: &str| Plan::new(&parse_array(t).unwrap()).unwrap().bitcast_signature();
    /// assert_eq!(sig("f32[3,4]{1,0}"), [12, 1, 12]);
    /// assert_eq!(sig("f32[3,4]{1,0}"), sig("f32[6,2]{1,0}"));
    /// assert_eq!(sig("f32[3,2,2]{1,0,2}"), sig("f32[6,2]{0,1}")); // XLA's ReshapeIsBitcast test
    /// assert_ne!(sig("f32[3,4]{1,0}"), sig("f32[3,4]{0,1}"));
    /// ```
    pub fn bitcast_signature(&self) -> Vec<usize> {
        let combines = self.steps.iter().any(|s| matches!(s, Step::Combine { .. }));
        if combines || self.tiled_elements != self.elements() {
            return self.opaque_signature();
        }
        // Each expanded coordinate steps one logical dimension by a weight; a dimension's
        // modes are its coordinates from the heaviest weight down.
        let mut modes: Vec<(usize, usize, usize, usize)> = Vec::new();
        for (&size, &stride) in self.expanded.iter().zip(&self.strides) {
            if size == 1 {
                continue;
            }
            let Some(step) = self.index_of(stride) else {
                return self.opaque_signature();
            };
            let Some((d, &w)) = step.iter().enumerate().find(|(_, w)| **w > 0) else {
                return self.opaque_signature();
            };
            modes.push((d, usize::MAX - w, size, stride));
        }
        modes.sort_unstable();
        let mut out: Vec<(usize, usize)> = Vec::new();
        for (_, _, size, stride) in modes {
            match out.last_mut() {
                Some(last) if last.1 == size * stride => *last = (last.0 * size, stride),
                _ => out.push((size, stride)),
            }
        }
        let mut sig: Vec<usize> = out.into_iter().flat_map(|(s, t)| [s, t]).collect();
        sig.push(self.physical_elements());
        sig
    }

    fn opaque_signature(&self) -> Vec<usize> {
        let mut sig = alloc::vec![usize::MAX, self.dims.len()];
        sig.extend(&self.dims);
        sig.extend(&self.physical);
        sig.extend(&self.tiling_stages()[0]);
        for step in &self.steps {
            match step {
                Step::Pad { by } => sig.extend([1, *by]),
                Step::Combine { at, .. } => sig.extend([2, *at]),
                Step::Tile { start, sizes, .. } => {
                    sig.extend([3, *start, sizes.len()]);
                    sig.extend(sizes.iter().map(|&t| t as usize));
                }
            }
        }
        sig.push(self.physical_elements());
        sig
    }
}

fn shift(t: usize) -> Option<u32> {
    t.is_power_of_two().then(|| t.trailing_zeros())
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Zero => f.write_str("0"),
            Expr::Index(d) => write!(f, "i{d}"),
            Expr::MulAdd(a, m, b) => write!(f, "({a}*{m} + {b})"),
            Expr::Div(x, t) => match shift(*t) {
                Some(k) => write!(f, "({x}>>{k})"),
                None => write!(f, "({x}/{t})"),
            },
            Expr::Rem(x, t) => match shift(*t) {
                Some(_) => write!(f, "({x}&{})", t - 1),
                None => write!(f, "({x}%{t})"),
            },
            Expr::Sum(terms) if terms.is_empty() => f.write_str("0"),
            Expr::Sum(terms) => {
                let mut sep = "";
                for (e, s) in terms {
                    f.write_str(sep)?;
                    sep = " + ";
                    match s {
                        1 => write!(f, "{e}")?,
                        s => write!(f, "{e}*{s}")?,
                    }
                }
                Ok(())
            }
        }
    }
}
