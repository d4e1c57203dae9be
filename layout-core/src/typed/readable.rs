//! The readable arguments of layout types: dims, `minor_to_major` and tiles as const
//! generics, first among an [`Array`](super::Array)'s arguments, so that rustc prints a layout
//! type as it reads (`Array<Bf16, 2, Dims<16, 256>, MinorToMajor<1, 0>, Tiles<Tile<8, 128>,
//! Tile<2, 1>>, ..>`) and a mismatch of two layouts is first reported where they differ in
//! layout terms.
//!
//! Each list holds up to 8 entries as const parameters whose default is [`NONE`] (no entry;
//! rustc leaves defaulted trailing arguments out when it prints a type, when the default is a
//! literal), followed by `More` ([`Nil`] by default) for the entries past the eighth. A `*` in
//! a tile is `0`.

use core::marker::PhantomData;

use super::list::{LIST_CAPACITY, List, Nil};
use super::tiling::MAX_TYPED_TILES;

/// No entry: the default of every readable list slot, `u32::MAX` so that the same literal
/// works on every target (`layout!` rejects layouts that would need this number as a value).
pub const NONE: usize = 4294967295;

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

        /// Legacy padded dimensions (`padded = [..]` of `layout!`). Macro support, not API.
        ///
        /// ```
        /// use xla_layout::typed::{List, Padded};
        /// assert_eq!(<Padded<3, 5> as List>::SLICE, &[3, 5]);
        /// ```
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct Padded<
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

        /// One split config `SC(d:i,j,..)`: the dimension, then the split indices. Macro
        /// support, not API.
        ///
        /// ```
        /// use xla_layout::typed::{List, Split};
        /// assert_eq!(<Split<1, 40, 130> as List>::SLICE, &[1, 40, 130]);
        /// ```
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct Split<
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

list_impl!(Dims MinorToMajor Tile Padded Split);

macro_rules! bitcast_list {
    ($none:literal) => {
        /// The bitcast signature of a layout type whose memory is a reshape-invariant list of
        /// `(size, stride)` modes ([`Plan::bitcast_signature`](crate::Plan::bitcast_signature)),
        /// up to 32 entries and then `More`; other layouts have [`Same`] (a bitcast only to
        /// the same layout). Macro support, not API.
        ///
        /// ```
        /// use xla_layout::typed::{Bitcast, List};
        /// assert_eq!(<Bitcast<12, 1, 12> as List>::SLICE, &[12, 1, 12]);
        /// ```
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct Bitcast<
            const D0: usize = $none,
            const D1: usize = $none,
            const D2: usize = $none,
            const D3: usize = $none,
            const D4: usize = $none,
            const D5: usize = $none,
            const D6: usize = $none,
            const D7: usize = $none,
            const D8: usize = $none,
            const D9: usize = $none,
            const D10: usize = $none,
            const D11: usize = $none,
            const D12: usize = $none,
            const D13: usize = $none,
            const D14: usize = $none,
            const D15: usize = $none,
            const D16: usize = $none,
            const D17: usize = $none,
            const D18: usize = $none,
            const D19: usize = $none,
            const D20: usize = $none,
            const D21: usize = $none,
            const D22: usize = $none,
            const D23: usize = $none,
            const D24: usize = $none,
            const D25: usize = $none,
            const D26: usize = $none,
            const D27: usize = $none,
            const D28: usize = $none,
            const D29: usize = $none,
            const D30: usize = $none,
            const D31: usize = $none,
            More = Nil,
        >(PhantomData<More>);
    };
}

bitcast_list!(4294967295);

/// The entries of a [`Bitcast`]: its slots up to the first [`NONE`], then `More`'s.
const fn bitcast_items(
    slots: [usize; BITCAST_SLOTS],
    more: [usize; LIST_CAPACITY],
) -> (usize, [usize; LIST_CAPACITY]) {
    let mut out = [0; LIST_CAPACITY];
    let mut n = 0;
    while n < BITCAST_SLOTS && slots[n] != NONE {
        out[n] = slots[n];
        n += 1;
    }
    if n < BITCAST_SLOTS {
        return (n, out);
    }
    let mut i = 0;
    while i + BITCAST_SLOTS < LIST_CAPACITY {
        out[i + BITCAST_SLOTS] = more[i];
        i += 1;
    }
    (BITCAST_SLOTS, out)
}

/// How many entries a [`Bitcast`] holds before `More`.
pub const BITCAST_SLOTS: usize = 32;

impl<
    const D0: usize,
    const D1: usize,
    const D2: usize,
    const D3: usize,
    const D4: usize,
    const D5: usize,
    const D6: usize,
    const D7: usize,
    const D8: usize,
    const D9: usize,
    const D10: usize,
    const D11: usize,
    const D12: usize,
    const D13: usize,
    const D14: usize,
    const D15: usize,
    const D16: usize,
    const D17: usize,
    const D18: usize,
    const D19: usize,
    const D20: usize,
    const D21: usize,
    const D22: usize,
    const D23: usize,
    const D24: usize,
    const D25: usize,
    const D26: usize,
    const D27: usize,
    const D28: usize,
    const D29: usize,
    const D30: usize,
    const D31: usize,
    More: List,
> List
    for Bitcast<
        D0,
        D1,
        D2,
        D3,
        D4,
        D5,
        D6,
        D7,
        D8,
        D9,
        D10,
        D11,
        D12,
        D13,
        D14,
        D15,
        D16,
        D17,
        D18,
        D19,
        D20,
        D21,
        D22,
        D23,
        D24,
        D25,
        D26,
        D27,
        D28,
        D29,
        D30,
        D31,
        More,
    >
{
    const LEN: usize = {
        let (n, _) = bitcast_items(
            [
                D0, D1, D2, D3, D4, D5, D6, D7, D8, D9, D10, D11, D12, D13, D14, D15, D16, D17,
                D18, D19, D20, D21, D22, D23, D24, D25, D26, D27, D28, D29, D30, D31,
            ],
            More::ITEMS,
        );
        if n < BITCAST_SLOTS {
            n
        } else {
            assert!(
                More::LEN + BITCAST_SLOTS <= LIST_CAPACITY,
                "type-level list too long"
            );
            BITCAST_SLOTS + More::LEN
        }
    };
    const ITEMS: [usize; LIST_CAPACITY] = bitcast_items(
        [
            D0, D1, D2, D3, D4, D5, D6, D7, D8, D9, D10, D11, D12, D13, D14, D15, D16, D17, D18,
            D19, D20, D21, D22, D23, D24, D25, D26, D27, D28, D29, D30, D31,
        ],
        More::ITEMS,
    )
    .1;
}

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

/// A slot of [`Tiles`]: a [`Tile`] or [`NoTile`].
pub trait TileSlot {
    /// Whether the slot holds a tile.
    const PRESENT: bool;
    /// The tile's rank.
    const RANK: usize;
    /// The tile's dims, `0` for `*`.
    const DIMS: [usize; MAX_TYPED_TILES];
}

impl TileSlot for NoTile {
    const PRESENT: bool = false;
    const RANK: usize = 0;
    const DIMS: [usize; MAX_TYPED_TILES] = [0; MAX_TYPED_TILES];
}

impl<
    const D0: usize,
    const D1: usize,
    const D2: usize,
    const D3: usize,
    const D4: usize,
    const D5: usize,
    const D6: usize,
    const D7: usize,
> TileSlot for Tile<D0, D1, D2, D3, D4, D5, D6, D7>
{
    const PRESENT: bool = true;
    const RANK: usize = <Self as List>::LEN;
    const DIMS: [usize; MAX_TYPED_TILES] = [D0, D1, D2, D3, D4, D5, D6, D7];
}

/// The tiles of a static layout type, read in `const` contexts.
pub trait TileSet {
    /// The number of tiles.
    const COUNT: usize;
    /// Each tile's dims (`0` for `*`).
    const TILES: [[usize; MAX_TYPED_TILES]; MAX_TYPED_TILES];
    /// Each tile's rank.
    const RANKS: [usize; MAX_TYPED_TILES];
}

impl<T0, T1, T2, T3, T4, T5, T6, T7> TileSet for Tiles<T0, T1, T2, T3, T4, T5, T6, T7>
where
    T0: TileSlot,
    T1: TileSlot,
    T2: TileSlot,
    T3: TileSlot,
    T4: TileSlot,
    T5: TileSlot,
    T6: TileSlot,
    T7: TileSlot,
{
    const COUNT: usize = {
        let present = [
            T0::PRESENT,
            T1::PRESENT,
            T2::PRESENT,
            T3::PRESENT,
            T4::PRESENT,
            T5::PRESENT,
            T6::PRESENT,
            T7::PRESENT,
        ];
        let mut n = 0;
        while n < MAX_TYPED_TILES && present[n] {
            n += 1;
        }
        n
    };
    const TILES: [[usize; MAX_TYPED_TILES]; MAX_TYPED_TILES] = [
        T0::DIMS,
        T1::DIMS,
        T2::DIMS,
        T3::DIMS,
        T4::DIMS,
        T5::DIMS,
        T6::DIMS,
        T7::DIMS,
    ];
    const RANKS: [usize; MAX_TYPED_TILES] = [
        T0::RANK,
        T1::RANK,
        T2::RANK,
        T3::RANK,
        T4::RANK,
        T5::RANK,
        T6::RANK,
        T7::RANK,
    ];
}

/// The split configs `SC(..)(..)` of a layout type, up to 8 [`Split`]s. Macro support, not
/// API.
///
/// ```
/// use xla_layout::typed::{SC, Split};
/// let _ = SC::<Split<0, 30>, Split<1, 40, 130>>::default();
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[allow(clippy::type_complexity)]
pub struct SC<S0 = Nil, S1 = Nil, S2 = Nil, S3 = Nil, S4 = Nil, S5 = Nil, S6 = Nil, S7 = Nil>(
    PhantomData<fn() -> (S0, S1, S2, S3, S4, S5, S6, S7)>,
);

/// The attributes of a static layout type past its tiles, as `L`, `E`, `S` and `M` of the
/// layout text (`L(1)`, `E(0)`, `S(0)`, `M(0)` when not written), the legacy padding value
/// code, the legacy [`Padded`] dims and the split configs [`SC`]. Macro support, not API.
///
/// ```
/// use xla_layout::typed::Attrs;
/// type TailAlignedPacked = Attrs<64, 4>; // L(64)E(4)
/// let _ = TailAlignedPacked::default();
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Attrs<
    const L: usize = 1,
    const E: usize = 0,
    const S: usize = 0,
    const M: usize = 0,
    const PADDING: u8 = 0,
    P = Padded,
    Splits = SC,
>(PhantomData<fn() -> (P, Splits)>);

/// The attributes of a static layout type, read in `const` contexts.
pub trait AttrSet {
    /// `L(n)`.
    const L: usize;
    /// `E(n)`, 0 for the element type's width.
    const E: usize;
    /// `S(n)`.
    const S: usize;
    /// `M(n)`.
    const M: usize;
    /// The legacy padding value code.
    const PADDING: u8;
    /// Legacy padded dims.
    type Padded: List;
    /// The split configs, each as its dimension, the count of its indices, its indices.
    const SPLITS: [usize; LIST_CAPACITY];
    /// How many entries of [`SPLITS`](AttrSet::SPLITS) are used.
    const SPLITS_LEN: usize;
}

const fn append(
    mut out: [usize; LIST_CAPACITY],
    mut at: usize,
    split: &[usize],
) -> ([usize; LIST_CAPACITY], usize) {
    if split.is_empty() {
        return (out, at);
    }
    assert!(
        at + split.len() < LIST_CAPACITY,
        "split configs too long for a layout type"
    );
    out[at] = split[0];
    out[at + 1] = split.len() - 1;
    at += 2;
    let mut i = 1;
    while i < split.len() {
        out[at] = split[i];
        at += 1;
        i += 1;
    }
    (out, at)
}

const fn flatten(splits: [&[usize]; 8]) -> ([usize; LIST_CAPACITY], usize) {
    let mut out = [0; LIST_CAPACITY];
    let mut at = 0;
    let mut i = 0;
    while i < 8 {
        (out, at) = append(out, at, splits[i]);
        i += 1;
    }
    (out, at)
}

impl<
    const L: usize,
    const E: usize,
    const S: usize,
    const M: usize,
    const PADDING: u8,
    P: List,
    S0: List,
    S1: List,
    S2: List,
    S3: List,
    S4: List,
    S5: List,
    S6: List,
    S7: List,
> AttrSet for Attrs<L, E, S, M, PADDING, P, SC<S0, S1, S2, S3, S4, S5, S6, S7>>
{
    const L: usize = L;
    const E: usize = E;
    const S: usize = S;
    const M: usize = M;
    const PADDING: u8 = PADDING;
    type Padded = P;
    const SPLITS: [usize; LIST_CAPACITY] = flatten([
        S0::SLICE,
        S1::SLICE,
        S2::SLICE,
        S3::SLICE,
        S4::SLICE,
        S5::SLICE,
        S6::SLICE,
        S7::SLICE,
    ])
    .0;
    const SPLITS_LEN: usize = flatten([
        S0::SLICE,
        S1::SLICE,
        S2::SLICE,
        S3::SLICE,
        S4::SLICE,
        S5::SLICE,
        S6::SLICE,
        S7::SLICE,
    ])
    .1;
}

/// The bitcast signature of a layout type that is only bitcast-compatible with itself. Macro
/// support, not API.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Same;

/// The bitcast signature, as a type, of a layout type `Of` whose signature argument is `Self`.
pub trait Signature<Of> {
    /// The type two layouts must share to be bitcast-compatible.
    type Sig;
}

impl<Of> Signature<Of> for Same {
    type Sig = Of;
}

impl<
    Of,
    const D0: usize,
    const D1: usize,
    const D2: usize,
    const D3: usize,
    const D4: usize,
    const D5: usize,
    const D6: usize,
    const D7: usize,
    const D8: usize,
    const D9: usize,
    const D10: usize,
    const D11: usize,
    const D12: usize,
    const D13: usize,
    const D14: usize,
    const D15: usize,
    const D16: usize,
    const D17: usize,
    const D18: usize,
    const D19: usize,
    const D20: usize,
    const D21: usize,
    const D22: usize,
    const D23: usize,
    const D24: usize,
    const D25: usize,
    const D26: usize,
    const D27: usize,
    const D28: usize,
    const D29: usize,
    const D30: usize,
    const D31: usize,
    More,
> Signature<Of>
    for Bitcast<
        D0,
        D1,
        D2,
        D3,
        D4,
        D5,
        D6,
        D7,
        D8,
        D9,
        D10,
        D11,
        D12,
        D13,
        D14,
        D15,
        D16,
        D17,
        D18,
        D19,
        D20,
        D21,
        D22,
        D23,
        D24,
        D25,
        D26,
        D27,
        D28,
        D29,
        D30,
        D31,
        More,
    >
{
    type Sig = Self;
}
