//! The dimensions of a dynamic layout type as they read: `DynDims<AnySize, Fixed<1280>>` for
//! `[?,1280]`, `DynDims<AtMost<4096>, Fixed<128>>` for `[<=4096,128]`, so that a `?` where
//! `<=N` was expected is reported as ``expected `AtMost<4096>`, found `AnySize` ``. Up to 8
//! dimensions as type arguments whose default is [`NoDim`] (left out when rustc prints the
//! type), then `More` ([`Nil`] by default) for the dimensions past the eighth.

use core::marker::PhantomData;

use super::list::Nil;
use super::tiling::MAX_TYPED_RANK;

/// A dimension `?`: any extent, up to the largest power of two for which the layout's size
/// fits in an `i64` ([`Layout::BOUNDS`](super::Layout::BOUNDS)). Macro support, not API.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AnySize;

/// A dimension `<=N`: any extent up to `N`. Macro support, not API.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AtMost<const N: usize>;

/// A static dimension of size `N` in a dynamic layout. Macro support, not API.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Fixed<const N: usize>;

/// No dimension: the default of each of [`DynDims`]'s slots. Macro support, not API.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NoDim;

/// What a slot of [`DynDims`] holds. Macro support, not API.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DimKind {
    /// [`Fixed`]: a static size.
    Static,
    /// [`AtMost`]: `<=N`.
    Bounded,
    /// [`AnySize`]: `?`.
    Unbounded,
    /// [`NoDim`]: no dimension.
    Absent,
}

/// A slot of [`DynDims`]: [`AnySize`], [`AtMost`], [`Fixed`] or [`NoDim`]. Macro support, not API.
pub trait DimSlot {
    /// What the slot holds.
    const KIND: DimKind;
    /// The size or bound (0 for `?` and for no dimension).
    const SIZE: usize;
}

impl DimSlot for AnySize {
    const KIND: DimKind = DimKind::Unbounded;
    const SIZE: usize = 0;
}

impl<const N: usize> DimSlot for AtMost<N> {
    const KIND: DimKind = DimKind::Bounded;
    const SIZE: usize = N;
}

impl<const N: usize> DimSlot for Fixed<N> {
    const KIND: DimKind = DimKind::Static;
    const SIZE: usize = N;
}

impl DimSlot for NoDim {
    const KIND: DimKind = DimKind::Absent;
    const SIZE: usize = 0;
}

/// The dimensions of a dynamic layout type, logical dimension 0 first. Macro support, not
/// API.
///
/// ```
/// use xla_layout::typed::{AnySize, DimKind, DimSet, DynDims, Fixed};
/// type D = DynDims<AnySize, Fixed<1280>>;
/// assert_eq!(D::LEN, 2);
/// assert_eq!(D::KINDS[..2], [DimKind::Unbounded, DimKind::Static]);
/// assert_eq!(D::SIZES[1], 1280);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[allow(clippy::type_complexity)]
pub struct DynDims<
    D0 = NoDim,
    D1 = NoDim,
    D2 = NoDim,
    D3 = NoDim,
    D4 = NoDim,
    D5 = NoDim,
    D6 = NoDim,
    D7 = NoDim,
    More = Nil,
>(PhantomData<fn() -> (D0, D1, D2, D3, D4, D5, D6, D7, More)>);

/// The dimensions of a dynamic layout type, read in `const` contexts. Macro support, not API.
pub trait DimSet {
    /// The number of dimensions.
    const LEN: usize;
    /// Each dimension's kind; [`DimKind::Absent`] past the last.
    const KINDS: [DimKind; MAX_TYPED_RANK];
    /// Each dimension's size or bound (0 for `?`).
    const SIZES: [usize; MAX_TYPED_RANK];
}

impl DimSet for Nil {
    const LEN: usize = 0;
    const KINDS: [DimKind; MAX_TYPED_RANK] = [DimKind::Absent; MAX_TYPED_RANK];
    const SIZES: [usize; MAX_TYPED_RANK] = [0; MAX_TYPED_RANK];
}

/// The dimensions of eight slots followed by `more`: the slots up to the first absent one,
/// then `more`'s if all eight are given.
const fn join(
    kinds: [DimKind; 8],
    sizes: [usize; 8],
    more: ([DimKind; MAX_TYPED_RANK], [usize; MAX_TYPED_RANK], usize),
) -> ([DimKind; MAX_TYPED_RANK], [usize; MAX_TYPED_RANK], usize) {
    let mut k = [DimKind::Absent; MAX_TYPED_RANK];
    let mut s = [0; MAX_TYPED_RANK];
    let mut n = 0;
    while n < 8 && !matches!(kinds[n], DimKind::Absent) {
        k[n] = kinds[n];
        s[n] = sizes[n];
        n += 1;
    }
    if n < 8 {
        return (k, s, n);
    }
    assert!(
        more.2 + 8 <= MAX_TYPED_RANK,
        "too many dimensions for a layout type"
    );
    let mut i = 0;
    while i < more.2 {
        k[8 + i] = more.0[i];
        s[8 + i] = more.1[i];
        i += 1;
    }
    (k, s, 8 + more.2)
}

impl<D0, D1, D2, D3, D4, D5, D6, D7, More> DynDims<D0, D1, D2, D3, D4, D5, D6, D7, More>
where
    D0: DimSlot,
    D1: DimSlot,
    D2: DimSlot,
    D3: DimSlot,
    D4: DimSlot,
    D5: DimSlot,
    D6: DimSlot,
    D7: DimSlot,
    More: DimSet,
{
    const JOINED: ([DimKind; MAX_TYPED_RANK], [usize; MAX_TYPED_RANK], usize) = join(
        [
            D0::KIND,
            D1::KIND,
            D2::KIND,
            D3::KIND,
            D4::KIND,
            D5::KIND,
            D6::KIND,
            D7::KIND,
        ],
        [
            D0::SIZE,
            D1::SIZE,
            D2::SIZE,
            D3::SIZE,
            D4::SIZE,
            D5::SIZE,
            D6::SIZE,
            D7::SIZE,
        ],
        (More::KINDS, More::SIZES, More::LEN),
    );
}

impl<D0, D1, D2, D3, D4, D5, D6, D7, More> DimSet for DynDims<D0, D1, D2, D3, D4, D5, D6, D7, More>
where
    D0: DimSlot,
    D1: DimSlot,
    D2: DimSlot,
    D3: DimSlot,
    D4: DimSlot,
    D5: DimSlot,
    D6: DimSlot,
    D7: DimSlot,
    More: DimSet,
{
    const LEN: usize = Self::JOINED.2;
    const KINDS: [DimKind; MAX_TYPED_RANK] = Self::JOINED.0;
    const SIZES: [usize; MAX_TYPED_RANK] = Self::JOINED.1;
}
