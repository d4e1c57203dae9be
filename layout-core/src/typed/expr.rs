//! Offset expressions as types: a [`Expr`](crate::Expr) that the `layout!` macro spells as
//! nested generic types, evaluated by `#[inline(always)]` functions into straight-line code.

use core::marker::PhantomData;

use super::list::Nil;

/// An index expression evaluated at a logical index (or, for inverses, at `[offset]`).
///
/// ```
/// use xla_layout::typed::{Div, Eval, Idx, Rem};
/// type Row = Rem<Div<Idx<1>, 8>, 16>;
/// assert_eq!(<Row as Eval>::eval(&[0, 100]), 12);
/// ```
pub trait Eval {
    /// The value at `index`.
    fn eval(index: &[usize]) -> usize;
}

/// The constant 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Zero;

/// Entry `D` of the index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Idx<const D: usize>;

/// `A * M + B`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MulAdd<A, const M: usize, B>(PhantomData<(A, B)>);

/// `X / T`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Div<X, const T: usize>(PhantomData<X>);

/// `X % T`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rem<X, const T: usize>(PhantomData<X>);

/// `X * STRIDE + Rest`: a sum of strided terms, ended by [`Nil`] (0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Term<X, const STRIDE: usize, Rest>(PhantomData<(X, Rest)>);

impl Eval for Zero {
    #[inline(always)]
    fn eval(_: &[usize]) -> usize {
        0
    }
}

impl Eval for Nil {
    #[inline(always)]
    fn eval(_: &[usize]) -> usize {
        0
    }
}

impl<const D: usize> Eval for Idx<D> {
    #[inline(always)]
    fn eval(index: &[usize]) -> usize {
        index[D]
    }
}

impl<A: Eval, const M: usize, B: Eval> Eval for MulAdd<A, M, B> {
    #[inline(always)]
    fn eval(index: &[usize]) -> usize {
        A::eval(index).wrapping_mul(M).wrapping_add(B::eval(index))
    }
}

impl<X: Eval, const T: usize> Eval for Div<X, T> {
    #[inline(always)]
    fn eval(index: &[usize]) -> usize {
        X::eval(index) / T
    }
}

impl<X: Eval, const T: usize> Eval for Rem<X, T> {
    #[inline(always)]
    fn eval(index: &[usize]) -> usize {
        X::eval(index) % T
    }
}

impl<X: Eval, const STRIDE: usize, Rest: Eval> Eval for Term<X, STRIDE, Rest> {
    #[inline(always)]
    fn eval(index: &[usize]) -> usize {
        X::eval(index)
            .wrapping_mul(STRIDE)
            .wrapping_add(Rest::eval(index))
    }
}

/// `X * strides[SLOT] + Rest`: a term whose stride depends on dynamic extents, read from the
/// strides computed when the extents were given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Slot<X, const SLOT: usize, Rest>(PhantomData<(X, Rest)>);

/// An offset sum evaluated with the runtime strides of a dynamic layout.
///
/// ```
/// use xla_layout::typed::{EvalWith, Idx, Nil, Slot, Term};
/// type Offset = Slot<Idx<0>, 0, Term<Idx<1>, 1, Nil>>;
/// assert_eq!(<Offset as EvalWith>::eval_with(&[2, 3], &[10]), 23);
/// ```
pub trait EvalWith {
    /// The value at `index`, with `strides[k]` for slot `k`.
    fn eval_with(index: &[usize], strides: &[usize]) -> usize;
}

impl EvalWith for Nil {
    #[inline(always)]
    fn eval_with(_: &[usize], _: &[usize]) -> usize {
        0
    }
}

impl<X: Eval, const STRIDE: usize, Rest: EvalWith> EvalWith for Term<X, STRIDE, Rest> {
    #[inline(always)]
    fn eval_with(index: &[usize], strides: &[usize]) -> usize {
        X::eval(index)
            .wrapping_mul(STRIDE)
            .wrapping_add(Rest::eval_with(index, strides))
    }
}

impl<X: Eval, const SLOT: usize, Rest: EvalWith> EvalWith for Slot<X, SLOT, Rest> {
    #[inline(always)]
    fn eval_with(index: &[usize], strides: &[usize]) -> usize {
        X::eval(index)
            .wrapping_mul(strides[SLOT])
            .wrapping_add(Rest::eval_with(index, strides))
    }
}
