//! How `layout!` writes a static layout type in the user's code: `SpelledN` (N the number of
//! tiles), a type alias whose arguments are constants but for the element type, the bitcast
//! signature and the storage kind. Written out, an `Array` of a tiled layout nests enough
//! types that `clippy::type_complexity` fires on `fn f(t: &Tensor<layout!(..)>)`; through the
//! alias the lint counts three types (it does not count constants), while rustc, which prints
//! the type an alias stands for, still prints the `Array` as the layout reads. An alias is
//! transparent, so `impl Trait for layout!(..)` works as for the `Array` itself. Layouts past
//! the aliases' capacity (rank above 8, more than 4 tiles or a tile of more than 4 dims, split
//! configs) are written as their `Array`.
//!
//! A dynamic layout type is written the same way through `DynSpelledN` (`DynPackedN` for
//! packed storage), whose dimensions are its last arguments, as types (`AnySize`, `AtMost<N>`,
//! `Fixed<N>`; the unused ones left out): the lint counts the element type and one type per
//! dimension, under its limit in `Tensor<layout!(..)>` for up to 6 dimensions.
//!
//! ```
//! use xla_layout::{layout, typed::StaticLayout};
//! type Spelled = layout!(f32[2,3]{1,0:T(2,2)S(1)});
//! assert_eq!(<Spelled as StaticLayout>::SIZE_BYTES, 2 * 4 * 4);
//! ```

use super::{
    Array, Attrs, Dims, Direct, DynArray, DynDims, MinorToMajor, NoDim, Packed, Padded, Tile, Tiles,
};

/// A static layout type without tiles, as constants: the rank, 8 dims, 8 `minor_to_major` entries,
/// `L`, `E`, `S`, `M`, the legacy
/// padding value code and 8 legacy padded dims; then the bitcast signature `G` and the
/// storage kind `S`. Macro support, not API.
pub type Spelled0<
    E,
    const RANK: usize,
    const D0: usize,
    const D1: usize,
    const D2: usize,
    const D3: usize,
    const D4: usize,
    const D5: usize,
    const D6: usize,
    const D7: usize,
    const M0: usize,
    const M1: usize,
    const M2: usize,
    const M3: usize,
    const M4: usize,
    const M5: usize,
    const M6: usize,
    const M7: usize,
    const L: usize,
    const EB: usize,
    const SP: usize,
    const PM: usize,
    const PAD: u8,
    const P0: usize,
    const P1: usize,
    const P2: usize,
    const P3: usize,
    const P4: usize,
    const P5: usize,
    const P6: usize,
    const P7: usize,
    G,
    S,
> = Array<
    E,
    RANK,
    Dims<D0, D1, D2, D3, D4, D5, D6, D7>,
    MinorToMajor<M0, M1, M2, M3, M4, M5, M6, M7>,
    Tiles,
    G,
    Attrs<L, EB, SP, PM, PAD, Padded<P0, P1, P2, P3, P4, P5, P6, P7>>,
    S,
>;

/// A static layout type with 1 tile, as constants: the rank, 8 dims, 8 `minor_to_major` entries,
/// 1 tile of 4 dims ([`NONE`](super::NONE) for none, `0` for `*`), `L`, `E`, `S`, `M`, the legacy
/// padding value code and 8 legacy padded dims; then the bitcast signature `G` and the
/// storage kind `S`. Macro support, not API.
pub type Spelled1<
    E,
    const RANK: usize,
    const D0: usize,
    const D1: usize,
    const D2: usize,
    const D3: usize,
    const D4: usize,
    const D5: usize,
    const D6: usize,
    const D7: usize,
    const M0: usize,
    const M1: usize,
    const M2: usize,
    const M3: usize,
    const M4: usize,
    const M5: usize,
    const M6: usize,
    const M7: usize,
    const T00: usize,
    const T01: usize,
    const T02: usize,
    const T03: usize,
    const L: usize,
    const EB: usize,
    const SP: usize,
    const PM: usize,
    const PAD: u8,
    const P0: usize,
    const P1: usize,
    const P2: usize,
    const P3: usize,
    const P4: usize,
    const P5: usize,
    const P6: usize,
    const P7: usize,
    G,
    S,
> = Array<
    E,
    RANK,
    Dims<D0, D1, D2, D3, D4, D5, D6, D7>,
    MinorToMajor<M0, M1, M2, M3, M4, M5, M6, M7>,
    Tiles<Tile<T00, T01, T02, T03>>,
    G,
    Attrs<L, EB, SP, PM, PAD, Padded<P0, P1, P2, P3, P4, P5, P6, P7>>,
    S,
>;

/// A static layout type with 2 tiles, as constants: the rank, 8 dims, 8 `minor_to_major` entries,
/// 2 tiles of 4 dims ([`NONE`](super::NONE) for none, `0` for `*`), `L`, `E`, `S`, `M`, the legacy
/// padding value code and 8 legacy padded dims; then the bitcast signature `G` and the
/// storage kind `S`. Macro support, not API.
pub type Spelled2<
    E,
    const RANK: usize,
    const D0: usize,
    const D1: usize,
    const D2: usize,
    const D3: usize,
    const D4: usize,
    const D5: usize,
    const D6: usize,
    const D7: usize,
    const M0: usize,
    const M1: usize,
    const M2: usize,
    const M3: usize,
    const M4: usize,
    const M5: usize,
    const M6: usize,
    const M7: usize,
    const T00: usize,
    const T01: usize,
    const T02: usize,
    const T03: usize,
    const T10: usize,
    const T11: usize,
    const T12: usize,
    const T13: usize,
    const L: usize,
    const EB: usize,
    const SP: usize,
    const PM: usize,
    const PAD: u8,
    const P0: usize,
    const P1: usize,
    const P2: usize,
    const P3: usize,
    const P4: usize,
    const P5: usize,
    const P6: usize,
    const P7: usize,
    G,
    S,
> = Array<
    E,
    RANK,
    Dims<D0, D1, D2, D3, D4, D5, D6, D7>,
    MinorToMajor<M0, M1, M2, M3, M4, M5, M6, M7>,
    Tiles<Tile<T00, T01, T02, T03>, Tile<T10, T11, T12, T13>>,
    G,
    Attrs<L, EB, SP, PM, PAD, Padded<P0, P1, P2, P3, P4, P5, P6, P7>>,
    S,
>;

/// A static layout type with 3 tiles, as constants: the rank, 8 dims, 8 `minor_to_major` entries,
/// 3 tiles of 4 dims ([`NONE`](super::NONE) for none, `0` for `*`), `L`, `E`, `S`, `M`, the legacy
/// padding value code and 8 legacy padded dims; then the bitcast signature `G` and the
/// storage kind `S`. Macro support, not API.
pub type Spelled3<
    E,
    const RANK: usize,
    const D0: usize,
    const D1: usize,
    const D2: usize,
    const D3: usize,
    const D4: usize,
    const D5: usize,
    const D6: usize,
    const D7: usize,
    const M0: usize,
    const M1: usize,
    const M2: usize,
    const M3: usize,
    const M4: usize,
    const M5: usize,
    const M6: usize,
    const M7: usize,
    const T00: usize,
    const T01: usize,
    const T02: usize,
    const T03: usize,
    const T10: usize,
    const T11: usize,
    const T12: usize,
    const T13: usize,
    const T20: usize,
    const T21: usize,
    const T22: usize,
    const T23: usize,
    const L: usize,
    const EB: usize,
    const SP: usize,
    const PM: usize,
    const PAD: u8,
    const P0: usize,
    const P1: usize,
    const P2: usize,
    const P3: usize,
    const P4: usize,
    const P5: usize,
    const P6: usize,
    const P7: usize,
    G,
    S,
> = Array<
    E,
    RANK,
    Dims<D0, D1, D2, D3, D4, D5, D6, D7>,
    MinorToMajor<M0, M1, M2, M3, M4, M5, M6, M7>,
    Tiles<Tile<T00, T01, T02, T03>, Tile<T10, T11, T12, T13>, Tile<T20, T21, T22, T23>>,
    G,
    Attrs<L, EB, SP, PM, PAD, Padded<P0, P1, P2, P3, P4, P5, P6, P7>>,
    S,
>;

/// A static layout type with 4 tiles, as constants: the rank, 8 dims, 8 `minor_to_major` entries,
/// 4 tiles of 4 dims ([`NONE`](super::NONE) for none, `0` for `*`), `L`, `E`, `S`, `M`, the legacy
/// padding value code and 8 legacy padded dims; then the bitcast signature `G` and the
/// storage kind `S`. Macro support, not API.
pub type Spelled4<
    E,
    const RANK: usize,
    const D0: usize,
    const D1: usize,
    const D2: usize,
    const D3: usize,
    const D4: usize,
    const D5: usize,
    const D6: usize,
    const D7: usize,
    const M0: usize,
    const M1: usize,
    const M2: usize,
    const M3: usize,
    const M4: usize,
    const M5: usize,
    const M6: usize,
    const M7: usize,
    const T00: usize,
    const T01: usize,
    const T02: usize,
    const T03: usize,
    const T10: usize,
    const T11: usize,
    const T12: usize,
    const T13: usize,
    const T20: usize,
    const T21: usize,
    const T22: usize,
    const T23: usize,
    const T30: usize,
    const T31: usize,
    const T32: usize,
    const T33: usize,
    const L: usize,
    const EB: usize,
    const SP: usize,
    const PM: usize,
    const PAD: u8,
    const P0: usize,
    const P1: usize,
    const P2: usize,
    const P3: usize,
    const P4: usize,
    const P5: usize,
    const P6: usize,
    const P7: usize,
    G,
    S,
> = Array<
    E,
    RANK,
    Dims<D0, D1, D2, D3, D4, D5, D6, D7>,
    MinorToMajor<M0, M1, M2, M3, M4, M5, M6, M7>,
    Tiles<
        Tile<T00, T01, T02, T03>,
        Tile<T10, T11, T12, T13>,
        Tile<T20, T21, T22, T23>,
        Tile<T30, T31, T32, T33>,
    >,
    G,
    Attrs<L, EB, SP, PM, PAD, Padded<P0, P1, P2, P3, P4, P5, P6, P7>>,
    S,
>;

/// The dynamic layout aliases: `DynSpelledN` (direct storage) and `DynPackedN` (packed) with
/// `N` tiles of 4 dims.
macro_rules! dyn_spelled {
    ($($direct:ident $packed:ident $count:literal [$($t:ident)*] [$($tile:ty),*];)*) => {$(
        dyn_spelled!(@alias $direct Direct "direct" $count [$($t)*] [$($tile),*]);
        dyn_spelled!(@alias $packed Packed "packed" $count [$($t)*] [$($tile),*]);
    )*};
    (@alias $name:ident $storage:ident $kind:literal $count:literal [$($t:ident)*]
        [$($tile:ty),*]) => {
        #[doc = concat!(
            "A dynamic layout type with ", $count, " tiles and ", $kind, " storage: the element ",
            "type, then as constants the rank, 8 `minor_to_major` entries, ", $count, " tiles ",
            "of 4 dims ([`NONE`](super::NONE) for none, `0` for `*`), `L`, `E`, `S`, `M`; then ",
            "the dimensions as types (`AnySize`, `AtMost<N>`, `Fixed<N>`). Macro support, not ",
            "API."
        )]
        pub type $name<
            E,
            const RANK: usize,
            const M0: usize,
            const M1: usize,
            const M2: usize,
            const M3: usize,
            const M4: usize,
            const M5: usize,
            const M6: usize,
            const M7: usize,
            $(const $t: usize,)*
            const L: usize,
            const EB: usize,
            const SP: usize,
            const PM: usize,
            D0 = NoDim,
            D1 = NoDim,
            D2 = NoDim,
            D3 = NoDim,
            D4 = NoDim,
            D5 = NoDim,
            D6 = NoDim,
            D7 = NoDim,
        > = DynArray<
            E,
            RANK,
            DynDims<D0, D1, D2, D3, D4, D5, D6, D7>,
            MinorToMajor<M0, M1, M2, M3, M4, M5, M6, M7>,
            Tiles<$($tile),*>,
            Attrs<L, EB, SP, PM>,
            $storage,
        >;
    };
}

dyn_spelled! {
    DynSpelled0 DynPacked0 0 [] [];
    DynSpelled1 DynPacked1 1 [T00 T01 T02 T03] [Tile<T00, T01, T02, T03>];
    DynSpelled2 DynPacked2 2 [T00 T01 T02 T03 T10 T11 T12 T13]
        [Tile<T00, T01, T02, T03>, Tile<T10, T11, T12, T13>];
    DynSpelled3 DynPacked3 3 [T00 T01 T02 T03 T10 T11 T12 T13 T20 T21 T22 T23]
        [Tile<T00, T01, T02, T03>, Tile<T10, T11, T12, T13>, Tile<T20, T21, T22, T23>];
    DynSpelled4 DynPacked4 4 [T00 T01 T02 T03 T10 T11 T12 T13 T20 T21 T22 T23 T30 T31 T32 T33]
        [
            Tile<T00, T01, T02, T03>,
            Tile<T10, T11, T12, T13>,
            Tile<T20, T21, T22, T23>,
            Tile<T30, T31, T32, T33>
        ];
}
