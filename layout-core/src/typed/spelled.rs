//! How `layout!` writes a layout type in the user's code: through type aliases whose arguments
//! are constants, but for a handful of types. Written out, an `Array` of a tiled layout nests
//! enough types that `clippy::type_complexity` fires on `fn f(t: &Tensor<layout!(..)>)`; the
//! lint counts types, not constants, so through these aliases it counts four (the element
//! type, the bitcast signature, the storage kind and the split configs), under its limit at
//! every rank and tiling `layout!` accepts. rustc prints the type an alias stands for, so
//! errors still print the `Array` as the layout reads, and an alias is transparent, so
//! `impl Trait for layout!(..)` works as for the `Array` itself.
//!
//! - [`Spelled0`]..[`Spelled8`] (the number is the number of tiles) write a static layout of
//!   rank up to 8: the rank, 8 dims, 8 `minor_to_major` entries, 8 dims per tile, `L`, `E`,
//!   `S`, `M`, the bitcast signature and the storage kind; then, defaulted, the legacy padding
//!   and the split configs. [`WideSpelled0`]..[`WideSpelled8`] write ranks 9 to 16, with 16 of
//!   each list (their second 8 in the list's `More` argument).
//! - [`DynSpelled0`]..[`DynSpelled8`] (direct storage) and [`DynPacked0`]..[`DynPacked8`]
//!   (packed), and their `Wide` forms for ranks 9 to 16, write a dynamic layout the same way,
//!   each dimension as two constants, its kind and its size ([`dim_code`]), which [`DynDim`]
//!   turns into `AnySize`, `AtMost<N>` or `Fixed<N>`.
//! - A bitcast signature past 32 entries is written through [`LongBitcast`], split configs
//!   through [`Splits`] (or, for a config of more than 15 indices, an `SC<..>` of
//!   [`LongSplit`]s); a list that may or may not go on past 8 entries is continued through
//!   [`Tail`], chosen by a `bool` constant.
//!
//! The one kind of layout the lint still counts past its limit in `Tensor<layout!(..)>` has
//! three or more split configs, one of them with more than 15 indices: its `SC<..>` costs a
//! type per config.
//!
//! A family per rank class keeps the static aliases of rank up to 8, the common layouts, free
//! of type-level choices, which rustc resolves at each use: they cost no more to compile than
//! the types they stand for.
//!
//! ```
//! use xla_layout::{layout, typed::StaticLayout};
//! type Spelled = layout!(f32[2,3]{1,0:T(2,2)S(1)});
//! assert_eq!(<Spelled as StaticLayout>::SIZE_BYTES, 2 * 4 * 4);
//! ```

use core::marker::PhantomData;

use super::dyn_dims::DimKind;
use super::{
    AnySize, Array, AtMost, Attrs, Bitcast, Dims, Direct, DynArray, DynDims, Fixed, MinorToMajor,
    Nil, NoDim, Packed, Padded, SC, Split, Tile, Tiles,
};

/// A choice between two types by a constant: [`Select::Out`] is `T` if `C`, else `F`. Macro
/// support, not API.
///
/// ```
/// use xla_layout::typed::{If, Select};
/// let _: <If<true, u8, u16> as Select>::Out = 1u8;
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct If<const C: bool, T, F>(PhantomData<fn() -> (T, F)>);

/// The type an [`If`] picks. Macro support, not API.
///
/// ```
/// use xla_layout::typed::{If, Select};
/// let _: <If<false, u8, u16> as Select>::Out = 1u16;
/// ```
pub trait Select {
    /// The picked type.
    type Out;
}

impl<T, F> Select for If<true, T, F> {
    type Out = T;
}

impl<T, F> Select for If<false, T, F> {
    type Out = F;
}

/// `T` if `C`, else [`Nil`]: the `More` argument of a list that may go on past its slots.
/// Macro support, not API.
///
/// ```
/// use xla_layout::typed::{Dims, Tail};
/// let _: Dims<1, 2, 3, 4, 5, 6, 7, 8, Tail<true, Dims<9>>> = Dims::default();
/// type Eight = Dims<1, 2, 3, 4, 5, 6, 7, 8>;
/// let _: Dims<1, 2, 3, 4, 5, 6, 7, 8, Tail<false, Dims<9>>> = Eight::default();
/// ```
pub type Tail<const C: bool, T> = <If<C, T, Nil> as Select>::Out;

/// One dimension of a dynamic layout as its kind code ([`dim_code`]) and its size. Macro
/// support, not API.
///
/// ```
/// use xla_layout::typed::{AtMost, DimCode, DimOf};
/// let _: <DimCode<2, 4096> as DimOf>::Dim = AtMost::<4096>;
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DimCode<const K: u8, const N: usize>;

/// The dimension type a [`DimCode`] stands for. Macro support, not API.
///
/// ```
/// use xla_layout::typed::{AnySize, DimCode, DimOf};
/// let _: <DimCode<1, 0> as DimOf>::Dim = AnySize;
/// ```
pub trait DimOf {
    /// [`AnySize`], [`AtMost`], [`Fixed`] or [`NoDim`].
    type Dim;
}

impl<const N: usize> DimOf for DimCode<0, N> {
    type Dim = NoDim;
}

impl<const N: usize> DimOf for DimCode<1, N> {
    type Dim = AnySize;
}

impl<const N: usize> DimOf for DimCode<2, N> {
    type Dim = AtMost<N>;
}

impl<const N: usize> DimOf for DimCode<3, N> {
    type Dim = Fixed<N>;
}

/// The code of a dimension kind in [`DimCode`]: 0 for none, 1 for `?`, 2 for `<=N`, 3 for a
/// static size. Macro support, not API.
///
/// ```
/// use xla_layout::typed::{DimKind, DynDim, Fixed, dim_code};
/// assert_eq!(dim_code(DimKind::Static), 3);
/// let _: DynDim<3, 1280> = Fixed::<1280>;
/// ```
pub const fn dim_code(kind: DimKind) -> u8 {
    match kind {
        DimKind::Absent => 0,
        DimKind::Unbounded => 1,
        DimKind::Bounded => 2,
        DimKind::Static => 3,
    }
}

/// A dimension of a dynamic layout from its kind code and size: `DynDim<1, 0>` is
/// [`AnySize`], `DynDim<2, N>` is `AtMost<N>`, `DynDim<3, N>` is `Fixed<N>`, `DynDim<0, 0>`
/// is [`NoDim`]. Macro support, not API.
///
/// ```
/// use xla_layout::typed::{AnySize, DynDim, DynDims, Fixed};
/// let _: DynDims<DynDim<1, 0>, DynDim<3, 1280>> = DynDims::<AnySize, Fixed<1280>>::default();
/// ```
pub type DynDim<const K: u8, const N: usize> = <DimCode<K, N> as DimOf>::Dim;

/// Generates one family of aliases, one per number of tiles (`$name8` down to `$name0`), from
/// its shape (its docs, the parameters before and after the tiles' constants, the type and its
/// arguments before and after the tiles) and the names of the tiles' constants: the first alias
/// takes all the groups of names, each next one a group less.
macro_rules! family {
    (@next $shape:tt [$($names:tt)*] $first:tt $($rest:tt)*) => {
        family!($shape [$($names)*] $($rest)*);
    };
    (@next $shape:tt []) => {};
    (
        @alias {
            $lead:literal $tail:literal
            [$($before:tt)*] [$($after:tt)*] $ty:ident [$($head:tt)*] [$($rest:tt)*]
        }
        $name:ident $count:literal $([$($t:ident)*])*
    ) => {
        #[doc = concat!($lead, $count, $tail)]
        pub type $name<$($before)* $($(const $t: usize,)*)* $($after)*> =
            $ty<$($head)* Tiles<$(Tile<$($t),*>),*>, $($rest)*>;
    };
    ($shape:tt [$name:ident $count:literal $($names:tt)*] $($group:tt)*) => {
        family!(@alias $shape $name $count $($group)*);
        family!(@next $shape [$($names)*] $($group)*);
    };
}

/// Invokes `family!` with the names of the tiles' constants: 8 groups of 8.
macro_rules! with_tile_names {
    ($($shape:tt)*) => {
        family!(
            $($shape)*
            [TA0 TA1 TA2 TA3 TA4 TA5 TA6 TA7] [TB0 TB1 TB2 TB3 TB4 TB5 TB6 TB7]
            [TC0 TC1 TC2 TC3 TC4 TC5 TC6 TC7] [TD0 TD1 TD2 TD3 TD4 TD5 TD6 TD7]
            [TE0 TE1 TE2 TE3 TE4 TE5 TE6 TE7] [TF0 TF1 TF2 TF3 TF4 TF5 TF6 TF7]
            [TG0 TG1 TG2 TG3 TG4 TG5 TG6 TG7] [TH0 TH1 TH2 TH3 TH4 TH5 TH6 TH7]
        );
    };
}

with_tile_names!(
    {
        "A static layout type of rank up to 8 with " " tiles, as constants: the rank, 8 dims \
         and 8 `minor_to_major` entries ([`NONE`](super::NONE) for none), the tiles' 8 dims \
         each (`NONE` for none, `0` for `*`), `L`, `E`, `S`, `M`; the bitcast signature `G` and \
         the storage kind `S`; then, defaulted, the legacy padding value code, 8 padded dims \
         and the split configs. Macro support, not API."
        [
            E, const RANK: usize,
            const D0: usize, const D1: usize, const D2: usize, const D3: usize,
            const D4: usize, const D5: usize, const D6: usize, const D7: usize,
            const M0: usize, const M1: usize, const M2: usize, const M3: usize,
            const M4: usize, const M5: usize, const M6: usize, const M7: usize,
        ]
        [
            const L: usize, const EB: usize, const SP: usize, const PM: usize, G, S,
            const PAD: u8 = 0,
            const P0: usize = 4294967295, const P1: usize = 4294967295,
            const P2: usize = 4294967295, const P3: usize = 4294967295,
            const P4: usize = 4294967295, const P5: usize = 4294967295,
            const P6: usize = 4294967295, const P7: usize = 4294967295,
            Splits = SC,
        ]
        Array
        [
            E,
            RANK,
            Dims<D0, D1, D2, D3, D4, D5, D6, D7>,
            MinorToMajor<M0, M1, M2, M3, M4, M5, M6, M7>,
        ]
        [G, Attrs<L, EB, SP, PM, PAD, Padded<P0, P1, P2, P3, P4, P5, P6, P7>, Splits>, S]
    }
    [
        Spelled8 8 Spelled7 7 Spelled6 6 Spelled5 5 Spelled4 4 Spelled3 3 Spelled2 2 Spelled1 1
        Spelled0 0
    ]
);

with_tile_names!(
    {
        "A static layout type of rank 9 to 16 with " " tiles, as [`Spelled0`] with 16 dims, 16 \
         `minor_to_major` entries and, after the padding value code, whether more than 8 dims \
         are padded and 16 padded dims. Macro support, not API."
        [
            E, const RANK: usize,
            const D0: usize, const D1: usize, const D2: usize, const D3: usize,
            const D4: usize, const D5: usize, const D6: usize, const D7: usize,
            const D8: usize, const D9: usize, const D10: usize, const D11: usize,
            const D12: usize, const D13: usize, const D14: usize, const D15: usize,
            const M0: usize, const M1: usize, const M2: usize, const M3: usize,
            const M4: usize, const M5: usize, const M6: usize, const M7: usize,
            const M8: usize, const M9: usize, const M10: usize, const M11: usize,
            const M12: usize, const M13: usize, const M14: usize, const M15: usize,
        ]
        [
            const L: usize, const EB: usize, const SP: usize, const PM: usize, G, S,
            const PAD: u8 = 0, const PW: bool = false,
            const P0: usize = 4294967295, const P1: usize = 4294967295,
            const P2: usize = 4294967295, const P3: usize = 4294967295,
            const P4: usize = 4294967295, const P5: usize = 4294967295,
            const P6: usize = 4294967295, const P7: usize = 4294967295,
            const P8: usize = 4294967295, const P9: usize = 4294967295,
            const P10: usize = 4294967295, const P11: usize = 4294967295,
            const P12: usize = 4294967295, const P13: usize = 4294967295,
            const P14: usize = 4294967295, const P15: usize = 4294967295,
            Splits = SC,
        ]
        Array
        [
            E,
            RANK,
            Dims<D0, D1, D2, D3, D4, D5, D6, D7, Dims<D8, D9, D10, D11, D12, D13, D14, D15>>,
            MinorToMajor<
                M0, M1, M2, M3, M4, M5, M6, M7,
                MinorToMajor<M8, M9, M10, M11, M12, M13, M14, M15>,
            >,
        ]
        [
            G,
            Attrs<
                L, EB, SP, PM, PAD,
                Padded<
                    P0, P1, P2, P3, P4, P5, P6, P7,
                    Tail<PW, Padded<P8, P9, P10, P11, P12, P13, P14, P15>>,
                >,
                Splits,
            >,
            S,
        ]
    }
    [
        WideSpelled8 8 WideSpelled7 7 WideSpelled6 6 WideSpelled5 5 WideSpelled4 4
        WideSpelled3 3 WideSpelled2 2 WideSpelled1 1 WideSpelled0 0
    ]
);

/// Generates the two dynamic families of a storage kind: `$narrow` (rank up to 8) and `$wide`
/// (ranks 9 to 16), each `..8` down to `..0` by number of tiles.
macro_rules! dyn_families {
    ($storage:ident [$($narrow:tt)*] [$($wide:tt)*]) => {
        with_tile_names!(
            {
                "A dynamic layout type of rank up to 8 with " " tiles and the storage kind of \
                 its name: the element type, then as constants the rank, 8 `minor_to_major` \
                 entries ([`NONE`](super::NONE) for none), the tiles' 8 dims each (`NONE` for \
                 none, `0` for `*`), `L`, `E`, `S`, `M`; the split configs; then each dimension \
                 as its kind code and size (see [`DynDim`]). Macro support, not API."
                [
                    E, const RANK: usize,
                    const M0: usize, const M1: usize, const M2: usize, const M3: usize,
                    const M4: usize, const M5: usize, const M6: usize, const M7: usize,
                ]
                [
                    const L: usize, const EB: usize, const SP: usize, const PM: usize, Splits,
                    const K0: u8 = 0, const N0: usize = 0, const K1: u8 = 0, const N1: usize = 0,
                    const K2: u8 = 0, const N2: usize = 0, const K3: u8 = 0, const N3: usize = 0,
                    const K4: u8 = 0, const N4: usize = 0, const K5: u8 = 0, const N5: usize = 0,
                    const K6: u8 = 0, const N6: usize = 0, const K7: u8 = 0, const N7: usize = 0,
                ]
                DynArray
                [
                    E,
                    RANK,
                    DynDims<
                        DynDim<K0, N0>, DynDim<K1, N1>, DynDim<K2, N2>, DynDim<K3, N3>,
                        DynDim<K4, N4>, DynDim<K5, N5>, DynDim<K6, N6>, DynDim<K7, N7>,
                    >,
                    MinorToMajor<M0, M1, M2, M3, M4, M5, M6, M7>,
                ]
                [Attrs<L, EB, SP, PM, 0, Padded, Splits>, $storage]
            }
            [$($narrow)*]
        );

        with_tile_names!(
            {
                "A dynamic layout type of rank 9 to 16 with " " tiles and the storage kind of \
                 its name, as the alias of rank up to 8 of that storage with 16 \
                 `minor_to_major` entries and 16 dimensions. Macro support, not API."
                [
                    E, const RANK: usize,
                    const M0: usize, const M1: usize, const M2: usize, const M3: usize,
                    const M4: usize, const M5: usize, const M6: usize, const M7: usize,
                    const M8: usize, const M9: usize, const M10: usize, const M11: usize,
                    const M12: usize, const M13: usize, const M14: usize, const M15: usize,
                ]
                [
                    const L: usize, const EB: usize, const SP: usize, const PM: usize, Splits,
                    const K0: u8 = 0, const N0: usize = 0, const K1: u8 = 0, const N1: usize = 0,
                    const K2: u8 = 0, const N2: usize = 0, const K3: u8 = 0, const N3: usize = 0,
                    const K4: u8 = 0, const N4: usize = 0, const K5: u8 = 0, const N5: usize = 0,
                    const K6: u8 = 0, const N6: usize = 0, const K7: u8 = 0, const N7: usize = 0,
                    const K8: u8 = 0, const N8: usize = 0, const K9: u8 = 0, const N9: usize = 0,
                    const K10: u8 = 0, const N10: usize = 0,
                    const K11: u8 = 0, const N11: usize = 0,
                    const K12: u8 = 0, const N12: usize = 0,
                    const K13: u8 = 0, const N13: usize = 0,
                    const K14: u8 = 0, const N14: usize = 0,
                    const K15: u8 = 0, const N15: usize = 0,
                ]
                DynArray
                [
                    E,
                    RANK,
                    DynDims<
                        DynDim<K0, N0>, DynDim<K1, N1>, DynDim<K2, N2>, DynDim<K3, N3>,
                        DynDim<K4, N4>, DynDim<K5, N5>, DynDim<K6, N6>, DynDim<K7, N7>,
                        DynDims<
                            DynDim<K8, N8>, DynDim<K9, N9>, DynDim<K10, N10>, DynDim<K11, N11>,
                            DynDim<K12, N12>, DynDim<K13, N13>, DynDim<K14, N14>,
                            DynDim<K15, N15>,
                        >,
                    >,
                    MinorToMajor<
                        M0, M1, M2, M3, M4, M5, M6, M7,
                        MinorToMajor<M8, M9, M10, M11, M12, M13, M14, M15>,
                    >,
                ]
                [Attrs<L, EB, SP, PM, 0, Padded, Splits>, $storage]
            }
            [$($wide)*]
        );
    };
}

dyn_families!(
    Direct
    [
        DynSpelled8 8 DynSpelled7 7 DynSpelled6 6 DynSpelled5 5 DynSpelled4 4 DynSpelled3 3
        DynSpelled2 2 DynSpelled1 1 DynSpelled0 0
    ]
    [
        WideDynSpelled8 8 WideDynSpelled7 7 WideDynSpelled6 6 WideDynSpelled5 5
        WideDynSpelled4 4 WideDynSpelled3 3 WideDynSpelled2 2 WideDynSpelled1 1
        WideDynSpelled0 0
    ]
);

dyn_families!(
    Packed
    [
        DynPacked8 8 DynPacked7 7 DynPacked6 6 DynPacked5 5 DynPacked4 4 DynPacked3 3
        DynPacked2 2 DynPacked1 1 DynPacked0 0
    ]
    [
        WideDynPacked8 8 WideDynPacked7 7 WideDynPacked6 6 WideDynPacked5 5 WideDynPacked4 4
        WideDynPacked3 3 WideDynPacked2 2 WideDynPacked1 1 WideDynPacked0 0
    ]
);

/// Generates [`Splits`] from the names of each split config's constants.
macro_rules! splits_alias {
    ($($present:ident $more:ident [$($head:ident)*] [$($rest:ident)*])*) => {
        /// Up to 8 split configs `SC(..)`, as constants: for each, whether it is given,
        /// whether it has more than 7 indices, its dimension and up to 15 indices
        /// ([`NONE`](super::NONE) for none). Macro support, not API.
        ///
        /// ```
        /// use xla_layout::typed::{SC, Split, Splits};
        /// let _: Splits<true, false, 1, 40, 130> = SC::<Split<1, 40, 130>>::default();
        /// ```
        pub type Splits<
            $(
                const $present: bool = false,
                const $more: bool = false,
                $(const $head: usize = 4294967295,)*
                $(const $rest: usize = 4294967295,)*
            )*
        > = SC<$(Tail<$present, Split<$($head,)* Tail<$more, Split<$($rest),*>>>>),*>;
    };
}

splits_alias!(
    SAP SAM [SA0 SA1 SA2 SA3 SA4 SA5 SA6 SA7] [SA8 SA9 SA10 SA11 SA12 SA13 SA14 SA15]
    SBP SBM [SB0 SB1 SB2 SB3 SB4 SB5 SB6 SB7] [SB8 SB9 SB10 SB11 SB12 SB13 SB14 SB15]
    SCP SCM [SC0 SC1 SC2 SC3 SC4 SC5 SC6 SC7] [SC8 SC9 SC10 SC11 SC12 SC13 SC14 SC15]
    SDP SDM [SD0 SD1 SD2 SD3 SD4 SD5 SD6 SD7] [SD8 SD9 SD10 SD11 SD12 SD13 SD14 SD15]
    SEP SEM [SE0 SE1 SE2 SE3 SE4 SE5 SE6 SE7] [SE8 SE9 SE10 SE11 SE12 SE13 SE14 SE15]
    SFP SFM [SF0 SF1 SF2 SF3 SF4 SF5 SF6 SF7] [SF8 SF9 SF10 SF11 SF12 SF13 SF14 SF15]
    SGP SGM [SG0 SG1 SG2 SG3 SG4 SG5 SG6 SG7] [SG8 SG9 SG10 SG11 SG12 SG13 SG14 SG15]
    SHP SHM [SH0 SH1 SH2 SH3 SH4 SH5 SH6 SH7] [SH8 SH9 SH10 SH11 SH12 SH13 SH14 SH15]
);

/// A split config of up to 256 entries as nested `Split`s: `Split<..8 entries, Tail<F, ..>>`.
macro_rules! split_chain {
    ([$($c:ident)*]) => { Split<$($c),*> };
    ([$($c:ident)*] $f:ident $($rest:tt)+) => { Split<$($c,)* Tail<$f, split_chain!($($rest)+)>> };
}

/// Generates [`LongSplit`] from the names of its 32 chunks' constants and of the flags
/// between them.
macro_rules! long_split {
    ([$($c0:ident)*] $($f:ident [$($c:ident)*])*) => {
        /// A split config of more than 15 indices, as constants: whether it has more than 8,
        /// 16, .. 248 entries (31 flags), then its dimension and indices, up to 256 entries
        /// ([`NONE`](super::NONE) for none). Written by `layout!` in an `SC<..>` when a split
        /// config does not fit [`Splits`]. Macro support, not API.
        ///
        /// ```
        /// use xla_layout::typed::{List, LongSplit};
        /// type Long = LongSplit<true, true, false, false, false, false, false, false, false,
        ///     false, false, false, false, false, false, false, false, false, false, false,
        ///     false, false, false, false, false, false, false, false, false, false, false,
        ///     0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17>;
        /// assert_eq!(<Long as List>::LEN, 18);
        /// ```
        pub type LongSplit<
            $(const $f: bool,)*
            $(const $c0: usize = 4294967295,)*
            $($(const $c: usize = 4294967295,)*)*
        > = split_chain!([$($c0)*] $($f [$($c)*])*);
    };
}

long_split!(
    [AA0 AA1 AA2 AA3 AA4 AA5 AA6 AA7]
    F1 [AB0 AB1 AB2 AB3 AB4 AB5 AB6 AB7]
    F2 [AC0 AC1 AC2 AC3 AC4 AC5 AC6 AC7]
    F3 [AD0 AD1 AD2 AD3 AD4 AD5 AD6 AD7]
    F4 [AE0 AE1 AE2 AE3 AE4 AE5 AE6 AE7]
    F5 [AF0 AF1 AF2 AF3 AF4 AF5 AF6 AF7]
    F6 [AG0 AG1 AG2 AG3 AG4 AG5 AG6 AG7]
    F7 [AH0 AH1 AH2 AH3 AH4 AH5 AH6 AH7]
    F8 [AI0 AI1 AI2 AI3 AI4 AI5 AI6 AI7]
    F9 [AJ0 AJ1 AJ2 AJ3 AJ4 AJ5 AJ6 AJ7]
    F10 [AK0 AK1 AK2 AK3 AK4 AK5 AK6 AK7]
    F11 [AL0 AL1 AL2 AL3 AL4 AL5 AL6 AL7]
    F12 [AM0 AM1 AM2 AM3 AM4 AM5 AM6 AM7]
    F13 [AN0 AN1 AN2 AN3 AN4 AN5 AN6 AN7]
    F14 [AO0 AO1 AO2 AO3 AO4 AO5 AO6 AO7]
    F15 [AP0 AP1 AP2 AP3 AP4 AP5 AP6 AP7]
    F16 [AQ0 AQ1 AQ2 AQ3 AQ4 AQ5 AQ6 AQ7]
    F17 [AR0 AR1 AR2 AR3 AR4 AR5 AR6 AR7]
    F18 [AS0 AS1 AS2 AS3 AS4 AS5 AS6 AS7]
    F19 [AT0 AT1 AT2 AT3 AT4 AT5 AT6 AT7]
    F20 [AU0 AU1 AU2 AU3 AU4 AU5 AU6 AU7]
    F21 [AV0 AV1 AV2 AV3 AV4 AV5 AV6 AV7]
    F22 [AW0 AW1 AW2 AW3 AW4 AW5 AW6 AW7]
    F23 [AX0 AX1 AX2 AX3 AX4 AX5 AX6 AX7]
    F24 [AY0 AY1 AY2 AY3 AY4 AY5 AY6 AY7]
    F25 [AZ0 AZ1 AZ2 AZ3 AZ4 AZ5 AZ6 AZ7]
    F26 [BA0 BA1 BA2 BA3 BA4 BA5 BA6 BA7]
    F27 [BB0 BB1 BB2 BB3 BB4 BB5 BB6 BB7]
    F28 [BC0 BC1 BC2 BC3 BC4 BC5 BC6 BC7]
    F29 [BD0 BD1 BD2 BD3 BD4 BD5 BD6 BD7]
    F30 [BE0 BE1 BE2 BE3 BE4 BE5 BE6 BE7]
    F31 [BF0 BF1 BF2 BF3 BF4 BF5 BF6 BF7]
);

/// Generates [`LongBitcast`] from the names of its five chunks' constants.
macro_rules! long_bitcast {
    ([$($a:ident)*] [$($b:ident)*] [$($c:ident)*] [$($d:ident)*] [$($e:ident)*]) => {
        /// A bitcast signature of more than 32 entries, as constants: whether it has more
        /// than 64, 96 and 128 entries, then up to 160 entries ([`NONE`](super::NONE) for
        /// none). Macro support, not API.
        ///
        /// ```
        /// use xla_layout::typed::{Bitcast, List, LongBitcast};
        /// type Sig = LongBitcast<false, false, false, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
        ///     13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
        ///     33>;
        /// assert_eq!(<Sig as List>::LEN, 33);
        /// ```
        pub type LongBitcast<
            const F64: bool,
            const F96: bool,
            const F128: bool,
            $(const $a: usize = 4294967295,)*
            $(const $b: usize = 4294967295,)*
            $(const $c: usize = 4294967295,)*
            $(const $d: usize = 4294967295,)*
            $(const $e: usize = 4294967295,)*
        > = Bitcast<
            $($a,)*
            Bitcast<
                $($b,)*
                Tail<
                    F64, Bitcast<$($c,)* Tail<F96, Bitcast<$($d,)* Tail<F128, Bitcast<$($e),*>>>>>,
                >,
            >,
        >;
    };
}

long_bitcast!(
    [
        GA0 GA1 GA2 GA3 GA4 GA5 GA6 GA7 GA8 GA9 GA10 GA11 GA12 GA13 GA14 GA15 GA16 GA17 GA18 GA19
        GA20 GA21 GA22 GA23 GA24 GA25 GA26 GA27 GA28 GA29 GA30 GA31
    ]
    [
        GB0 GB1 GB2 GB3 GB4 GB5 GB6 GB7 GB8 GB9 GB10 GB11 GB12 GB13 GB14 GB15 GB16 GB17 GB18 GB19
        GB20 GB21 GB22 GB23 GB24 GB25 GB26 GB27 GB28 GB29 GB30 GB31
    ]
    [
        GC0 GC1 GC2 GC3 GC4 GC5 GC6 GC7 GC8 GC9 GC10 GC11 GC12 GC13 GC14 GC15 GC16 GC17 GC18 GC19
        GC20 GC21 GC22 GC23 GC24 GC25 GC26 GC27 GC28 GC29 GC30 GC31
    ]
    [
        GD0 GD1 GD2 GD3 GD4 GD5 GD6 GD7 GD8 GD9 GD10 GD11 GD12 GD13 GD14 GD15 GD16 GD17 GD18 GD19
        GD20 GD21 GD22 GD23 GD24 GD25 GD26 GD27 GD28 GD29 GD30 GD31
    ]
    [
        GE0 GE1 GE2 GE3 GE4 GE5 GE6 GE7 GE8 GE9 GE10 GE11 GE12 GE13 GE14 GE15 GE16 GE17 GE18 GE19
        GE20 GE21 GE22 GE23 GE24 GE25 GE26 GE27 GE28 GE29 GE30 GE31
    ]
);

// The longest bitcast signature, `(size, stride)` per expanded dimension and the element
// count, fits a `LongBitcast`.
const _: () = assert!(2 * crate::index::MAX_EXPANDED_RANK < 5 * super::BITCAST_SLOTS);
