//! Requirements between layout types, named for what they mean, so that a call that breaks
//! one is a compile error saying so in layout terms.

use super::{Array, DynArray, Layout, StaticLayout, Tile, Tiles};

/// `Self` and `L` are layouts of one array: the same element type and the same dimensions
/// (with `?` and `<=N` in the same places). What [`copy_from`](crate::tensor::TensorBase::copy_from)
/// requires of its source.
///
/// ```
/// use xla_layout::{layout, typed::SameArrayAs};
/// fn same<A: SameArrayAs<B>, B: xla_layout::Layout>() {}
/// same::<layout!(f32[16,256]), layout!(f32[16,256]{0,1:T(8,128)})>();
/// same::<layout!(f32[?,256]), layout!(f32[?,256]{0,1})>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` and `{L}` are layouts of different arrays",
    label = "not a layout of the same array",
    note = "relayout (`copy_from`) needs the same element type and the same dimensions, `?` and \
            `<=N` included; compare the element type and the `Dims<..>` (static sizes) or \
            `DynDims<..>` (`AnySize` for `?`, `AtMost<N>` for `<=N`, `Fixed<N>` for a static size) \
            of the two layouts above, and reshape or convert first if you meant a different array"
)]
pub trait SameArrayAs<L: Layout>: Layout<Elem = L::Elem> {}

#[diagnostic::do_not_recommend]
impl<A: Layout, B: Layout<Elem = A::Elem, Dims = A::Dims>> SameArrayAs<B> for A {}

/// `Self` puts every element at the same offset of equally long storage as `L`: the
/// requirement of [`bitcast`](crate::tensor::TensorBase::bitcast) (XLA's bitcast).
///
/// ```
/// use xla_layout::{layout, typed::BitcastCompatibleWith};
/// fn bitcast_ok<A: BitcastCompatibleWith<B>, B>() {}
/// bitcast_ok::<layout!(f32[1,4]{1,0}), layout!(f32[1,4]{0,1})>();
/// bitcast_ok::<layout!(f32[2,3]), layout!(f32[6])>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be bitcast to `{L}`",
    label = "not a bitcast",
    note = "a bitcast reinterprets storage in place, so both layouts need the same element type \
            and every element at the same offset of storage of the same size; use `copy_from` \
            into a tensor of the target layout to relayout instead"
)]
pub trait BitcastCompatibleWith<L: ?Sized> {}

#[diagnostic::do_not_recommend]
impl<A, B> BitcastCompatibleWith<B> for A
where
    A: StaticLayout,
    B: StaticLayout<Word = A::Word, Elem = A::Elem, BitcastSignature = A::BitcastSignature>,
{
}

/// A layout of rank `N`: its index is `[usize; N]`. Lets generic code index a tensor.
///
/// ```
/// use xla_layout::{layout, tensor::Tensor, typed::Rank};
/// fn corner<L: Rank<2>>(t: &Tensor<L>) -> Option<L::Elem> {
///     t.get([0, 0])
/// }
/// let t = Tensor::<layout!(s32[2,2]{0,1})>::from_logical(&[7, 8, 9, 10]).unwrap();
/// assert_eq!(corner(&t), Some(7));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a rank-{N} layout",
    label = "this layout's rank is not {N}",
    note = "the second argument of `Array<..>` or `DynArray<..>` is the layout's rank, \
            `Dims<..>` or `DynDims<..>` its dimensions; an index of this layout has one entry per \
            dimension"
)]
pub trait Rank<const N: usize>: Layout<Index = [usize; N]> {}

#[diagnostic::do_not_recommend]
impl<const N: usize, L: Layout<Index = [usize; N]>> Rank<N> for L {}

/// `Self` is a rank-2 layout whose first tile is `T(R,C)`: what a kernel that walks memory one
/// `R × C` tile at a time requires (with [`FitsTiles`](super::FitsTiles) for whole tiles).
/// Later tiles (`(2,1)` sub-tiles, ...), `minor_to_major` and the attributes are free.
///
/// ```
/// use xla_layout::{layout, typed::FirstTile};
/// fn kernel<L: FirstTile<8, 128>>() {}
/// kernel::<layout!(f32[16,256]{1,0:T(8,128)})>();
/// kernel::<layout!(bf16[?,1280]{1,0:T(8,128)(2,1)})>();
/// ```
#[diagnostic::on_unimplemented(
    message = "the first tile of `{Self}` is not `T({R},{C})`",
    label = "not a rank-2 layout tiled `T({R},{C})` first",
    note = "`Tiles<..>` in the layout type above lists its tiles (`Tile<{R}, {C}>` is `T({R},{C})`); \
            this code needs a layout written like `f32[16,256]{{1,0:T({R},{C})}}`: relayout \
            into one with `copy_from` first, or use code that takes any layout"
)]
pub trait FirstTile<const R: usize, const C: usize>: Rank<2> {}

#[diagnostic::do_not_recommend]
impl<E, D, M, T1, T2, T3, T4, T5, T6, T7, More, G, A, S, const R: usize, const C: usize>
    FirstTile<R, C>
    for Array<E, 2, D, M, Tiles<Tile<R, C>, T1, T2, T3, T4, T5, T6, T7, More>, G, A, S>
where
    Self: Rank<2>,
{
}

#[diagnostic::do_not_recommend]
impl<E, D, M, T1, T2, T3, T4, T5, T6, T7, More, A, S, const R: usize, const C: usize>
    FirstTile<R, C>
    for DynArray<E, 2, D, M, Tiles<Tile<R, C>, T1, T2, T3, T4, T5, T6, T7, More>, A, S>
where
    Self: Rank<2>,
{
}
