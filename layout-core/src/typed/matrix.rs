//! Type-level dimensions with `typenum`: what a generic signature can require of a layout's
//! sizes where const generics cannot compute (a dimension divisible by a tile, padded sizes).

use core::ops::Rem;

use typenum::generic_const_mappings::{Const, ToUInt, U};
use typenum::{Prod, Quot, Sub1, Sum, U0, Unsigned};

use super::{Array, Dims, StaticLayout};

/// A static rank-2 layout with its dims as `typenum` numbers, so generic code can state
/// requirements on them: `L::Rows: Rem<U8, Output = U0>` (rows a multiple of 8), or
/// [`FitsTiles`]. Implemented by `layout!` types of rank 2 whose dims are at most 1024 or a
/// power of two (the numbers `typenum` maps from constants).
///
/// ```
/// use xla_layout::{layout, typed::Matrix};
/// use xla_layout::typenum::{U16, U256, Unsigned};
/// type M = layout!(f32[16,256]{1,0:T(8,128)});
/// assert_eq!(<M as Matrix>::Rows::USIZE, 16);
/// let _: <M as Matrix>::Cols = U256::new();
/// let _: <M as Matrix>::Rows = U16::new();
/// ```
pub trait Matrix: StaticLayout<Index = [usize; 2]> {
    /// The number of rows (dimension 0).
    type Rows: Unsigned;
    /// The number of columns (dimension 1).
    type Cols: Unsigned;
}

impl<E, const R: usize, const C: usize, M2m, Tiles, G, A, S> Matrix
    for Array<E, 2, Dims<R, C>, M2m, Tiles, G, A, S>
where
    Self: StaticLayout<Index = [usize; 2]>,
    Const<R>: ToUInt,
    Const<C>: ToUInt,
    U<R>: Unsigned,
    U<C>: Unsigned,
{
    type Rows = U<R>;
    type Cols = U<C>;
}

/// `N` rounded up to a multiple of `T`, as a type: the padded size of a dimension of size `N`
/// under tiles of `T`.
///
/// ```
/// use xla_layout::typed::PaddedTo;
/// use xla_layout::typenum::{U8, U13, U16, Unsigned};
/// assert_eq!(<PaddedTo<U13, U8> as Unsigned>::USIZE, 16);
/// let _: PaddedTo<U16, U8> = U16::new();
/// ```
pub type PaddedTo<N, T> = Prod<Quot<Sub1<Sum<N, T>>, T>, T>;

/// A rank-2 layout whose dims divide into tiles of `R × C` with no padding: rows a multiple
/// of `R`, columns of `C`. Checked at compile time from the type-level dims of [`Matrix`].
///
/// ```
/// use xla_layout::{layout, typed::FitsTiles};
/// use xla_layout::typenum::{U8, U128};
/// fn kernel<L: FitsTiles<U8, U128>>() {}
/// kernel::<layout!(f32[16,256]{1,0:T(8,128)})>();
/// kernel::<layout!(bf16[1024,512])>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not divide into the tiles this kernel needs",
    label = "dims not a multiple of the tile",
    note = "`Dims<..>` in `Array<..>` holds the dims (rows first), and `FitsTiles<R, C>` in the \
            kernel's signature the tile (`typenum` numbers, `U8`, `U128`, ...): rows must \
            be a multiple of R and columns of C; pad the array (`copy_from` into a larger \
            layout) or use another kernel"
)]
pub trait FitsTiles<R, C> {}

#[diagnostic::do_not_recommend]
impl<L, R, C> FitsTiles<R, C> for L
where
    L: Matrix,
    L::Rows: Rem<R, Output = U0>,
    L::Cols: Rem<C, Output = U0>,
{
}
