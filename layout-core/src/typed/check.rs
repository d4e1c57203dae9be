//! Requirements between layout types, named for what they mean, so that a call that breaks
//! one is a compile error saying so in layout terms.

use super::{Layout, StaticLayout};

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
            `<=N` included; compare the element type and the dims above (`Array<ELEMENT, RANK, \
            STORAGE, DIMS, MINOR_TO_MAJOR, ...>`), and reshape or convert first if you meant \
            a different array"
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
    note = "the second argument of `Array<..>` is the layout's rank; an index of this layout has \
            one entry per dimension"
)]
pub trait Rank<const N: usize>: Layout<Index = [usize; N]> {}

#[diagnostic::do_not_recommend]
impl<const N: usize, L: Layout<Index = [usize; N]>> Rank<N> for L {}
