//! The readable arguments of layout types: dims, `minor_to_major` and tiles as const
//! generics, first among an [`Array`](super::Array)'s arguments, so that rustc prints a layout
//! type as it reads (`Array<Bf16, 2, Dims<16, 256>, MinorToMajor<1, 0>, Tiles<Tile<8, 128>,
//! Tile<2, 1>>, ..>`) and a mismatch of two layouts is first reported where they differ in
//! layout terms.
//!
//! Each list holds up to 8 entries as const parameters whose default is `usize::MAX` (no entry;
//! rustc leaves defaulted trailing arguments out when it prints a type), followed by `More`
//! ([`Nil`] by default) for the entries past the eighth. A `*` in a tile is `0`.

use core::marker::PhantomData;

use super::list::{LIST_CAPACITY, List, Nil};

/// No entry: the default of every readable list slot.
pub(crate) const NONE: usize = usize::MAX;

/// The entries of a readable list: the given slots up to the first [`NONE`], then `More`'s if
/// all 8 are given.
const fn items(slots: [usize; 8], more: [usize; LIST_CAPACITY]) -> (usize, [usize; LIST_CAPACITY]) {
    let mut out = [0; LIST_CAPACITY];
    let mut n = 0;
    while n < 8 && slots[n] != NONE {
        out[n] = slots[n];
        n += 1;
    }
    if n < 8 {
        return (n, out);
    }
    let mut i = 0;
    while i + 8 < LIST_CAPACITY {
        out[i + 8] = more[i];
        i += 1;
    }
    (8, out)
}

macro_rules! readable_lists {
    ($none:literal) => {
        /// The dimensions of a layout type, logical dimension 0 first (`?` as 0 and `<=N` as
        /// `N` in a [`DynArray`](super::DynArray)). Macro support, not API.
        ///
        /// ```
        /// use xla_layout::typed::{Dims, List};
        /// assert_eq!(<Dims<16, 256> as List>::SLICE, &[16, 256]);
        /// ```
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct Dims<
            const D0: usize = $none,
            const D1: usize = $none,
            const D2: usize = $none,
            const D3: usize = $none,
            const D4: usize = $none,
            const D5: usize = $none,
            const D6: usize = $none,
            const D7: usize = $none,
            More = Nil,
        >(PhantomData<More>);

        /// The `minor_to_major` of a layout type. Macro support, not API.
        ///
        /// ```
        /// use xla_layout::typed::{List, MinorToMajor};
        /// assert_eq!(<MinorToMajor<1, 0> as List>::SLICE, &[1, 0]);
        /// ```
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct MinorToMajor<
            const D0: usize = $none,
            const D1: usize = $none,
            const D2: usize = $none,
            const D3: usize = $none,
            const D4: usize = $none,
            const D5: usize = $none,
            const D6: usize = $none,
            const D7: usize = $none,
            More = Nil,
        >(PhantomData<More>);

        /// One tile `T(..)` of a layout type, `*` written `0`. Macro support, not API.
        ///
        /// ```
        /// use xla_layout::typed::{List, Tile};
        /// assert_eq!(<Tile<8, 128> as List>::SLICE, &[8, 128]);
        /// ```
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct Tile<
            const D0: usize = $none,
            const D1: usize = $none,
            const D2: usize = $none,
            const D3: usize = $none,
            const D4: usize = $none,
            const D5: usize = $none,
            const D6: usize = $none,
            const D7: usize = $none,
            More = Nil,
        >(PhantomData<More>);
    };
}

#[cfg(target_pointer_width = "64")]
readable_lists!(18446744073709551615);
#[cfg(not(target_pointer_width = "64"))]
readable_lists!(4294967295);

macro_rules! list_impl {
    ($($name:ident)*) => {$(
        impl<
            const D0: usize,
            const D1: usize,
            const D2: usize,
            const D3: usize,
            const D4: usize,
            const D5: usize,
            const D6: usize,
            const D7: usize,
            More: List,
        > List for $name<D0, D1, D2, D3, D4, D5, D6, D7, More>
        {
            const LEN: usize = {
                let (n, _) = items([D0, D1, D2, D3, D4, D5, D6, D7], More::ITEMS);
                if n < 8 {
                    n
                } else {
                    assert!(More::LEN + 8 <= LIST_CAPACITY, "type-level list too long");
                    8 + More::LEN
                }
            };
            const ITEMS: [usize; LIST_CAPACITY] =
                items([D0, D1, D2, D3, D4, D5, D6, D7], More::ITEMS).1;
        }
    )*};
}

list_impl!(Dims MinorToMajor Tile);

/// No tile: the default of each of [`Tiles`]'s slots, so that a mismatch between layouts with
/// different numbers of tiles reads "expected `Tile<8, 128>`, found `NoTile`". Macro support,
/// not API.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NoTile;

/// The tiles `T(..)(..)` of a layout type, first tile first, up to 8 and then `More`; no
/// argument for an untiled layout. Macro support, not API.
///
/// ```
/// use xla_layout::typed::{Tile, Tiles};
/// type TpuTiles = Tiles<Tile<8, 128>, Tile<2, 1>>;
/// let _ = TpuTiles::default();
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[allow(clippy::type_complexity)]
pub struct Tiles<
    T0 = NoTile,
    T1 = NoTile,
    T2 = NoTile,
    T3 = NoTile,
    T4 = NoTile,
    T5 = NoTile,
    T6 = NoTile,
    T7 = NoTile,
    More = Nil,
>(PhantomData<fn() -> (T0, T1, T2, T3, T4, T5, T6, T7, More)>);
