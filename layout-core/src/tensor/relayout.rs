//! Copying an array between two layouts, for layouts known at run time ([`CopyPlan`],
//! [`relayout`]) and for typed tensors ([`TensorBase::copy_from`](super::TensorBase::copy_from)),
//! through one engine.
//!
//! A [`CopyPlan`] is compiled once from the two layouts: both offsets written as sums over
//! common digits of the logical index (see the `digits` module), ordered into a loop nest
//! around a kernel (the `nest` and `kernels` modules): runs of slots consecutive on both
//! sides, rows interleaved into runs or split from them (`(2,1)`, `(4,1)`, `(8,1)`
//! sub-tiles), or transposes of blocks up to a cache line a side, all made of one 16-byte
//! shuffle at the slot's width (the `lanes` module), so that both sides read and write whole
//! lines. The engine is generic only over the storage width: slots of 1, 2, 4, 8 or 16 bytes,
//! and bit fields for packed storage (`E(4)` interleaves through bytes, packing and unpacking
//! runs a byte at a time). Pairs whose offsets are not linear in common digits (a sub-tile
//! that does not divide its tile) are copied element by element in logical order.
//!
//! Where the one-step copy would move less than a vector a side per kernel step (a sub-tile
//! and a transpose at once, or sub-tiles of two sizes, between packed fields or bytes), the
//! copy goes through an intermediate layout: one layout's tiling without its sub-tile, each
//! step a kernel of at least half a vector, through a scratch buffer allocated per copy that
//! holds a cache-sized slab of the intermediate at a time (or, for packed fields, the whole
//! intermediate where no loop walks it slab by slab). A transpose whose tiles overhang the
//! array (a dim that is not a multiple of its tile) goes as the interior of whole tiles, at
//! the speed of an array of whole tiles, then the edges; one whose blocks would be widened
//! by a loop of a size few powers of two divide (125 tile columns) goes in boxes along it,
//! each as wide as that widening allows.
//!
//! With the `rayon` feature, copies of 4 MiB or more between storage of whole bytes run on
//! rayon's thread pool, each thread on its own slice of the destination (packed storage stays
//! on one thread: two threads could write halves of one byte; so do two-step copies that go
//! a slab at a time).

use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use core::ops::Range;

use super::AlignedBuf;
use super::bits::{self, BitFields};
use super::digits::{
    Loop, clipped_dims, folded, interior, loops, packed_as_bytes, packed_as_fields, piece_low,
    split_low, top_steps, widened,
};
use super::nest::{Form, Kernel, Nest, Slice, Widening};
use super::schedule::Schedule;
use super::{LengthError, kernels, lanes, stream};
use crate::index::Plan;
use crate::model::{ArrayLayout, ArrayShape, Errors, PrimitiveType, Tile};

/// Which buffer of a copy.
///
/// ```
/// use xla_layout::tensor::Side;
/// assert_eq!(Side::Src.to_string(), "source");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The buffer copied from.
    Src,
    /// The buffer copied into.
    Dst,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Src => "source",
            Side::Dst => "destination",
        })
    }
}

/// Why a relayout cannot run.
///
/// ```
/// use xla_layout::parse_array;
/// use xla_layout::tensor::{CopyPlan, RelayoutError};
/// let e = CopyPlan::new(&parse_array("f32[2,3]").unwrap(), &parse_array("s32[3,2]").unwrap())
///     .unwrap_err();
/// assert!(matches!(e, RelayoutError::Mismatch { element_types: Some(_), dims: Some(_), .. }));
/// assert_eq!(
///     e.to_string(),
///     "`f32[2,3]{1,0}` and `s32[3,2]{1,0}` are not the same array: the element types differ \
///      (f32, s32) and the dims differ ([2, 3], [3, 2]); a relayout changes only the layout"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RelayoutError {
    /// The two shapes are not the same array: their element types or dims differ.
    Mismatch {
        /// The source shape, as text.
        src: String,
        /// The destination shape, as text.
        dst: String,
        /// The element types (source, destination) when they differ.
        element_types: Option<[PrimitiveType; 2]>,
        /// The dims' extents (source, destination; `None` for `?`) when they differ.
        dims: Option<[Vec<Option<i64>>; 2]>,
    },
    /// A layout has no fixed offsets (an unbounded `?` dim) or is invalid.
    Layout {
        /// Which shape.
        side: Side,
        /// What is wrong with it.
        errors: Errors,
    },
    /// A buffer's length is not the byte size of its layout (each side that is wrong).
    Length {
        /// The source buffer's, if wrong.
        src: Option<LengthError>,
        /// The destination buffer's, if wrong.
        dst: Option<LengthError>,
    },
}

/// Extents as `[2, ?, 3]`.
struct DimList<'a>(&'a [Option<i64>]);

impl fmt::Display for DimList<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (k, d) in self.0.iter().enumerate() {
            if k > 0 {
                f.write_str(", ")?;
            }
            match d {
                Some(n) => write!(f, "{n}")?,
                None => f.write_str("?")?,
            }
        }
        f.write_str("]")
    }
}

impl fmt::Display for RelayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RelayoutError::Mismatch {
                src,
                dst,
                element_types,
                dims,
            } => {
                write!(f, "`{src}` and `{dst}` are not the same array: ")?;
                if let Some([s, d]) = element_types {
                    write!(f, "the element types differ ({}, {})", s.name(), d.name())?;
                    if dims.is_some() {
                        f.write_str(" and ")?;
                    }
                }
                if let Some([s, d]) = dims {
                    write!(f, "the dims differ ({}, {})", DimList(s), DimList(d))?;
                }
                f.write_str("; a relayout changes only the layout")
            }
            RelayoutError::Layout { side, errors } => {
                write!(f, "the {side} layout has no fixed offsets: {errors}")
            }
            RelayoutError::Length { src, dst } => {
                let both = [(Side::Src, src), (Side::Dst, dst)];
                let wrong = both
                    .iter()
                    .filter_map(|(side, e)| Some((side, e.as_ref()?)));
                for (k, (side, e)) in wrong.enumerate() {
                    if k > 0 {
                        f.write_str("; ")?;
                    }
                    write!(
                        f,
                        "the {side} buffer has {} bytes, but its layout needs {}",
                        e.found, e.expected
                    )?;
                }
                Ok(())
            }
        }
    }
}

impl core::error::Error for RelayoutError {}

/// Storage of one side: bits per element, bytes before the data (`M(n)`), total bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Storage {
    bits: usize,
    prefix: usize,
    bytes: usize,
}

impl Storage {
    fn of(plan: &Plan) -> Storage {
        Storage {
            bits: plan.element_bits(),
            prefix: plan.prefix_bytes(),
            bytes: plan.size_bytes(),
        }
    }
}

#[derive(Clone, Debug)]
enum How {
    /// No elements.
    Nothing,
    /// Every element at the same offset in storage of the same width: one copy of the data
    /// bytes (padding slots included).
    Bitcast { bytes: usize },
    /// Slots of `width` whole bytes on both sides.
    Words { nest: Nest, width: usize },
    /// Bit fields (packed, or widths that differ).
    Bits { nest: Nest, fields: BitFields },
    /// Element by element in logical order: the offsets are not linear in common digits.
    Elements(Box<Elements>),
    /// In two steps through an intermediate layout (see [`Through`]).
    Through(Box<Through>),
    /// The interior apart from the edges where tiles overhang the array, or in boxes (see
    /// [`Peeled`]).
    Peeled(Box<Peeled>),
}

impl How {
    /// The loop nest of a copy of slots or fields, and a slot's bits on each side
    /// (destination, source).
    fn nest(&self) -> Option<(&Nest, (usize, usize))> {
        match self {
            How::Words { nest, width } => Some((nest, (8 * width, 8 * width))),
            How::Bits { nest, fields } => Some((nest, (fields.dst_bits, fields.src_bits))),
            _ => None,
        }
    }

    /// Starts the copy's fields `bits` (destination, source) into their buffers' first bytes:
    /// `None` where they do not start on bytes and the copy moves whole bytes.
    fn start_within(&mut self, bits: (usize, usize)) -> Option<()> {
        match self {
            How::Bits { fields, .. } => {
                fields.dst_start += bits.0;
                fields.src_start += bits.1;
                Some(())
            }
            _ => (bits == (0, 0)).then_some(()),
        }
    }

    /// Whether the destination is written by a block kernel of bit fields (a transpose, or
    /// rows interleaved or split), whose non-temporal stores write the lines of the
    /// destination's rows.
    fn writes_field_blocks(&self) -> bool {
        match self {
            How::Through(t) => t.second.how.writes_field_blocks(),
            How::Peeled(p) => p.interior.how.writes_field_blocks(),
            How::Bits { nest, .. } => matches!(nest.kernel, Kernel::Block { .. }),
            _ => false,
        }
    }

    /// Whether a block kernel of packed fields has blocks that do not start on bytes, which
    /// its kernels take a field at a time: rows that do not (a zip's source rows, an
    /// unzip's destination rows, both sides' of a transpose), or an outer loop that steps
    /// either side by a part of a byte (source rows of an odd extent of `E(4)` fields); not
    /// where 2 or 4 rows of `E(4)` fields are zipped in whole vectors, whatever half of a
    /// byte they start at.
    fn fields_off_bytes(&self) -> bool {
        let How::Bits { nest, fields } = self else {
            return false;
        };
        let Kernel::Block { a, b, form } = &nest.kernel else {
            return false;
        };
        let bytes = |slots: usize| (slots * fields.src_bits).is_multiple_of(8);
        let dst_starts = nest.outer.iter().all(|l| bytes(l.dst));
        let starts = dst_starts && nest.outer.iter().all(|l| bytes(l.src));
        let (rows, starts) = match form {
            // Zips of 2 or 4 rows of `E(4)` fields in whole vectors read rows that start half
            // a byte in (`bits::Half`). Measured (32 MiB, best of five, three alternating
            // runs, against the steps through tiles) s4[8191,8191] rows ->
            // `T(8,128)(2,1)E(4)` 2.1-2.2 -> 6.1-6.3 GB/s, `T(32,128)(4,1)E(4)` 3.4-3.5 ->
            // 4.6-4.7; `T(64,128)(8,1)E(4)` lost (3.7-3.8 -> 3.2) and goes through tiles.
            Form::Zip if fields.src_bits == 4 && a.size <= 4 && b.size.is_multiple_of(32) => {
                (true, dst_starts)
            }
            Form::Zip => (bytes(a.src), starts),
            Form::Unzip => (bytes(b.dst), starts),
            Form::Square | Form::Lanes { .. } => (bytes(a.src) && bytes(b.dst), starts),
        };
        fields.dst_bits == fields.src_bits && fields.src_bits < 8 && !(rows && starts)
    }

    /// Halves the sweep of the nest of a copy of slots or fields ([`Nest::halve_sweep`]):
    /// `false` where it has none to halve.
    fn halve_sweep(&mut self) -> bool {
        match self {
            How::Words { nest, .. } | How::Bits { nest, .. } => nest.halve_sweep(),
            _ => false,
        }
    }

    /// Moves the loop at `depth` of the nest of a copy of slots or fields outermost.
    fn reorder(&mut self, depth: usize) {
        if let How::Words { nest, .. } | How::Bits { nest, .. } = self {
            nest.outermost(depth);
        }
    }

    /// Whether a kernel step moves fewer than `bits` on either side (elements one at a time,
    /// runs of fields or slots, or rows interleaved from or split into rows, shorter than
    /// that), or transposes `4 × 4` blocks of bytes or fields within each of a block of
    /// `4 × 4` slots, not widened (`(4,1)` groups of bytes against
    /// `(4,1)` groups along the other dim: measured u8 `T(32,128)(4,1)` ->
    /// `{0,1:T(32,128)(4,1)}` 0.32 of memcpy in one step, 0.42-0.54 in two, through
    /// `{0,1:T(32,128)}`; `T(8,128)(4,1)`, whose blocks are widened to `16 × 4` slots, 0.81 in
    /// one step and 0.51 in two).
    fn narrow(&self, bits: usize) -> bool {
        let Some((nest, (_, slot))) = self.nest() else {
            return matches!(self, How::Elements(_));
        };
        let (src, dst) = nest.kernel.rows();
        let short = src.min(dst) * slot < bits;
        match (self, nest.kernel) {
            (
                How::Words { .. },
                Kernel::Block {
                    form: Form::Lanes { inner: 4.., .. },
                    ..
                },
            ) => short || src * dst <= 16,
            // Transposes of fields go a whole block at a time through bytes, however short
            // the block's rows.
            (
                How::Bits { .. },
                Kernel::Block {
                    form: Form::Lanes { .. },
                    ..
                },
            ) => false,
            _ => short,
        }
    }
}

/// A copy in two steps, through a scratch buffer in an intermediate layout: the source into
/// it (`first`), then it into the destination (`second`). `direct`, the one-step copy, runs
/// where the scratch cannot be allocated.
///
/// Where each step has a loop that alone moves the intermediate by whole slabs (see
/// [`Nest::dominant`]), the scratch holds one slab of about [`SLAB_BYTES`] at a time, filled
/// and emptied while it is in cache; else the whole intermediate. A whole scratch the size
/// of the array costs its page faults on every copy (64 MiB: 25-30 ms on the machine of
/// BENCHMARKS.md, five times a memcpy of it).
///
/// Measured (64 MiB, against memcpy of the same bytes): u8 `{1,0:T(8,128)(8,1)}` ->
/// `{0,1:T(32,128)(4,1)}` through `{0,1:T(32,128)}` 0.15 -> 0.31-0.44 in slabs (0.12 through
/// a whole intermediate), back 0.16 -> 0.47-0.63; u2 `{0,1:E(2)}` -> `{1,0:T(8,128)(2,1)E(2)}`
/// through `{1,0:T(8,128)E(2)}` 0.03 -> 0.4 GB/s (0.7-1.2 once `E(2)` transposes stopped
/// unpacking; memcpy 10-12).
#[derive(Clone, Debug)]
struct Through {
    first: CopyPlan,
    second: CopyPlan,
    slabs: Option<Slabs>,
    direct: CopyPlan,
    /// Whether `direct` runs where rayon's pool has more than one thread and the slabs
    /// cannot be shared out among them (see [`CopyPlan::through_lines`]).
    single: bool,
}

/// A transpose, or an interleave of bit fields, whose tiles overhang the array (a dim that is
/// not a multiple of its tile) in parts: the interior, every whole step of the top loops of the dims that overhang, as a
/// copy that never clips (its blocks widened and in panels like those of an array of whole
/// tiles), and for each such dim its edge, the steps of its top loop past the interior (the
/// dims before it cut to their interior, so that each slot is copied once), by a nest that
/// clips, whose blocks are not widened; there the dim's lowest loop is split where the edge
/// cuts it (`digits::split_low`), so that the edge's blocks are whole, not copied slot by
/// slot. Measured (16-64 MiB, medians of three to five alternating runs, against memcpy):
/// `f32[4000,4000]` `{0,1:T(8,128)}` -> rows 0.28 -> 0.91 (0.98 with the split edges), rows ->
/// `{0,1:T(8,128)}` 0.70 -> 0.90, `T(8,128)` -> `{0,1:T(8,128)}` 0.28 -> 0.81,
/// `bf16[32768,1000]` `T(8,128)(2,1)` -> `{0,1}` 0.17 -> 0.37 -> 0.61 (its edge, a tenth of the
/// array, had taken a third of the time), `u8[4000,4000]` rows -> `{0,1:T(8,128)}` 0.14 ->
/// 0.40, `u8[8000,8000]` 0.68 -> 0.77 with the split edges. Edges whose dim has one loop
/// below its top one go in pieces instead ([`Low::Piece`]), each a nest that does not clip,
/// whose blocks are widened as the interior's: measured (64 MiB, the bench's paired rounds,
/// two alternating runs) `bf16[32768,1000]` 0.77-0.82 -> 0.80-0.93, `u8[8000,8000]` 0.79-0.82 ->
/// 0.85-0.86, `f32[4000,4000]` 0.92-0.93 -> 0.94-0.98; for bit fields (a piece's fields may
/// start inside a byte), `s4[8191,8191]` `T(8,128)E(4)` -> `T(8,128)(2,1)E(4)` 0.11 -> 0.69
/// (its edge column had gone in blocks of one column, 2 fields). Copies
/// that are not transposes lost that way (f32 rows -> `T(8,128)` of `[3,1025,4093]` 1.09 ->
/// 0.66, bf16 rows -> `T(8,128)(2,1)` of `[7,1000,4000]` 0.71 -> 0.64: their clipped runs
/// cost little) and stay whole, but for interleaves of bit fields, whose blocks go one at a
/// time where a loop clips (`s4[50257,1536]` rows -> `T(8,128)(2,1)E(4)` 0.52 -> 0.75).
///
/// Where a block side shorter than a vector (a transposed tile's 8 rows of bytes or packed
/// fields) would be widened by a loop whose size few powers of two divide (125 tile columns),
/// the array goes in boxes along that loop ([`boxes`], [`Nest::widening`]), each peeled so:
/// blocks as wide as an array of 128 tile columns gets, not a tile's 8 rows (4 bytes of
/// `E(4)` fields). Measured hot (best of 100-300, GB/s; memcpy 45-50): `s4[1000,1000]`
/// `{0,1:T(8,128)E(4)}` -> rows 0.68 -> 6.7-7.0, `s4[1024,1000]` 0.27 -> 7.6-12 (as
/// `s4[1024,960]`, whose 120 tile columns divide by 8, 7.5-12), back 8.3-12; `s4[2000,2000]`
/// 0.74 -> 8.7, back 0.30 -> 8.1; `s4[4000,4000]` (blocks 4 tile columns wide before) 1.5 ->
/// 3.8-4.9; `u8[1000,1000]` 3.6 -> 7.8-8.2, back 3.1 -> 9.4; `u2[1024,1000]` `E(2)` (element
/// by element before: its transposes have vector blocks only) 0.05 -> 9.5, `u2[2000,2000]`
/// 0.66 -> 5.9.
#[derive(Clone, Debug)]
struct Peeled {
    interior: CopyPlan,
    /// Each edge's copy (or another box's part), the steps it runs, and the bytes
    /// (destination, source) its buffers start past the whole buffers' starts (a piece of an
    /// edge, see [`Low::Piece`], or a box).
    edges: Vec<Placed>,
}

/// How an edge of a [`Peeled`] copy cuts the lowest loop of its dim.
#[derive(Clone, Copy, Debug)]
enum Low {
    /// Split where the array's edge cuts it ([`split_low`]): blocks of the largest power of
    /// two of slots that divides the edge's extent.
    Split(usize),
    /// Its first `width` slots ([`piece_low`]), a power of two, `count` of them inside the
    /// array: an edge goes in pieces of the powers of two its extent is the sum of, each
    /// from its own offset, so that no loop clips and its blocks are as wide as they can be
    /// (`bf16[32768,1000]` `T(8,128)(2,1)` -> `{0,1}`: pieces of 64, 32 and 8 destination rows
    /// in blocks widened to 128 columns, not 13 blocks of 8 rows by 4). Bit fields'
    /// pieces narrower than [`FIELDS_PIECE`] go as one that clips (`count < width`).
    Piece {
        dim: usize,
        width: usize,
        count: usize,
    },
}

/// The narrowest piece of an edge of bit fields (see [`Low::Piece`]): narrower blocks go a
/// field at a time, where a block of 32 fields clipped goes whole through the block kernels
/// (`BitFields::zip_prefix`). Measured (32 MiB, best of five, two alternating runs against
/// the steps through tiles) `s4[8191,8191]` rows -> `T(8,128)(2,1)E(4)`, whose edge has 31
/// columns past pieces of 64 and 32: 1.5 times as fast with pieces of 16 to 1, 2.5-2.9 times
/// with one piece of 32 that clips.
const FIELDS_PIECE: usize = 32;

/// The widths of the pieces of dim `dim`'s edge and the slots of each inside the array (see
/// [`Low::Piece`]), the powers of two the edge's extent is the sum of, largest first, those
/// below `least` (at most half the lowest loop) as one piece of the next power of two that
/// clips; and the dim's top and lowest loops: where the dim has one loop below its top one,
/// a whole step of it.
type Pieces = (Vec<(usize, usize)>, Loop, Loop);

fn pieces(all: &[Loop], dst: &Plan, dim: usize, least: usize) -> Option<Pieces> {
    let top = all.iter().find(|l| l.dim == dim && l.top)?;
    let low = all.iter().find(|l| l.dim == dim && l.mult == 1 && !l.top)?;
    let rest = dst.dims()[dim] % top.mult;
    if low.size != top.mult || rest == 0 {
        return None;
    }
    // (Below half the loop: the clipped piece is narrower than it.)
    let least = least.min(low.size / 2).max(1);
    let (narrow, wide) = (rest % least, rest - rest % least);
    let mut widths: Vec<(usize, usize)> = (0..usize::BITS)
        .rev()
        .map(|b| wide & (1 << b))
        .filter(|&w| w > 0)
        .map(|w| (w, w))
        .collect();
    if narrow > 0 {
        widths.push((narrow.next_power_of_two(), narrow));
    }
    Some((widths, *top, *low))
}

/// The part of an array a one-step plan of a [`Peeled`] copy covers: the first `top.1` steps
/// of the top loop of dim `top.0` (a box of the array along that dim, run from the offsets of
/// the box's first step), the whole steps of the top loops of the dims `whole` (their
/// [`interior`]: each one of [`clipped_dims`]), and an edge's lowest loop cut as `low` says.
#[derive(Clone, Copy, Debug)]
struct Within<'a> {
    top: Option<(usize, usize)>,
    whole: &'a [usize],
    low: Option<Low>,
}

impl Within<'_> {
    /// The whole array.
    const ALL: Within<'static> = Within {
        top: None,
        whole: &[],
        low: None,
    };

    /// `loops` (of an array of `bounds`, [`loops`]) cut to this part, and `bounds` to its
    /// extents.
    fn cut(&self, loops: &mut Vec<Loop>, bounds: &mut [usize]) {
        if let Some((dim, steps)) = self.top {
            top_steps(loops, bounds, dim, steps);
        }
        for &dim in self.whole {
            interior(loops, bounds, dim);
        }
        match self.low {
            Some(Low::Split(dim)) => split_low(loops, bounds, dim),
            Some(Low::Piece { dim, width, count }) => piece_low(loops, bounds, dim, (width, count)),
            None => {}
        }
    }
}

/// A plan of a [`Peeled`] copy, the steps it runs and the bytes (destination, source) its
/// buffers start past the whole buffers' starts.
type Placed = (CopyPlan, Slice, (usize, usize));

/// The boxes along the loop `w.at` (the top loop of its dim, `w.at.size` steps) that a
/// [`Peeled`] copy goes in, each its steps and first step: the most steps that are a multiple
/// of `w.p` (in vector blocks as wide as in an array that `w.p` divides), then powers of two
/// of the rest, largest first (each in blocks as wide as it allows), until the next power of
/// two above what is left (at least `w.least`) would copy at most [`OVERLAP`] of the loop's
/// steps twice: that box ends at the loop's end, overlapping the box before (a slot copied
/// twice gets the same value twice).
fn boxes(w: Widening) -> Vec<(usize, usize)> {
    let size = w.at.size;
    let mut at = size - size % w.p;
    let mut out = alloc::vec![(at, 0)];
    while at < size {
        let rest = size - at;
        let last = rest.next_power_of_two().max(w.least).min(size);
        let width = if (last - rest) * OVERLAP <= size {
            last
        } else {
            1 << rest.ilog2()
        };
        let first = at.min(size - width);
        out.push((width, first));
        at = first + width;
    }
    out
}

/// The largest part of a loop's steps that [`boxes`] copies twice: `1 / OVERLAP`.
const OVERLAP: usize = 16;

impl Peeled {
    /// The parts of the copy between `src` and `dst` of `element_type`, where its loops clip
    /// in dims that have whole steps or a block side would be widened by a loop of a size no
    /// power of two divides far enough ([`Nest::widening`]; the array then goes in boxes
    /// along that loop, [`boxes`], each peeled), and its interior is a transpose or an
    /// interleave of bit fields; `None` otherwise, or where an edge's nest does not keep the
    /// clipped top loop whole among its outer loops (it may split its innermost loop: see
    /// `nest::sweep`), or a part starts inside a byte and moves whole bytes.
    fn of(src: &Plan, dst: &Plan, element_type: PrimitiveType) -> Option<Peeled> {
        let all = loops(dst, src)?;
        let dims = clipped_dims(&all, dst.dims());
        let whole = Within {
            whole: &dims,
            ..Within::ALL
        };
        let plain = CopyPlan::direct_within(src, dst, element_type, true, whole);
        // Where the interior has no block kernel (`E(2)` and `E(1)` fields, whose transposes
        // have one only in vector blocks), the kernel a nest of its loops would have.
        let widening = match plain.how.nest() {
            Some((nest, (bits, _))) if matches!(nest.kernel, Kernel::Block { .. }) => {
                nest.widening(bits, &all)
            }
            _ => {
                let (mut loops, mut bounds) = (all.clone(), dst.dims().to_vec());
                whole.cut(&mut loops, &mut bounds);
                let bits = dst.element_bits();
                Nest::new(loops, bounds, bits).widening(bits, &all)
            }
        };
        let widening = widening.filter(|w| !dims.contains(&w.at.dim));
        // Each box's dim and steps, and the bits (destination, source) its first slot lies
        // past the buffers' starts.
        let boxes = match widening {
            Some(w) => {
                let bits = (dst.element_bits(), src.element_bits());
                let at = |first: usize| (first * w.at.dst * bits.0, first * w.at.src * bits.1);
                boxes(w)
                    .into_iter()
                    .map(|(steps, first)| (Some((w.at.dim, steps)), at(first)))
                    .collect()
            }
            None if dims.is_empty() => return None,
            None => alloc::vec![(None, (0, 0))],
        };
        // The whole array's interior is `plain`; each box's, planned within it.
        let mut plain = widening.is_none().then_some(plain);
        let mut parts = Vec::new();
        for (k, (top, origin)) in boxes.into_iter().enumerate() {
            let interior = plain.take().unwrap_or_else(|| {
                let within = Within { top, ..whole };
                CopyPlan::direct_within(src, dst, element_type, true, within)
            });
            if k == 0 && !peels(&interior) {
                return None;
            }
            parts.extend(Peeled::boxed(
                src,
                dst,
                element_type,
                (&all, &dims),
                (top, origin),
                interior,
            )?);
        }
        let (interior, _, _) = parts.remove(0);
        Some(Peeled {
            interior,
            edges: parts,
        })
    }

    /// The plans of the box of the array within the first `top.1` steps of the top loop of
    /// dim `top.0` (all of the array if `None`), whose first slot lies `origin` bits
    /// (destination, source) past the buffers' starts: its interior (the whole steps of the
    /// clipped dims `dims`, planned by the caller) first, all its steps; then each clipped
    /// dim's edge, the dims before it cut to their interior (so that each slot is copied
    /// once). `all` is the copy's loops ([`loops`]).
    fn boxed(
        src: &Plan,
        dst: &Plan,
        element_type: PrimitiveType,
        (all, dims): (&[Loop], &[usize]),
        (top, origin): (Option<(usize, usize)>, (usize, usize)),
        interior: CopyPlan,
    ) -> Option<Vec<Placed>> {
        let plan = |whole, low| {
            let within = Within { top, whole, low };
            CopyPlan::direct_within(src, dst, element_type, true, within)
        };
        // A plan from `bits` (destination, source) past the box's first slot: whole bytes of
        // the buffers, the rest (an odd count of `E(n)` fields) where its fields start
        // within the first byte.
        let placed = |mut plan: CopyPlan, slice: Option<Slice>, bits: (usize, usize)| {
            let (d, s) = (origin.0 + bits.0, origin.1 + bits.1);
            plan.how.start_within((d % 8, s % 8))?;
            let slice = slice.unwrap_or_else(|| Slice::outer(0..plan.parts()));
            Some((plan, slice, (d / 8, s / 8)))
        };
        let mut parts = alloc::vec![placed(interior, None, (0, 0))?];
        let bits = (dst.element_bits(), src.element_bits());
        for (k, &dim) in dims.iter().enumerate() {
            let whole = &dims[..k];
            let edge = |low: Low| -> Option<Placed> {
                let edge = plan(whole, Some(low));
                let (nest, _) = edge.how.nest()?;
                let (depth, top) = nest
                    .outer
                    .iter()
                    .enumerate()
                    .find(|(_, l)| l.dim == dim && l.top)?;
                // The loop as `digits::loops` made it, not split.
                let made =
                    |l: &&Loop| l.dim == dim && l.top && (l.mult, l.size) == (top.mult, top.size);
                all.iter().find(made)?;
                let slice = Slice {
                    depth,
                    steps: dst.dims()[dim] / top.mult..top.size,
                    origin: (0, 0),
                };
                placed(edge, Some(slice), (0, 0))
            };
            // Each piece from the bits its first slot lies past the box's first slot (the
            // top loop's last step, the widths before it).
            let in_pieces = |(widths, top, low): Pieces| {
                let last = dst.dims()[dim] / top.mult;
                let mut at = 0;
                let mut pieces = Vec::with_capacity(widths.len());
                for (width, count) in widths {
                    let piece = plan(whole, Some(Low::Piece { dim, width, count }));
                    let d = (last * top.dst + at * low.dst) * bits.0;
                    let s = (last * top.src + at * low.src) * bits.1;
                    pieces.push(placed(piece, None, (d, s))?);
                    at += width;
                }
                Some(pieces)
            };
            let least = match parts[0].0.how {
                How::Bits { .. } => FIELDS_PIECE,
                _ => 1,
            };
            match pieces(all, dst, dim, least).and_then(in_pieces) {
                Some(pieces) => parts.extend(pieces),
                None => parts.push(edge(Low::Split(dim))?),
            }
        }
        Some(parts)
    }
}

/// Whether a copy's interior is one a [`Peeled`] copy goes apart from its edges:
/// transposes, and interleaves of bit fields (whose blocks go one by one where a loop
/// clips). Measured (64 MiB, medians of three alternating runs) `s4[50257,1536]` rows ->
/// `T(8,128)(2,1)E(4)` 0.52 -> 0.75 of memcpy; interleaves of whole bytes measured even (bf16
/// `(2,1)`, s8 `(4,1)`), runs lost (f32 rows -> `T(8,128)` 1.09 -> 0.66).
fn peels(interior: &CopyPlan) -> bool {
    let Some((nest, _)) = interior.how.nest() else {
        return false;
    };
    matches!(
        (&interior.how, &nest.kernel),
        (
            _,
            Kernel::Block {
                form: Form::Lanes { .. },
                ..
            }
        ) | (How::Bits { .. }, Kernel::Block { .. })
    )
}

/// How a two-step copy walks its intermediate a slab at a time: slab `k` is the
/// intermediate's bits `k · bits ..`, which steps `k · steps.0 ..` of the first step's
/// outermost loop write and steps `k · steps.1 ..` of the second's read; `slot` is a slot's
/// bits in each step's nest.
#[derive(Clone, Copy, Debug)]
struct Slabs {
    bits: usize,
    steps: (usize, usize),
    slot: (usize, usize),
    count: usize,
}

impl Slabs {
    /// The slabs of the two steps `first` and `second`, with the depths of their slab loops
    /// (each the loop that alone walks the intermediate, [`Nest::dominant`]); `None` where a
    /// step has no such loop, the two walk it in strides neither of which divides the other,
    /// or their loops reach different lengths of it, but for a loop the array's edge clips
    /// reaching past the other's by less than a step (8191 rows: 16 steps of 512 rows against
    /// 8191 steps of one; the walks stop at the edge). Such steps had gone whole, through an
    /// intermediate the size of the array, or in one step: measured (hot, best of up to 50,
    /// the 329 pairs of 1- to 16-bit layouts of nine shapes whose plans this changed) 2.4×
    /// faster as a geometric mean, 21 pairs slower (to 0.63×: `bf16[999,1001]` `(4,1)` <->
    /// `(2,1)` transposes, 1 GB/s both ways), up to 60-90× (u2 `(2,1)` -> transposed
    /// `T(32,128)(4,1)`, 0.02 -> 1.1-1.8 GB/s); 32-64 MiB, three alternating runs: u2
    /// `u2[8191,16383]` transposed 1.2 -> 1.8 GB/s, u1 0.9 -> 1.2, `s4[8191,8191]` 1.2 -> 3.1,
    /// `u8[8191,8193]` 4.7 -> 5.3-5.9.
    fn of(first: &How, second: &How) -> Option<(usize, usize, Slabs)> {
        let ((one, (b1, _)), (two, (_, b2))) = (first.nest()?, second.nest()?);
        let ((d1, s1), (d2, s2)) = (one.dominant(|l| l.dst)?, two.dominant(|l| l.src)?);
        // Each step's slab loop, its stride in bits, and the bits its steps cover.
        let (s1, s2) = (s1.checked_mul(b1)?, s2.checked_mul(b2)?);
        let (c1, c2) = (
            one.count(&one.outer[d1], 0).checked_mul(s1)?,
            two.count(&two.outer[d2], 0).checked_mul(s2)?,
        );
        let (small, big) = (s1.min(s2), s1.max(s2));
        let clipped = one.outer[d1].clip || two.outer[d2].clip;
        if !big.is_multiple_of(small) || (c1 != c2 && !(clipped && c1.abs_diff(c2) < big)) {
            return None;
        }
        let c1 = c1.max(c2);
        let bits = (8 * SLAB_BYTES / big).max(1).checked_mul(big)?;
        if !bits.is_multiple_of(8) {
            return None;
        }
        let slabs = Slabs {
            bits,
            steps: (bits / s1, bits / s2),
            slot: (b1, b2),
            count: c1.div_ceil(bits),
        };
        Some((d1, d2, slabs))
    }
}

impl Slabs {
    /// The steps of slab `k`: the first step's, writing the slab from the start of the
    /// scratch, and the second's, reading it there and writing the destination from slot
    /// `dst` (0 for the whole destination; a part's first slot).
    fn slices(&self, k: usize, dst: usize) -> (Slice, Slice) {
        let at = k * self.bits;
        let (one, two) = (k * self.steps.0, k * self.steps.1);
        let first = Slice {
            depth: 0,
            steps: one..one + self.steps.0,
            origin: (at / self.slot.0, 0),
        };
        let second = Slice {
            depth: 0,
            steps: two..two + self.steps.1,
            origin: (dst, at / self.slot.1),
        };
        (first, second)
    }
}

/// The bits of a 16-byte vector, what a kernel step should move on each side.
const VECTOR_BITS: usize = 8 * lanes::BYTES;

/// Bytes of a slab of a two-step copy's intermediate: well within a core's L2.
const SLAB_BYTES: usize = 256 << 10;

impl Through {
    /// The two steps `first` and `second`, in slabs where both steps allow (their nests
    /// reordered so that the slab loop is outermost).
    fn new(mut first: CopyPlan, mut second: CopyPlan, direct: CopyPlan) -> Through {
        let slabs = Slabs::of(&first.how, &second.how).map(|(d1, d2, slabs)| {
            first.how.reorder(d1);
            second.how.reorder(d2);
            slabs
        });
        Through {
            first,
            second,
            slabs,
            direct,
            single: false,
        }
    }

    /// [`new`](Self::new), with the first step's sweep halved (see [`Nest::halve_sweep`])
    /// while its slabs pass `bytes` and the slabs still fit both steps.
    fn within(mut first: CopyPlan, second: CopyPlan, direct: CopyPlan, bytes: usize) -> Through {
        while let Some((_, _, slabs)) = Slabs::of(&first.how, &second.how)
            && slabs.bits / 8 > bytes
        {
            let mut narrower = first.how.clone();
            if !narrower.halve_sweep() || Slabs::of(&narrower, &second.how).is_none() {
                break;
            }
            first.how = narrower;
        }
        Through::new(first, second, direct)
    }

    /// Copies `src` into `dst` (whole buffers), with non-temporal stores into `dst` if
    /// `stream`.
    fn run(&self, src: &[u8], dst: &mut [u8], stream: bool) {
        #[cfg(feature = "rayon")]
        if threads() > 1
            && dst.len() >= PARALLEL_BYTES
            && let Some((slabs, chunk)) = self.slabs.zip(self.slab_bytes())
            && self.run_apart(src, dst, slabs, chunk, stream)
        {
            return;
        }
        if self.single && threads() > 1 {
            return self.direct.run_whole(src, dst, stream);
        }
        let bytes = self.slabs.map_or(self.first.dst.bytes, |s| s.bits / 8);
        let Some(mut mid) = AlignedBuf::try_zeroed(bytes) else {
            return self.direct.run_whole(src, dst, stream);
        };
        let Some(slabs) = self.slabs else {
            self.first.run_whole(src, &mut mid, stream);
            return self.second.run_whole(&mid, dst, stream);
        };
        for k in 0..slabs.count {
            let (first, second) = slabs.slices(k, 0);
            self.first.run_slice(src, &mut mid, &first, false);
            self.second.run_slice(&mid, dst, &second, stream);
        }
    }
}

impl Through {
    /// The destination bytes each slab's second step writes, where they are its own: both
    /// steps move slots of whole bytes, and the second's slab loop, outermost, moves the
    /// destination more than all its other loops together (`Nest::split_loop`), so that slab
    /// `k` writes only bytes `k · chunk ..` of it. `None` otherwise.
    #[cfg(feature = "rayon")]
    fn slab_bytes(&self) -> Option<usize> {
        let (How::Words { .. }, How::Words { nest, width }) = (&self.first.how, &self.second.how)
        else {
            return None;
        };
        let (depth, slots) = nest.split_loop()?;
        let slabs = self.slabs?;
        (depth == 0).then(|| slabs.steps.1 * slots * width)
    }

    /// [`run`](Self::run) with the slabs shared out among rayon's threads, each on its own
    /// part of `dst` (`chunk` bytes a slab, [`slab_bytes`](Self::slab_bytes)) and its own
    /// scratch slab; `false` (nothing done) where the scratch cannot be allocated, or where
    /// the threads' slabs together would pass [`LINES_SLAB_BYTES`], the share of the
    /// last-level cache one thread's slab may take. Measured (2 threads, five alternating
    /// runs, GB/s) against the one-step copy on both threads, which such copies had run:
    /// transposes through rows padded to lines ([`CopyPlan::through_lines`]) in 4 MiB slabs,
    /// `u8[4000,16384]` 7.8-8.6 -> 8.8-10.3, `f32[1001,16384]` 7.1-9.8 -> 12.1-12.8 (three
    /// runs); in 8 MiB slabs they lost, `u8[8191,8193]` 7.9-9.2 -> 5.1-7.8, `bf16[4001,8192]`
    /// 9.0-10.2 -> 7.3-8.6 (memcpy on one thread 12-16).
    #[cfg(feature = "rayon")]
    fn run_apart(
        &self,
        src: &[u8],
        dst: &mut [u8],
        slabs: Slabs,
        chunk: usize,
        stream: bool,
    ) -> bool {
        let pieces = rayon::current_num_threads().min(slabs.count);
        let scratch = pieces.checked_mul(slabs.bits / 8);
        if scratch.is_none_or(|b| b > LINES_SLAB_BYTES) {
            return false;
        }
        let Some(mut mids) = scratch.and_then(AlignedBuf::try_zeroed) else {
            return false;
        };
        let dp = self.second.dst.prefix;
        let apart = Apart {
            through: self,
            src,
            slabs,
            chunk,
            stream,
        };
        apart.run(&mut dst[dp..], &mut mids, 0..slabs.count, pieces);
        true
    }
}

/// The slabs of a [`Through`] copy shared out among threads ([`Through::run_apart`]).
#[cfg(feature = "rayon")]
struct Apart<'a> {
    through: &'a Through,
    src: &'a [u8],
    slabs: Slabs,
    /// Destination bytes a slab.
    chunk: usize,
    stream: bool,
}

#[cfg(feature = "rayon")]
impl Apart<'_> {
    /// Slabs `ks` on `pieces` threads: `dst` the destination from slab `ks.start`'s bytes,
    /// `mids` a scratch slab a thread.
    fn run(&self, dst: &mut [u8], mids: &mut [u8], ks: Range<usize>, pieces: usize) {
        let bytes = self.slabs.bits / 8;
        if pieces <= 1 {
            return self.slabs_of(dst, &mut mids[..bytes], ks);
        }
        let half = pieces / 2;
        let mid = ks.start + ks.len() * half / pieces;
        let (left, right) = dst.split_at_mut(((mid - ks.start) * self.chunk).min(dst.len()));
        let (one, two) = mids.split_at_mut(half * bytes);
        rayon::join(
            || self.run(left, one, ks.start..mid, half),
            || self.run(right, two, mid..ks.end, pieces - half),
        );
    }

    /// Slabs `ks` one after the other through the scratch slab `mid`, `dst` the destination
    /// from slab `ks.start`'s bytes.
    fn slabs_of(&self, dst: &mut [u8], mid: &mut [u8], ks: Range<usize>) {
        let (t, slabs) = (self.through, self.slabs);
        let How::Words { nest, width } = &t.second.how else {
            unreachable!("`slab_bytes` is `Some` only where the second step moves slots")
        };
        let origin = ks.start * self.chunk / width;
        for k in ks {
            let (first, second) = slabs.slices(k, origin);
            t.first.run_slice(self.src, mid, &first, false);
            words(nest, *width, dst, mid, &second, self.stream);
        }
    }
}

/// `shape`'s layout without its last tile (a sub-tile such as `(2,1)`, or a second level of
/// tiling), as an intermediate of a two-step copy (see [`intermediate`]); `None` for a layout
/// of fewer than two tiles.
fn without_sub_tile(shape: &ArrayShape) -> Option<ArrayShape> {
    let (_, tiles) = shape
        .layout
        .tiles
        .split_last()
        .filter(|(_, t)| !t.is_empty())?;
    intermediate(shape, tiles.to_vec())
}

/// `shape`'s untiled layout of packed fields (of `bits` each) whose minor dim does not fill
/// whole bytes, with that dim padded to whole bytes by a tile of one dim (`s4[8001,16384]`
/// `{0,1:E(4)}` -> `{0,1:T(8002)E(4)}`), as an intermediate of a two-step copy whose blocks
/// would start inside bytes (see [`intermediate`]): each row then starts on a byte, and the
/// step that takes the padding out moves whole rows as runs ([`bits`]' funnel shifts).
/// `None` for a tiled layout or one whose rows already start on bytes.
fn padded_to_bytes(shape: &ArrayShape, bits: usize) -> Option<ArrayShape> {
    let layout = &shape.layout;
    if !layout.tiles.is_empty() || bits >= 8 {
        return None;
    }
    let minor = usize::try_from(*layout.minor_to_major.first()?).ok()?;
    let extent = shape.dims.get(minor)?.extent()?;
    let per_byte = i64::try_from(8 / bits.max(1)).ok()?;
    if extent % per_byte == 0 {
        return None;
    }
    let padded = extent.checked_add(per_byte - extent % per_byte)?;
    intermediate(shape, alloc::vec![Tile::new([padded])])
}

/// The largest slab of a transpose through rows padded to whole bytes
/// ([`CopyPlan::through_tiles`]; rows of an odd count of `E(4)` fields): the second step,
/// which shifts every other row by half a byte into the destination, reads it from the L2
/// cache. Measured (`s4[8001,16384]` `{1,0:E(4)}` -> `{0,1:E(4)}`, 64 MiB, medians of six
/// alternating runs) against the 4 MiB slab of the transpose's sweep of 1024 rows: 4.0-4.5
/// -> 5.4-5.5 GB/s, 2 MiB 5.1-5.2; narrower sweeps lost on the transposes that go through
/// rows padded to lines (`f32[4100,4100]` 6.9 -> 5.8, `u8[4000,16384]` 7.5 -> 6.2).
const PADDED_SLAB_BYTES: usize = 1 << 20;

/// The largest slab of a transpose through rows padded to lines
/// ([`CopyPlan::through_lines`]): a share of the last-level cache (32 MiB on the machine of
/// BENCHMARKS.md; 12 MiB slabs lost there).
const LINES_SLAB_BYTES: usize = 8 << 20;

/// `shape`'s untiled layout of `bytes`-byte slots (1 to 64, dividing a line) whose minor dim
/// does not fill whole lines, with that dim padded to whole lines by a tile of one dim
/// (`u8[4000,16384]{0,1}` -> `{0,1:T(4032)}`), as the intermediate of a two-step transpose
/// ([`CopyPlan::through_lines`]); `None` for a tiled layout or rows of whole lines already.
fn padded_to_lines(shape: &ArrayShape, bytes: usize) -> Option<ArrayShape> {
    let layout = &shape.layout;
    if !layout.tiles.is_empty() || bytes == 0 || !stream::LINE.is_multiple_of(bytes) {
        return None;
    }
    let minor = usize::try_from(*layout.minor_to_major.first()?).ok()?;
    let extent = shape.dims.get(minor)?.extent()?;
    let per_line = i64::try_from(stream::LINE / bytes).ok()?;
    if extent % per_line == 0 {
        return None;
    }
    let padded = extent.checked_add(per_line - extent % per_line)?;
    intermediate(shape, alloc::vec![Tile::new([padded])])
}

/// `shape` with `tiles` as its layout's tiles, as an intermediate of a two-step copy: static
/// dims, the same dim order and element size, no metadata prefix, no tail padding; `None`
/// for an unbounded dim.
fn intermediate(shape: &ArrayShape, tiles: Vec<Tile>) -> Option<ArrayShape> {
    let layout = &shape.layout;
    let dims = shape
        .dims
        .iter()
        .map(|d| d.extent())
        .collect::<Option<Vec<_>>>()?;
    let mut mid = ArrayShape::new(shape.element_type, dims);
    mid.layout = ArrayLayout {
        tiles,
        element_size_in_bits: layout.element_size_in_bits,
        ..ArrayLayout::new(layout.minor_to_major.iter().copied())
    };
    Some(mid)
}

/// Both plans of a copy element by element.
#[derive(Clone, Debug)]
struct Elements {
    dst: Plan,
    src: Plan,
    fields: BitFields,
}

/// The nest of a copy of slots of `bits` in `K × K` blocks (`digits::folded`), and the
/// blocks' width in bytes, when it transposes the blocks a vector at a time; `None` otherwise.
fn folded_nest(loops: &[Loop], dims: &[usize], bits: usize, panels: bool) -> Option<(Nest, usize)> {
    let (loops, wide, k) = folded(loops, dims, bits)?;
    let mut nest = Nest::sized(loops, dims.to_vec(), 8 * wide, panels);
    match &mut nest.kernel {
        Kernel::Block {
            form: Form::Lanes { inner, .. },
            ..
        } => {
            *inner = k;
            Some((nest, wide))
        }
        _ => None,
    }
}

/// The smallest copy whose interior goes apart from its edges ([`Peeled`]): smaller ones
/// are listed whole (see [`Schedule`]).
const PEELED_BYTES: usize = crate::tensor::nest::SMALL_BYTES;

/// Bytes of a bitcast copied per part (see [`CopyPlan::parts`]).
const BITCAST_PART: usize = 1 << 20;

/// A compiled copy between two layouts of the same array, for copying many buffers (or one
/// buffer in parts, with progress) over byte slices.
///
/// Buffers hold the layout's bytes as XLA stores them: `size_bytes` long, the `M(n)` prefix
/// first (left as it is: a copy moves elements only), elements in little-endian bit order
/// for packed `E(n)` storage. Padding slots of the destination are left as they are, except
/// where the two layouts put every element at the same offset and the copy is one `memcpy`.
///
/// ```
/// use xla_layout::parse_array;
/// use xla_layout::tensor::CopyPlan;
/// // s8 weights into a TPU layout: 4 rows interleaved per 128 columns.
/// let rows = parse_array("s8[8,256]{1,0}").unwrap();
/// let tpu = parse_array("s8[8,256]{1,0:T(8,128)(4,1)}").unwrap();
/// let plan = CopyPlan::new(&rows, &tpu).unwrap();
/// let src: Vec<u8> = (0..8 * 256).map(|i| (i % 251) as u8).collect();
/// let mut dst = vec![0u8; plan.dst_bytes()];
/// plan.copy(&src, &mut dst).unwrap();
/// assert_eq!(&dst[..4], &[src[0], src[256], src[512], src[768]]); // [0,0] [1,0] [2,0] [3,0]
/// let mut back = vec![0u8; src.len()];
/// CopyPlan::new(&tpu, &rows).unwrap().copy(&dst, &mut back).unwrap();
/// assert_eq!(back, src);
/// ```
#[derive(Clone, Debug)]
pub struct CopyPlan {
    src: Storage,
    dst: Storage,
    how: How,
    /// A small transpose's groups, listed (see [`Schedule`]).
    small: Option<Box<Schedule>>,
}

/// The extents of an array's dims (`None` for an unbounded one).
fn extents(a: &ArrayShape) -> Vec<Option<i64>> {
    a.dims.iter().map(|d| d.extent()).collect()
}

impl CopyPlan {
    /// Compiles the copy from layout `src` into layout `dst` of the same array (same element
    /// type and dims; bounded dims `<=N` count as their bound).
    ///
    /// # Errors
    /// [`RelayoutError::Mismatch`] when the element types or dims differ,
    /// [`RelayoutError::Layout`] when a layout is invalid or has an unbounded dim.
    ///
    /// ```
    /// use xla_layout::parse_array;
    /// use xla_layout::tensor::CopyPlan;
    /// let a = parse_array("bf16[8,1280]{1,0}").unwrap();
    /// let b = parse_array("bf16[8,1280]{1,0:T(8,128)(2,1)}").unwrap();
    /// let plan = CopyPlan::new(&a, &b).unwrap();
    /// assert_eq!((plan.src_bytes(), plan.dst_bytes()), (20480, 20480));
    /// assert!(CopyPlan::new(&a, &parse_array("bf16[?,1280]").unwrap()).is_err());
    /// ```
    pub fn new(src: &ArrayShape, dst: &ArrayShape) -> Result<CopyPlan, RelayoutError> {
        let element_types =
            (src.element_type != dst.element_type).then_some([src.element_type, dst.element_type]);
        let dims = (extents(src) != extents(dst)).then(|| [extents(src), extents(dst)]);
        if element_types.is_some() || dims.is_some() {
            return Err(RelayoutError::Mismatch {
                src: src.to_string(),
                dst: dst.to_string(),
                element_types,
                dims,
            });
        }
        let plan = |a: &ArrayShape, side| {
            Plan::new(a).map_err(|errors| RelayoutError::Layout { side, errors })
        };
        let (s, d) = (plan(src, Side::Src)?, plan(dst, Side::Dst)?);
        Ok(CopyPlan::from_plans((src, &s), (dst, &d)))
    }

    /// The copy between two layouts of the same array and their plans: a transpose whose
    /// tiles overhang the array as its interior and edges, or whose tile count few powers of
    /// two divide in boxes ([`Peeled`]); in one step, or where that step would move less than
    /// a vector a side (see [`How::narrow`]) in two, through the first intermediate layout
    /// (the destination's tiling without its sub-tile, or the source's) whose two steps each
    /// move at least half a vector (of bit fields, each step peeled where no intermediate
    /// allows that in one plan a step).
    pub(crate) fn from_plans(
        (src, sp): (&ArrayShape, &Plan),
        (dst, dp): (&ArrayShape, &Plan),
    ) -> CopyPlan {
        let element_type = src.element_type;
        if let Some(peeled) = CopyPlan::peeled(sp, dp, element_type) {
            return peeled;
        }
        let direct = CopyPlan::direct(sp, dp, element_type, true);
        if direct.how.fields_off_bytes() {
            return CopyPlan::through_tiles((src, sp), (dst, dp), &direct)
                .or_else(|| CopyPlan::through_bytes((src, sp), (dst, dp), &direct))
                .unwrap_or(direct);
        }
        if !direct.how.narrow(VECTOR_BITS) {
            // (Only where the copy streams: in cache, rows stored normally cost no reads.)
            let streamed = dp.size_bytes() >= stream::STREAM_BYTES;
            let lined = streamed
                .then(|| CopyPlan::through_lines((src, sp), (dst, dp), &direct))
                .flatten();
            return lined.unwrap_or(direct);
        }
        // Through the source without its sub-tiles first, where its steps go in slabs: the
        // first step then keeps the source's order (it only takes the sub-tiles apart) and the
        // second, which transposes, reads each slab in cache; through the destination's, the
        // first step read the source across each slab's transpose, a few lines a page.
        // Measured (medians of three alternating runs, 64 MiB) u8 `T(8,128)(8,1)` ->
        // `{0,1:T(32,128)(4,1)}` 0.22 -> 0.48 of memcpy, back 0.45 -> 0.51, s4
        // `{0,1:T(8,128)(2,1)E(4)}` -> `T(32,128)(4,1)E(4)` 0.29 -> 0.42, back 0.33 -> 0.37.
        // Each step in one plan, or where no intermediate allows that, of bit fields, each
        // peeled where it can be (its tiles overhang the array: bit fields' blocks the edges
        // cut went a field at a time), in one plan where not. Peeled steps go whole, not in
        // slabs, so they come second: peeled first, steps that went in slabs lost (s4[1536,600]
        // `{1,0:T(32,128)(4,1)E(4)}` -> `{0,1:T(8,128)(2,1)E(4)}` 9.1 -> 0.64 GB/s hot).
        // Measured (hot, best of 20, GB/s) s4[1000,1000] `{1,0:T(8,128)(4,1)E(4)}` ->
        // `{0,1:T(8,128)(4,1)E(4)}` 0.10 -> 4.5 (0.49 with its second step alone peeled),
        // s4[8000,8000] (64 MiB) 0.09 -> 2.2.
        let mids = |peel: bool| {
            [src, dst]
                .into_iter()
                .filter_map(without_sub_tile)
                .filter_map(move |mid| {
                    let mp = Plan::new(&mid).ok()?;
                    // (Steps in blocks of a line, not panels, whose loops make the slabs 8-16
                    // times larger: u8 `{0,1:T(32,128)(4,1)}` -> `T(8,128)(8,1)`, 8 MiB slabs,
                    // 0.45 -> 0.31 of memcpy; though s4 `T(8,128)(2,1)E(4)` ->
                    // `{0,1:T(8,128)(2,1)E(4)}`, 4 MiB slabs, 0.31 -> 0.40, before it went in
                    // one step, `digits::folded`.)
                    // (Each step may move half a vector: a `(2,1)` interleave of 48-field
                    // rows of `E(2)`, through bytes, is still many times faster than field
                    // by field.)
                    let step = |from: &Plan, to: &Plan| {
                        let peeled = peel.then(|| CopyPlan::peeled(from, to, element_type));
                        peeled.flatten().or_else(|| {
                            Some(CopyPlan::direct(from, to, element_type, false))
                                .filter(|p| !p.how.narrow(VECTOR_BITS / 2))
                        })
                    };
                    Some((step(sp, &mp)?, step(&mp, dp)?))
                })
        };
        let mut steps = mids(false);
        let one = match steps.next() {
            Some(one) => one,
            // (Slots of whole bytes lost so: f32[1024,1000] `{0,1:T(8,128)}` ->
            // `{1,0:T(8,128)(4,1)}` 5.4 -> 3.1 GB/s.)
            None if matches!(direct.how, How::Bits { .. }) => {
                steps = mids(true);
                let Some(one) = steps.next() else {
                    return direct;
                };
                one
            }
            None => return direct,
        };
        let slabbed =
            |(first, second): &(CopyPlan, CopyPlan)| Slabs::of(&first.how, &second.how).is_some();
        let (first, second) = if slabbed(&one) {
            one
        } else {
            steps.find(slabbed).unwrap_or(one)
        };
        let through = Through::new(first, second, direct);
        // Without slabs the scratch is the whole intermediate, whose page faults cost several
        // memcpys of it (u8 `T(8,128)(8,1)` -> `{0,1:T(32,128)(4,1)}` 0.14 -> 0.12 of memcpy
        // that way, s8 `{3,2,1,0:T(32,128)(4,1)}` -> `{0,1,2,3}` 0.15 -> 0.11): worth it only
        // against packed fields moved a few at a time (u2 0.003 -> 0.03).
        if through.slabs.is_none() && matches!(through.direct.how, How::Words { .. }) {
            return through.direct;
        }
        CopyPlan {
            src: through.direct.src,
            dst: through.direct.dst,
            how: How::Through(Box::new(through)),
            small: None,
        }
    }

    /// The copy between `src` and `dst` of `element_type` as its interior and edges, or in
    /// boxes ([`Peeled`]), where it is large enough ([`PEELED_BYTES`]) and its interior moves
    /// a vector a side, on whole bytes.
    fn peeled(src: &Plan, dst: &Plan, element_type: PrimitiveType) -> Option<CopyPlan> {
        if dst.size_bytes() < PEELED_BYTES {
            return None;
        }
        let peeled = Peeled::of(src, dst, element_type).filter(|p| {
            !p.interior.how.narrow(VECTOR_BITS) && !p.interior.how.fields_off_bytes()
        })?;
        Some(CopyPlan {
            src: peeled.interior.src,
            dst: peeled.interior.dst,
            how: How::Peeled(Box::new(peeled)),
            small: None,
        })
    }

    /// A copy of packed fields whose blocks do not start on bytes, in two steps whose
    /// blocks do: through the layout without the sub-tile of either side (the destination's
    /// first), whose first step moves runs of fields ([`BitFields::run`] shifts them onto
    /// bytes) and whose second interleaves or splits rows of whole bytes, a slab at a time;
    /// else through either side's untiled layout padded to whole bytes a row
    /// ([`padded_to_bytes`]), the transpose between padded rows, the padding put in or taken
    /// out by runs, each step planned whole (the intermediate whole too: its nest has no slab
    /// loop). Measured (32 MiB, against memcpy, best of five) `s4[8191,8191]` rows ->
    /// `T(8,128)(2,1)E(4)` 0.01 -> 0.13 (since gone in one step: zips of 2 or 4 `E(4)`
    /// rows read rows half a byte in, see `How::fields_off_bytes`), back 0.01 -> 0.12 (the
    /// peeled plan, whose interior is such a copy, moved a field at a time); transposes
    /// (alternating runs against the plans through bytes, which had moved these a field at
    /// a time) `s4[8001,16384]`
    /// `{1,0:E(4)}` -> `{0,1:E(4)}` 0.33 -> 1.33-1.39 GB/s, `s4[8191,8191]` 0.31 -> 0.93-1.13,
    /// `u2[8191,16383]` 0.15 -> 0.68, `u1[8191,32767]` 0.08 -> 0.43.
    /// `None` where a step would still move fields off bytes, or less than half a vector a
    /// side, or the steps without the sub-tile do not go in slabs.
    fn through_tiles(
        (src, sp): (&ArrayShape, &Plan),
        (dst, dp): (&ArrayShape, &Plan),
        direct: &CopyPlan,
    ) -> Option<CopyPlan> {
        let element_type = src.element_type;
        let fit = |p: &CopyPlan| !p.how.narrow(VECTOR_BITS / 2) && !p.how.fields_off_bytes();
        let two_steps = |first: CopyPlan, second: CopyPlan, bytes: usize| {
            let through = Through::within(first, second, direct.clone(), bytes);
            (fit(&through.first) && fit(&through.second)).then_some(through)
        };
        let sub_tiled = [dst, src]
            .into_iter()
            .filter_map(without_sub_tile)
            .find_map(|mid| {
                let mp = Plan::new(&mid).ok()?;
                two_steps(
                    CopyPlan::direct(sp, &mp, element_type, false),
                    CopyPlan::direct(&mp, dp, element_type, false),
                    usize::MAX,
                )
                .filter(|t| t.slabs.is_some())
            });
        // Through a padded layout, each step planned whole: where both sides' rows start
        // inside bytes, the transpose goes through the other side padded too (three steps;
        // padding tiles a layout, which is not padded again).
        let through = sub_tiled.or_else(|| {
            [(dst, dp), (src, sp)]
                .into_iter()
                .filter_map(|(shape, plan)| padded_to_bytes(shape, plan.element_bits()))
                .find_map(|mid| {
                    let mp = Plan::new(&mid).ok()?;
                    two_steps(
                        CopyPlan::from_plans((src, sp), (&mid, &mp)),
                        CopyPlan::from_plans((&mid, &mp), (dst, dp)),
                        PADDED_SLAB_BYTES,
                    )
                })
        })?;
        Some(CopyPlan {
            src: direct.src,
            dst: direct.dst,
            how: How::Through(Box::new(through)),
            small: None,
        })
    }

    /// A transpose whose destination rows do not fill whole lines (`u8[4000,16384]` `{1,0}`
    /// -> `{0,1}`, rows of 4000 bytes), through the destination's layout with its rows padded
    /// to whole lines ([`padded_to_lines`]), a slab of at most [`LINES_SLAB_BYTES`] at a time:
    /// the transpose into the slab, whose rows start on lines, in cache, then the slab's rows
    /// into the destination as runs of whole lines, streamed. In one step the transpose's
    /// pieces of rows begin and end inside lines that other blocks finish, stored normally,
    /// each read from memory first. Measured (64 MiB, three alternating runs, against memcpy):
    /// `u8[4000,16384]` 0.33-0.34 -> 0.50-0.56, `u8[8002,8192]` 0.28-0.30 -> 0.39-0.41,
    /// `f32[1001,16384]` 0.36-0.39 -> 0.56-0.59, `bf16[4001,8192]` 0.39-0.41 -> 0.42-0.49;
    /// slabs of 12 MiB lost (`bf16[50257,768]` 0.35 -> 0.31). With the `rayon` feature and more
    /// than one thread, the slabs are shared out among the threads where their slabs fit
    /// [`LINES_SLAB_BYTES`] together (`Through::run_apart`); else the one-step copy runs on
    /// all of them, which side by side ran faster than the steps on one (`u8[8002,8192]`
    /// 0.61-0.63 against 0.44-0.45). `None` where the copy is not such a transpose or its
    /// slabs would be larger.
    fn through_lines(
        (src, sp): (&ArrayShape, &Plan),
        (dst, dp): (&ArrayShape, &Plan),
        direct: &CopyPlan,
    ) -> Option<CopyPlan> {
        let How::Words { nest, width } = &direct.how else {
            return None;
        };
        let lanes = matches!(
            nest.kernel,
            Kernel::Block {
                form: Form::Lanes { .. },
                ..
            }
        );
        let mid = padded_to_lines(dst, *width).filter(|_| lanes)?;
        let mp = Plan::new(&mid).ok()?;
        let element_type = src.element_type;
        let first = CopyPlan::direct(sp, &mp, element_type, true);
        let second = CopyPlan::direct(&mp, dp, element_type, true);
        let through = Through {
            single: true,
            ..Through::new(first, second, direct.clone())
        };
        if through.slabs?.bits > 8 * LINES_SLAB_BYTES {
            return None;
        }
        Some(CopyPlan {
            src: direct.src,
            dst: direct.dst,
            how: How::Through(Box::new(through)),
            small: None,
        })
    }

    /// A copy of packed fields whose blocks do not start on bytes where neither side pads
    /// to whole bytes ([`CopyPlan::through_tiles`]; rows of whole bytes into transposed tiles
    /// of an odd extent: `s4[121,34]` `{1,0:E(4)}` -> `{0,1:T(8,128)E(4)}`), whose block
    /// kernels would fall to a field at a time, in three steps: the fields unpacked into a
    /// byte each, those bytes relaid out, packed again, the first two a slab at a time where
    /// they allow. Measured (64 MiB, against memcpy, when odd untiled transposes came this
    /// way) `s4[8001,16384]` 0.006 -> 0.023-0.025, most of it the page faults of the whole
    /// intermediates; `s4[8191,8191]` rows -> `{0,1:T(8,128)E(4)}` 0.09 -> 0.47 GB/s. `direct`,
    /// the one-step copy, runs where a scratch cannot be allocated; `None` where the
    /// unpacking or packing would still move less than a vector a side.
    fn through_bytes(
        (src, sp): (&ArrayShape, &Plan),
        (dst, dp): (&ArrayShape, &Plan),
        direct: &CopyPlan,
    ) -> Option<CopyPlan> {
        let element_type = src.element_type;
        let bytes = |shape: &ArrayShape| {
            let mut unpacked = intermediate(shape, shape.layout.tiles.clone())?;
            unpacked.layout.element_size_in_bits = 0;
            let plan = Plan::new(&unpacked).ok()?;
            Some((unpacked, plan))
        };
        let ((us, usp), (ud, udp)) = (bytes(src)?, bytes(dst)?);
        let unpack = CopyPlan::direct(sp, &usp, element_type, true);
        let moved = CopyPlan::from_plans((&us, &usp), (&ud, &udp));
        let pack = CopyPlan::direct(&udp, dp, element_type, true);
        // (The bytes' own plan, `moved`, may be narrow: it is still many times faster than
        // fields a field at a time; measured s4[8191,8191] rows -> `{0,1:T(8,128)E(4)}`
        // 0.09 -> 0.47 GB/s, back 0.45 GB/s: 0.01 -> 0.04 of memcpy.)
        if [&unpack, &pack]
            .iter()
            .any(|p| p.how.narrow(VECTOR_BITS) || p.how.fields_off_bytes())
        {
            return None;
        }
        // Unpacked and moved a slab at a time where they allow (the intermediate in cache),
        // then packed.
        let unpacked = CopyPlan::direct(sp, &udp, element_type, true);
        let first = CopyPlan {
            src: unpack.src,
            dst: moved.dst,
            how: How::Through(Box::new(Through::new(unpack, moved, unpacked))),
            small: None,
        };
        Some(CopyPlan {
            src: direct.src,
            dst: direct.dst,
            how: How::Through(Box::new(Through::new(first, pack, direct.clone()))),
            small: None,
        })
    }

    /// The copy in one step between two plans of the same array of `element_type`; its
    /// transposes in panels if `panels` (see [`Nest::sized`]).
    fn direct(src: &Plan, dst: &Plan, element_type: PrimitiveType, panels: bool) -> CopyPlan {
        CopyPlan::direct_within(src, dst, element_type, panels, Within::ALL)
    }

    /// [`direct`](Self::direct), of slots or fields, over the part `within` of the array.
    fn direct_within(
        src: &Plan,
        dst: &Plan,
        element_type: PrimitiveType,
        panels: bool,
        within: Within<'_>,
    ) -> CopyPlan {
        use PrimitiveType::{S1, S2, S4, S8, S16, S32, S64};
        let (s, d) = (Storage::of(src), Storage::of(dst));
        let fields = BitFields {
            dst_bits: d.bits,
            src_bits: s.bits,
            dst_start: 8 * d.prefix,
            src_start: 8 * s.prefix,
            sign_extend: matches!(element_type, S1 | S2 | S4 | S8 | S16 | S32 | S64),
        };
        let how = if dst.elements() == 0 {
            How::Nothing
        } else if s.bits == d.bits && src.bitcast_signature() == dst.bitcast_signature() {
            How::Bitcast {
                bytes: (dst.physical_elements() * d.bits).div_ceil(8),
            }
        } else {
            let mut bounds = dst.dims().to_vec();
            let loops = loops(dst, src).map(|mut loops| {
                within.cut(&mut loops, &mut bounds);
                loops
            });
            let bounds = &bounds;
            // `E(1)` and `E(2)` fields that both sides keep together in runs of 2 or 4 bits
            // (`(2,1)` sub-tiles of `E(1)` against a layout whose minor dim is the pair's:
            // the pair is two neighbouring bits of the source too) go as fields that wide.
            // (Runs that short never fill a byte: such loops are not `packed_as_bytes`'.)
            let packed_runs = loops
                .as_ref()
                .filter(|_| s.bits == d.bits)
                .and_then(|l| packed_as_fields(l, bounds, s.bits));
            let (loops, (sb, db), packed) = match packed_runs {
                Some((loops, bits)) => (
                    Some(loops),
                    (bits, bits),
                    BitFields {
                        dst_bits: bits,
                        src_bits: bits,
                        ..fields
                    },
                ),
                None => (loops, (s.bits, d.bits), fields),
            };
            match loops {
                Some(loops)
                    if sb == db
                        && matches!(sb, 1 | 2 | 4)
                        && let Some(bytes) = packed_as_bytes(&loops, bounds, sb) =>
                {
                    // Bytes, or wider slots where both sides keep a few bytes in a row (`E(4)`
                    // fields in `(4,1)` groups, transposed: 2-byte slots; measured s4 `{0,1:E(4)}`
                    // -> `T(32,128)(4,1)E(4)` 0.03 -> 0.47 of memcpy, `(8,1)` 0.05 -> 1.01).
                    let (loops, width) = widened(&bytes, bounds, 1).unwrap_or((bytes, 1));
                    How::Words {
                        nest: Nest::sized(loops, bounds.clone(), 8 * width, panels),
                        width,
                    }
                }
                Some(loops)
                    if sb == db
                        && matches!(sb, 8 | 16 | 32 | 64)
                        && let Some((loops, width)) = widened(&loops, bounds, sb / 8) =>
                {
                    How::Words {
                        nest: Nest::sized(loops, bounds.clone(), 8 * width, panels),
                        width,
                    }
                }
                Some(loops)
                    if sb == db
                        && matches!(sb, 1 | 2 | 4 | 8 | 16 | 32)
                        && let Some((nest, width)) = folded_nest(&loops, bounds, sb, panels) =>
                {
                    How::Words { nest, width }
                }
                Some(loops) => {
                    let words = sb == db && matches!(sb, 8 | 16 | 32 | 64 | 128);
                    // Slots of whole bytes; `E(4)` fields on both sides (their interleaves
                    // and transposes go through bytes); `E(2)` and `E(1)` as bytes for
                    // their interleaves, as fields for their transposes (below); other bit
                    // fields element by element around runs.
                    let bits = match (sb, db) {
                        _ if words => sb,
                        (4, 4) => 4,
                        (2, 2) | (1, 1) => 8,
                        _ => 0,
                    };
                    // `E(2)` and `E(1)` transposes in blocks of a line of fields a side (the
                    // nest sees their fields as slots of their own bits), not of 64 fields:
                    // measured u2 0.10 -> 0.20 of memcpy, u1 0.06 -> 0.12; past the cache in
                    // panels, as `E(4)` fields (`nest::panel_sides`).
                    let by_fields = Nest::new(loops.clone(), bounds.clone(), sb);
                    let lanes = matches!(
                        by_fields.kernel,
                        Kernel::Block {
                            form: Form::Lanes { .. },
                            ..
                        }
                    );
                    let nest = if bits == 8 && sb < 4 && lanes && panels {
                        Nest::sized(loops.clone(), bounds.clone(), sb, panels)
                    } else if bits == 8 && sb < 4 && lanes {
                        by_fields
                    } else if words || bits == 4 {
                        Nest::sized(loops.clone(), bounds.clone(), bits, panels)
                    } else {
                        Nest::new(loops.clone(), bounds.clone(), bits)
                    };
                    let blocks = matches!(
                        nest.kernel,
                        Kernel::Block {
                            form: Form::Lanes { .. } | Form::Zip | Form::Unzip,
                            ..
                        }
                    );
                    let nest = if bits > 0 && sb < 4 && !blocks {
                        Nest::of_fields(loops, bounds.clone(), sb)
                    } else {
                        nest
                    };
                    if words {
                        How::Words {
                            nest,
                            width: sb / 8,
                        }
                    } else {
                        How::Bits {
                            nest,
                            fields: packed,
                        }
                    }
                }
                None => How::Elements(Box::new(Elements {
                    dst: dst.clone(),
                    src: src.clone(),
                    fields,
                })),
            }
        };
        let small = match &how {
            How::Words { nest, width } => {
                Schedule::new(nest, *width, (s.bytes - s.prefix, d.bytes - d.prefix)).map(Box::new)
            }
            _ => None,
        };
        CopyPlan {
            src: s,
            dst: d,
            how,
            small,
        }
    }

    /// Bytes of a source buffer.
    ///
    /// ```
    /// use xla_layout::{parse_array, tensor::CopyPlan};
    /// let p = CopyPlan::new(
    ///     &parse_array("f32[3,5]{1,0:T(2,2)}").unwrap(),
    ///     &parse_array("f32[3,5]").unwrap(),
    /// ).unwrap();
    /// assert_eq!((p.src_bytes(), p.dst_bytes()), (96, 60));
    /// ```
    pub fn src_bytes(&self) -> usize {
        self.src.bytes
    }

    /// Bytes of a destination buffer.
    ///
    /// ```
    /// use xla_layout::{parse_array, tensor::CopyPlan};
    /// let p = CopyPlan::new(
    ///     &parse_array("s4[6,10]{1,0}").unwrap(),
    ///     &parse_array("s4[6,10]{1,0:E(4)}").unwrap(),
    /// ).unwrap();
    /// assert_eq!((p.src_bytes(), p.dst_bytes()), (60, 30));
    /// ```
    pub fn dst_bytes(&self) -> usize {
        self.dst.bytes
    }

    /// Copies every element of `src` into `dst` (on rayon's thread pool for 4 MiB or more of
    /// whole-byte storage, with the `rayon` feature). A large copy streams whole cache lines
    /// into `dst` where it starts on a line: a destination from
    /// [`AlignedBuf::try_zeroed`] (64-byte aligned, on huge pages from 4 MiB) is faster than a
    /// `Vec<u8>`, 16 bytes off a line: measured (64 MiB, against memcpy, on a line and off it)
    /// `f32[4096,4096]` transposed 0.76 and 0.60, `u8[8192,8192]` 0.95 and 0.49, s4 rows ->
    /// `T(8,128)(2,1)E(4)` 1.28 and 0.60; rows into tiles lose less (f32 `T(8,128)` 1.67 and
    /// 1.14).
    ///
    /// # Errors
    /// [`RelayoutError::Length`] if a buffer's length is not its layout's byte size.
    ///
    /// ```
    /// use xla_layout::{parse_array, tensor::CopyPlan};
    /// let p = CopyPlan::new(&parse_array("u8[2,3]").unwrap(), &parse_array("u8[2,3]{0,1}").unwrap())
    ///     .unwrap();
    /// let mut dst = [0u8; 6];
    /// p.copy(&[1, 2, 3, 4, 5, 6], &mut dst).unwrap();
    /// assert_eq!(dst, [1, 4, 2, 5, 3, 6]);
    /// let e = p.copy(&[1, 2, 3], &mut [0u8; 7]).unwrap_err();
    /// assert_eq!(
    ///     e.to_string(),
    ///     "the source buffer has 3 bytes, but its layout needs 6; \
    ///      the destination buffer has 7 bytes, but its layout needs 6"
    /// );
    /// ```
    pub fn copy(&self, src: &[u8], dst: &mut [u8]) -> Result<(), RelayoutError> {
        self.copy_parts(src, dst, 0..self.parts())
    }

    /// Number of parts the copy can run in (at least 1): [`copy_parts`](Self::copy_parts)
    /// over ranges that cover `0..parts()` once each, in any order, is [`copy`](Self::copy).
    /// Parts are the steps of the copy's outermost loop, for progress reports on large
    /// buffers.
    ///
    /// ```
    /// use xla_layout::{parse_array, tensor::CopyPlan};
    /// let p = CopyPlan::new(
    ///     &parse_array("f32[64,256]").unwrap(),
    ///     &parse_array("f32[64,256]{1,0:T(8,128)}").unwrap(),
    /// ).unwrap();
    /// let src: Vec<u8> = (0..p.src_bytes()).map(|i| i as u8).collect();
    /// let (mut whole, mut parts) = (vec![0u8; p.dst_bytes()], vec![0u8; p.dst_bytes()]);
    /// p.copy(&src, &mut whole).unwrap();
    /// for k in 0..p.parts() {
    ///     p.copy_parts(&src, &mut parts, k..k + 1).unwrap(); // report progress k + 1 of parts()
    /// }
    /// assert_eq!(parts, whole);
    /// ```
    pub fn parts(&self) -> usize {
        match &self.how {
            How::Nothing | How::Elements(_) | How::Through(_) => 1,
            How::Peeled(p) => p.interior.parts(),
            How::Bitcast { bytes } => bytes.div_ceil(BITCAST_PART).max(1),
            How::Words { nest, .. } | How::Bits { nest, .. } => nest.parts(),
        }
    }

    /// Copies the elements of parts `parts` (see [`parts`](Self::parts)) of `src` into `dst`.
    ///
    /// # Errors
    /// [`RelayoutError::Length`] if a buffer's length is not its layout's byte size.
    ///
    /// ```
    /// use xla_layout::{parse_array, tensor::CopyPlan};
    /// let p = CopyPlan::new(&parse_array("u8[4,2]").unwrap(), &parse_array("u8[4,2]{0,1}").unwrap())
    ///     .unwrap();
    /// let mut dst = [0u8; 8];
    /// let halves = [0..p.parts() / 2, p.parts() / 2..p.parts()];
    /// for part in halves {
    ///     p.copy_parts(&[0, 1, 2, 3, 4, 5, 6, 7], &mut dst, part).unwrap();
    /// }
    /// assert_eq!(dst, [0, 2, 4, 6, 1, 3, 5, 7]);
    /// ```
    pub fn copy_parts(
        &self,
        src: &[u8],
        dst: &mut [u8],
        parts: Range<usize>,
    ) -> Result<(), RelayoutError> {
        let wrong = |expected: usize, found: usize, what| {
            (expected != found).then_some(LengthError {
                expected,
                found,
                what,
            })
        };
        let (s, d) = (
            wrong(self.src.bytes, src.len(), "source buffer"),
            wrong(self.dst.bytes, dst.len(), "destination buffer"),
        );
        if s.is_some() || d.is_some() {
            return Err(RelayoutError::Length { src: s, dst: d });
        }
        self.run(src, dst, parts);
        Ok(())
    }

    /// The copy over buffers of the right lengths.
    pub(crate) fn run(&self, src: &[u8], dst: &mut [u8], parts: Range<usize>) {
        // The block kernels of bit fields stream the destination's lines as the lines of its
        // rows, which are the memory's only where the data starts on a line: elsewhere (a
        // `Vec<u8>` from the system allocator starts 16 bytes past one) they stream what
        // they can of each block and store the rest, each line half streamed by one block and
        // half stored by another, so they store normally. Measured (64 MiB, destination 16
        // bytes past a line, medians of two alternating runs) s4 rows -> `T(8,128)(2,1)E(4)`
        // 0.27 -> 0.47 of memcpy, `{1,0:E(4)}` -> `{0,1:E(4)}` 0.16 -> 0.26, u1 `{1,0:E(1)}`
        // -> `{0,1:E(1)}` 0.15 -> 0.24. Slots of whole bytes stream what they can still:
        // stored normally, s8 rows -> `T(32,128)(4,1)` lost 0.72 -> 0.62, bf16
        // `T(8,128)(2,1)` -> `{0,1}` 0.53 -> 0.48, and f32 rows -> `T(8,128)` 1.09 -> 0.81.
        let on_line = (dst.as_ptr() as usize)
            .wrapping_add(self.dst.prefix)
            .is_multiple_of(stream::LINE);
        let stream =
            self.dst.bytes >= stream::STREAM_BYTES && (on_line || !self.how.writes_field_blocks());
        if parts == (0..self.parts()) {
            return self.run_whole(src, dst, stream);
        }
        self.run_streamed(src, dst, parts, stream);
    }

    /// The whole copy, with non-temporal stores if `stream`: a small transpose from its
    /// list of groups (see [`Schedule`]), else [`run_streamed`](Self::run_streamed).
    fn run_whole(&self, src: &[u8], dst: &mut [u8], stream: bool) {
        match &self.small {
            Some(small) if !stream => {
                small.run(&mut dst[self.dst.prefix..], &src[self.src.prefix..]);
            }
            _ => self.run_streamed(src, dst, 0..self.parts(), stream),
        }
    }

    /// [`run`](Self::run), with non-temporal stores if `stream` (chosen by size; forced by
    /// the tests, so that small arrays take the large copies' paths).
    fn run_streamed(&self, src: &[u8], dst: &mut [u8], parts: Range<usize>, stream: bool) {
        let (sp, dp) = (self.src.prefix, self.dst.prefix);
        match &self.how {
            How::Nothing => {}
            How::Bitcast { bytes } => {
                let from = (parts.start * BITCAST_PART).min(*bytes);
                let to = (parts.end.saturating_mul(BITCAST_PART)).min(*bytes);
                let (dst, src) = (&mut dst[dp + from..dp + to], &src[sp + from..sp + to]);
                if dst.len() < PARALLEL_BYTES {
                    dst.copy_from_slice(src);
                } else {
                    split(dst, BITCAST_PART, 0..parts.len(), &|dst, k| {
                        let at = k.start * BITCAST_PART;
                        dst.copy_from_slice(&src[at..at + dst.len()]);
                    });
                }
            }
            How::Words { nest, width } => {
                let whole = parts == (0..nest.parts());
                let split_at = if PARALLEL && whole && dst.len() >= PARALLEL_BYTES {
                    nest.split_loop()
                } else {
                    None
                };
                match split_at {
                    Some((depth, slots)) => {
                        // Step `k` of the loop at `depth` writes only its own `slots` slots.
                        let steps = 0..nest.outer[depth].size;
                        let (dst, src) = (&mut dst[dp..], &src[sp..]);
                        split(dst, slots * width, steps, &|dst, steps| {
                            let origin = (steps.start * slots, 0);
                            let slice = Slice {
                                depth,
                                steps,
                                origin,
                            };
                            words(nest, *width, dst, src, &slice, stream);
                        });
                    }
                    _ => self.run_slice(src, dst, &Slice::outer(parts), stream),
                }
            }
            How::Bits { .. } => self.run_slice(src, dst, &Slice::outer(parts), stream),
            How::Through(t) => {
                if parts.contains(&0) {
                    t.run(src, dst, stream);
                }
            }
            How::Peeled(p) => {
                p.interior.run_streamed(src, dst, parts.clone(), stream);
                if parts.contains(&0) {
                    for (edge, slice, (d, s)) in &p.edges {
                        edge.run_slice(&src[*s..], &mut dst[*d..], slice, stream);
                    }
                }
            }
            How::Elements(e) => {
                if parts.contains(&0) {
                    for (d, s) in e.dst.logical_offsets().zip(e.src.logical_offsets()) {
                        e.fields.element(dst, src, d, s);
                    }
                }
            }
        }
    }

    /// The steps `slice` of a one-step copy of slots or fields (`Words`, `Bits`; never called
    /// for the other forms) on one thread. `src` and `dst` are whole buffers, metadata
    /// prefix first, except on a side whose `slice.origin` is not 0: an intermediate (no
    /// prefix) whose buffer holds the slots from its origin on.
    fn run_slice(&self, src: &[u8], dst: &mut [u8], slice: &Slice, stream: bool) {
        match &self.how {
            How::Words { nest, width } => {
                let (dst, src) = (&mut dst[self.dst.prefix..], &src[self.src.prefix..]);
                words(nest, *width, dst, src, slice, stream);
            }
            How::Bits { nest, fields } => {
                bits::copy(nest, fields, dst, src, slice, stream);
                if stream {
                    stream::fence();
                }
            }
            _ => unreachable!("only copies of slots or fields run by steps"),
        }
    }
}

/// Copies of at least this many bytes run their parts on rayon's thread pool (with the
/// `rayon` feature): below it, waking the threads costs more than they save.
const PARALLEL_BYTES: usize = 4 << 20;

/// Whether the `rayon` feature is on.
const PARALLEL: bool = cfg!(feature = "rayon");

/// The threads a copy may run on: rayon's pool's with the `rayon` feature, else one.
fn threads() -> usize {
    #[cfg(feature = "rayon")]
    return rayon::current_num_threads();
    #[cfg(not(feature = "rayon"))]
    1
}

/// Runs `copy(slice, parts)` over the parts `parts`, whose destination `dst` (from the start
/// of part `parts.start`) holds `part` bytes a part (the last one possibly fewer): one call,
/// or with the `rayon` feature one per thread of rayon's pool, each on its own slice.
fn split(
    dst: &mut [u8],
    part: usize,
    parts: Range<usize>,
    copy: &(impl Fn(&mut [u8], Range<usize>) + Sync),
) {
    #[cfg(feature = "rayon")]
    {
        let pieces = rayon::current_num_threads().min(parts.len());
        if pieces > 1 {
            return pieces_of(dst, part, parts, pieces, copy);
        }
    }
    let _ = part;
    copy(dst, parts);
}

/// [`split`] into `pieces` calls side by side.
#[cfg(feature = "rayon")]
fn pieces_of(
    dst: &mut [u8],
    part: usize,
    parts: Range<usize>,
    pieces: usize,
    copy: &(impl Fn(&mut [u8], Range<usize>) + Sync),
) {
    if pieces <= 1 {
        return copy(dst, parts);
    }
    let half = pieces / 2;
    let mid = parts.start + parts.len() * half / pieces;
    let (left, right) = dst.split_at_mut(((mid - parts.start) * part).min(dst.len()));
    rayon::join(
        || pieces_of(left, part, parts.start..mid, half, copy),
        || pieces_of(right, part, mid..parts.end, pieces - half, copy),
    );
}

/// The steps `slice` of `nest` over slots of `width` bytes (see [`kernels::copy`]), then
/// the fence of its non-temporal stores if `stream`.
fn words(nest: &Nest, width: usize, dst: &mut [u8], src: &[u8], slice: &Slice, stream: bool) {
    match width {
        1 => words_copy::<u8, 1>(nest, dst, src, slice, stream),
        2 => words_copy::<u16, 2>(nest, dst, src, slice, stream),
        4 => words_copy::<u32, 4>(nest, dst, src, slice, stream),
        8 => words_copy::<u64, 8>(nest, dst, src, slice, stream),
        _ => words_copy::<u128, 16>(nest, dst, src, slice, stream),
    }
    if stream {
        stream::fence();
    }
}

fn words_copy<W: kernels::Word<N>, const N: usize>(
    nest: &Nest,
    dst: &mut [u8],
    src: &[u8],
    slice: &Slice,
    stream: bool,
) {
    let (dst, _) = dst.as_chunks_mut::<N>();
    let (src, _) = src.as_chunks::<N>();
    kernels::copy::<W, N>(nest, dst, src, slice, stream);
}

/// Copies every element of `src`, laid out as `src_shape`, into `dst`, laid out as
/// `dst_shape` (the same array in another layout): [`CopyPlan::new`] then
/// [`CopyPlan::copy`]. For many buffers of one pair of layouts, keep the [`CopyPlan`].
///
/// # Errors
/// See [`CopyPlan::new`] and [`CopyPlan::copy`].
///
/// ```
/// use xla_layout::parse_array;
/// use xla_layout::tensor::relayout;
/// // A device buffer's layout, as PJRT prints it, back to row-major host order.
/// let device = parse_array("f32[3,5]{1,0:T(2,2)}").unwrap();
/// let host = parse_array("f32[3,5]").unwrap();
/// let tiled: Vec<f32> = (0..24).map(|k| k as f32).collect(); // 2x3 tiles of 2x2
/// let src: Vec<u8> = tiled.iter().flat_map(|x| x.to_le_bytes()).collect();
/// let mut dst = vec![0u8; 60];
/// relayout(&src, &device, &mut dst, &host).unwrap();
/// let row_major: Vec<f32> =
///     dst.chunks(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect();
/// assert_eq!(row_major[2 * 5 + 3], 17.0); // [2,3] lives at offset 17 (XLA's tiled_layout.md)
/// ```
pub fn relayout(
    src: &[u8],
    src_shape: &ArrayShape,
    dst: &mut [u8],
    dst_shape: &ArrayShape,
) -> Result<(), RelayoutError> {
    CopyPlan::new(src_shape, dst_shape)?.copy(src, dst)
}

#[cfg(test)]
mod tests {
    use super::{CopyPlan, Form, How, Kernel, Peeled};
    use crate::parse_array;
    use crate::tensor::AlignedBuf;
    use alloc::vec::Vec;

    /// The paths of large copies (non-temporal stores straight from registers, or through
    /// staged source rows and gathered lines), on small arrays with whole and partial blocks
    /// at every width, both ways, with the stream forced on, in AVX2 registers where the CPU
    /// has them and in 16-byte ones: each element where the plans' offsets put it, padding
    /// left as it was.
    #[test]
    fn streamed_copies_put_every_element_in_place() {
        let pairs = [
            ("f32[80,48]{1,0}", "f32[80,48]{0,1}"),
            ("f32[72,40]{1,0}", "f32[72,40]{0,1}"),
            ("u8[128,192]{1,0}", "u8[128,192]{0,1}"),
            ("u8[66,70]{1,0}", "u8[66,70]{0,1}"),
            ("bf16[96,64]{1,0}", "bf16[96,64]{0,1}"),
            ("s16[40,33]{1,0}", "s16[40,33]{0,1}"),
            ("f64[40,24]{1,0}", "f64[40,24]{0,1}"),
            ("c128[20,12]{1,0}", "c128[20,12]{0,1}"),
            ("f32[40,384]{1,0}", "f32[40,384]{0,1:T(8,128)}"),
            ("f32[24,260]{1,0}", "f32[24,260]{0,1:T(8,128)}"),
            ("f32[16,256]{1,0:T(8,128)}", "f32[16,256]{0,1:T(8,128)}"),
            ("f64[16,256]{1,0}", "f64[16,256]{0,1:T(8,128)}"),
            ("f64[24,384]{1,0:T(8,128)}", "f64[24,384]{0,1:T(8,128)}"),
            ("bf16[32,512]{1,0}", "bf16[32,512]{0,1:T(8,128)}"),
            ("bf16[24,260]{1,0}", "bf16[24,260]{0,1:T(8,128)}"),
            ("bf16[16,384]{1,0:T(8,128)}", "bf16[16,384]{0,1:T(8,128)}"),
            ("u8[256,64]{1,0}", "u8[256,64]{0,1:T(8,128)}"),
            ("s8[384,136]{1,0}", "s8[384,136]{0,1:T(8,128)}"),
            ("u8[64,256]{1,0}", "u8[64,256]{0,1:T(8,128)}"),
            ("bf16[32,256]{1,0}", "bf16[32,256]{0,1:T(8,128)(2,1)}"),
            ("s8[64,256]{1,0}", "s8[64,256]{1,0:T(32,128)(4,1)}"),
            ("f32[8,16,16,8]{3,2,1,0}", "f32[8,16,16,8]{0,1,2,3}"),
            ("f32[1024,64]{1,0}", "f32[1024,64]{0,1}"),
            ("f64[520,48]{1,0}", "f64[520,48]{0,1}"),
            ("f32[32,16,16,16]{3,2,1,0}", "f32[32,16,16,16]{0,1,2,3}"),
            ("f32[16,16,32,16]{3,2,1,0}", "f32[16,16,32,16]{1,0,3,2}"),
            ("bf16[4,8,16,32]{3,2,1,0}", "bf16[4,8,16,32]{0,1,2,3}"),
            ("u8[8,64,4,64]{3,2,1,0}", "u8[8,64,4,64]{0,1,2,3}"),
            ("bf16[16,256]{1,0}", "bf16[16,256]{1,0:T(8,128)(2,1)}"),
            ("u8[64,256]{1,0}", "u8[64,256]{1,0:T(64,128)(8,1)}"),
            ("bf16[32,256]{1,0:T(8,128)(2,1)}", "bf16[32,256]{0,1}"),
            (
                "bf16[30,260]{1,0:T(8,128)(2,1)}",
                "bf16[30,260]{0,1:T(8,128)}",
            ),
            ("u8[64,256]{1,0:T(32,128)(4,1)}", "u8[64,256]{0,1:T(8,128)}"),
            (
                "u8[64,256]{1,0:T(8,128)(8,1)}",
                "u8[64,256]{1,0:T(32,128)(4,1)}",
            ),
            ("f32[16,256]{1,0:T(8,128)(2,1)}", "f32[16,256]{0,1}"),
            (
                "bf16[32,256]{1,0:T(8,128)(2,1)}",
                "bf16[32,256]{0,1:T(8,128)(2,1)}",
            ),
            (
                "bf16[30,260]{1,0:T(8,128)(2,1)}",
                "bf16[30,260]{0,1:T(8,128)(2,1)}",
            ),
            (
                "s8[64,256]{1,0:T(32,128)(4,1)}",
                "s8[64,256]{0,1:T(32,128)(4,1)}",
            ),
            (
                "s8[36,300]{1,0:T(32,128)(4,1)}",
                "s8[36,300]{0,1:T(32,128)(4,1)}",
            ),
            (
                "f32[16,256]{1,0:T(8,128)(2,1)}",
                "f32[16,256]{0,1:T(8,128)(2,1)}",
            ),
            ("u8[70,200]{1,0}", "u8[70,200]{1,0:T(64,128)(8,1)}"),
            ("s4[64,256]{1,0:E(4)}", "s4[64,256]{1,0:T(64,128)(8,1)E(4)}"),
            ("s4[16,256]{1,0:E(4)}", "s4[16,256]{1,0:T(8,128)(2,1)E(4)}"),
            ("u8[64,256]{1,0}", "u8[64,256]{1,0:T(8,32)}"),
            ("u8[20,100]{1,0}", "u8[20,100]{1,0:T(8,32)}"),
            ("f32[24,40]{1,0}", "f32[24,40]{1,0:T(8,4)}"),
            ("u8[32,64]{1,0}", "u8[32,64]{1,0:T(8,16)}"),
            ("f32[24,16]{1,0}", "f32[24,16]{1,0:T(8,2)}"),
            ("f32[15,16]{1,0}", "f32[15,16]{1,0:T(3,2)}"),
            ("u8[16,96]{1,0}", "u8[16,96]{1,0:T(8,48)}"),
            ("bf16[12,48]{1,0}", "bf16[12,48]{1,0:T(4,24)}"),
            ("f32[16,24]{1,0}", "f32[16,24]{1,0:T(8,3)}"),
            ("u8[32,256]{1,0}", "u8[32,256]{1,0:T(8,64)}"),
            ("bf16[24,192]{1,0}", "bf16[24,192]{1,0:T(8,64)}"),
            ("f32[16,80]{1,0}", "f32[16,80]{1,0:T(8,20)}"),
            ("u8[16,1200]{1,0}", "u8[16,1200]{1,0:T(8,8)}"),
            ("u8[8,1344]{1,0}", "u8[8,1344]{1,0:T(8,32)}"),
            ("u8[24,8192]{1,0}", "u8[24,8192]{1,0:T(8,32)}"),
            ("bf16[40,4096]{1,0}", "bf16[40,4096]{1,0:T(8,16)}"),
            ("u8[6,72]{1,0}", "u8[6,72]{1,0:T(3,8)}"),
            ("f32[8,600]{1,0}", "f32[8,600]{1,0:T(8,2)}"),
            ("u8[1100,16]{1,0}", "u8[1100,16]{1,0:T(1100,8)}"),
            ("u8[2048,512]{1,0}", "u8[2048,512]{1,0:T(2048,8)}"),
            ("u2[16,512]{1,0:E(2)}", "u2[16,512]{1,0:T(8,128)E(2)}"),
            ("s4[256,256]{1,0:E(4)}", "s4[256,256]{0,1:E(4)}"),
            (
                "s4[256,256]{1,0:T(8,128)E(4)}",
                "s4[256,256]{0,1:T(8,128)E(4)}",
            ),
            ("s4[30,100]{1,0:E(4)}", "s4[30,100]{0,1:E(4)}"),
            ("u2[128,256]{1,0:E(2)}", "u2[128,256]{0,1:E(2)}"),
            ("u1[256,512]{1,0:E(1)}", "u1[256,512]{0,1:E(1)}"),
            ("u1[64,256]{1,0:E(1)}", "u1[64,256]{1,0:T(8,128)(2,1)E(1)}"),
            ("s4[64,256]{0,1:E(4)}", "s4[64,256]{1,0:T(32,128)(4,1)E(4)}"),
            ("s4[64,256]{1,0:E(4)}", "s4[64,256]{0,1:T(64,128)(8,1)E(4)}"),
            ("s4[60,200]{0,1:E(4)}", "s4[60,200]{1,0:T(32,128)(4,1)E(4)}"),
            ("s4[62,200]{0,1:E(4)}", "s4[62,200]{1,0:T(32,128)(4,1)E(4)}"),
            ("u2[64,256]{1,0:E(2)}", "u2[64,256]{1,0:T(32,128)(4,1)E(2)}"),
            ("u2[30,300]{1,0:E(2)}", "u2[30,300]{1,0:T(8,128)(2,1)E(2)}"),
            ("u2[32,512]{1,0:E(2)}", "u2[32,512]{1,0:T(8,128)(2,1)E(2)}"),
            ("s4[16,256]{1,0:E(4)}", "s4[16,256]{1,0:T(8,128)E(4)}"),
            // Destination rows not whole lines apart, in panels: partial lines carried from
            // block to block; past the carry's slots (16384 rows), rows sharing them.
            ("bf16[300,385]{1,0}", "bf16[300,385]{0,1}"),
            ("f32[257,200]{1,0}", "f32[257,200]{0,1}"),
            ("u8[520,300]{1,0}", "u8[520,300]{0,1}"),
            ("u8[130,17000]{1,0}", "u8[130,17000]{0,1}"),
        ];
        for avx2 in [true, false] {
            crate::tensor::with_avx2(avx2, || {
                for (a, b) in pairs {
                    check_both_ways(a, b, true);
                }
            });
        }
    }

    /// Transposes and interleaves of bit fields whose tiles overhang the array go as an
    /// interior and its edges ([`Peeled`]): every element in place, each slot written once,
    /// padding left as it is; one or two dims overhanging, rank 2 and 3, slots of 1 to 4
    /// bytes and `E(4)` fields, streamed or not.
    #[test]
    fn peeled_copies_put_every_element_in_place() {
        let pairs = [
            ("f32[1000,260]{1,0}", "f32[1000,260]{0,1:T(8,128)}"),
            ("f32[300,400]{0,1:T(8,128)}", "f32[300,400]{1,0:T(8,128)}"),
            ("bf16[520,200]{1,0:T(8,128)(2,1)}", "bf16[520,200]{0,1}"),
            ("u8[1300,1300]{1,0}", "u8[1300,1300]{0,1:T(8,128)}"),
            ("f32[3,100,300]{2,1,0}", "f32[3,100,300]{1,2,0:T(8,128)}"),
            // Interleaves of `E(4)` fields.
            (
                "s4[1001,256]{1,0:E(4)}",
                "s4[1001,256]{1,0:T(8,128)(2,1)E(4)}",
            ),
            (
                "s4[530,300]{1,0:E(4)}",
                "s4[530,300]{1,0:T(32,128)(4,1)E(4)}",
            ),
            // Rows of `E(4)` fields half a byte apart, zipped as they are: 383 columns leave
            // 127 past the tiles, pieces of 64 and 32 and one of 32 that clips (31 inside).
            (
                "s4[1064,383]{1,0:E(4)}",
                "s4[1064,383]{1,0:T(8,128)(2,1)E(4)}",
            ),
            // Edges in pieces whose fields start inside a byte: 263 columns leave 7 past
            // the tiles, pieces of 4, 2 and 1; the last starts 6 fields in, 12 source bits
            // (`E(2)`), 6 source and 12 destination bits (`E(1)`, a column of `(2,1)` pairs).
            (
                "u2[1064,263]{1,0:T(8,128)E(2)}",
                "u2[1064,263]{1,0:T(8,128)(2,1)E(2)}",
            ),
            (
                "u1[2064,263]{1,0:T(8,128)E(1)}",
                "u1[2064,263]{1,0:T(8,128)(2,1)E(1)}",
            ),
        ];
        for (a, b) in pairs {
            let plan = CopyPlan::new(&parse_array(a).unwrap(), &parse_array(b).unwrap()).unwrap();
            assert!(
                matches!(plan.how, How::Peeled(_)),
                "{a} -> {b}: {:?}",
                plan.how
            );
            for stream in [false, true] {
                check_both_ways(a, b, stream);
            }
            // In parts, one at a time (the edges go with part 0), as in one call.
            let src: Vec<u8> = (0..plan.src_bytes()).map(|k| (k % 251) as u8).collect();
            let mut whole = alloc::vec![0u8; plan.dst_bytes()];
            let mut parts = whole.clone();
            plan.copy(&src, &mut whole).unwrap();
            for k in (0..plan.parts()).rev() {
                plan.copy_parts(&src, &mut parts, k..k + 1).unwrap();
            }
            assert!(parts == whole, "{a} -> {b}: in parts");
        }
    }

    /// Tile rows of packed fields to rows that start anywhere in a line or inside a byte go
    /// a band of destination rows at a time where the copy streams (`bits::bands`): every
    /// field in place, the last band (cut by the array's edge) and the bits around the
    /// array left as they were.
    #[test]
    fn banded_tile_rows_put_every_field_in_place() {
        let mut detiled = 0;
        for (a, b) in [
            ("s4[64,1000]{1,0:T(8,128)E(4)}", "s4[64,1000]{1,0:E(4)}"),
            ("s4[61,999]{1,0:T(8,128)E(4)}", "s4[61,999]{1,0:E(4)}"),
            ("u2[40,2047]{1,0:T(8,128)E(2)}", "u2[40,2047]{1,0:E(2)}"),
            ("u1[27,4001]{1,0:T(8,128)E(1)}", "u1[27,4001]{1,0:E(1)}"),
            ("s4[16,1001]{1,0:T(8,128)E(4)}", "s4[16,1001]{1,0:E(4)M(3)}"),
            // Bands of one row of an odd count of fields: every other starts inside a byte.
            ("s4[21,1999]{1,0:T(1,128)E(4)}", "s4[21,1999]{1,0:E(4)}"),
            ("u2[13,4095]{1,0:T(1,128)E(2)}", "u2[13,4095]{1,0:E(2)}"),
        ] {
            // Bands of fields (rows of 1000 `E(4)` fields go as bytes) of tiles of 8 rows go a
            // tile at a time (`bits::Tiles`), the others run by run.
            let plan = CopyPlan::new(&parse_array(a).unwrap(), &parse_array(b).unwrap()).unwrap();
            if let How::Bits { nest, fields } = &plan.how {
                let tiles = crate::tensor::bits::Tiles::of(nest, fields.dst_bits);
                assert_eq!(tiles.is_some(), a.contains("T(8,"), "{a} -> {b}: {tiles:?}");
                detiled += usize::from(tiles.is_some());
            }
            for stream in [true, false] {
                check_both_ways(a, b, stream);
            }
        }
        assert_eq!(detiled, 4);
    }

    /// `(4,1)` groups of `E(4)`, `E(2)` and `E(1)` fields against those of the transposed
    /// layout go in one step as 8-, 4- and 2-byte slots, each a `4 × 4` block of fields
    /// transposed within, `(2,1)` pairs of `E(2)` fields as bytes of `2 × 2`
    /// (`digits::folded`, `lanes::FIELD_SQUARES`, `lanes::CRUMB_PAIRS`), peeled where the
    /// tiles overhang: every field in place both ways, streamed or not, with and without AVX2.
    #[test]
    fn sub_byte_squares_fold_into_slots() {
        for (a, b) in [
            (
                "s4[512,1024]{1,0:T(32,128)(4,1)E(4)}",
                "s4[512,1024]{0,1:T(32,128)(4,1)E(4)}",
            ),
            (
                "s4[1024,1024]{1,0:T(8,128)(4,1)E(4)}",
                "s4[1024,1024]{0,1:T(8,128)(4,1)E(4)}",
            ),
            (
                "s4[1000,1000]{1,0:T(8,128)(4,1)E(4)}",
                "s4[1000,1000]{0,1:T(8,128)(4,1)E(4)}",
            ),
            (
                "u2[512,1024]{1,0:T(8,128)(4,1)E(2)}",
                "u2[512,1024]{0,1:T(8,128)(4,1)E(2)}",
            ),
            (
                "u1[1024,1024]{1,0:T(8,128)(4,1)E(1)}",
                "u1[1024,1024]{0,1:T(8,128)(4,1)E(1)}",
            ),
            (
                "s2[1000,1000]{1,0:T(8,128)(4,1)E(2)}",
                "s2[1000,1000]{0,1:T(8,128)(4,1)E(2)}",
            ),
            (
                "u2[512,1024]{1,0:T(8,128)(2,1)E(2)}",
                "u2[512,1024]{0,1:T(8,128)(2,1)E(2)}",
            ),
        ] {
            for (x, y) in [(a, b), (b, a)] {
                let plan =
                    CopyPlan::new(&parse_array(x).unwrap(), &parse_array(y).unwrap()).unwrap();
                let folded = |how: &How| {
                    matches!(how, How::Words { nest, .. }
                        if matches!(nest.kernel, Kernel::Block { form: Form::Lanes { inner: 2.., .. }, .. }))
                };
                let found = match &plan.how {
                    How::Peeled(p) => folded(&p.interior.how),
                    how => folded(how),
                };
                assert!(found, "{x} -> {y}: {:?}", plan.how);
            }
            for avx2 in [true, false] {
                for stream in [false, true] {
                    crate::tensor::with_avx2(avx2, || check_both_ways(a, b, stream));
                }
            }
        }
    }

    /// A transpose and a sub-tile at once of bit fields whose tiles overhang the array goes
    /// through the layout without the sub-tile, each step peeled where it can be (neither
    /// step in one plan moves half a vector without a field at a time at the edges): every
    /// field in place, both ways, streamed or not.
    #[test]
    fn sub_tiled_packed_transposes_peel_their_steps() {
        let (a, b) = (
            "u1[1000,1000]{1,0:E(1)}",
            "u1[1000,1000]{0,1:T(8,128)(2,1)E(1)}",
        );
        let plan = CopyPlan::new(&parse_array(a).unwrap(), &parse_array(b).unwrap()).unwrap();
        let How::Through(t) = &plan.how else {
            panic!("{a} -> {b}: two steps, not {:?}", plan.how);
        };
        let peeled = |p: &CopyPlan| matches!(p.how, How::Peeled(_));
        assert!(peeled(&t.first) || peeled(&t.second), "{a} -> {b}: {t:?}");
        for stream in [false, true] {
            check_both_ways(a, b, stream);
        }
    }

    /// The slabs of the two-step copy `a -> b`, after checking that every field of it lands
    /// where the naive copy puts it, both ways, streamed or not.
    fn odd_transpose_slabs(a: &str, b: &str) -> super::Slabs {
        let plan = CopyPlan::new(&parse_array(a).unwrap(), &parse_array(b).unwrap()).unwrap();
        let How::Through(t) = &plan.how else {
            panic!("a two-step copy: {:?}", plan.how);
        };
        for stream in [false, true] {
            check_both_ways(a, b, stream);
        }
        t.slabs.expect("slabs")
    }

    #[test]
    fn odd_packed_transposes_go_in_slabs() {
        // Rows of 801 `E(4)` fields start inside bytes: the transpose goes through rows
        // padded to 802, whose first step's dim 0 loops clip at 801; its loop over dim 1
        // still moves whole slabs of the intermediate (its reach bounded by the clip).
        let slabs = odd_transpose_slabs("s4[801,4096]{1,0:E(4)}", "s4[801,4096]{0,1:E(4)}");
        assert!(slabs.count > 1, "{slabs:?}");
        // Destination rows of 4097 fields, padded to 2049 bytes: the transpose's sweep of
        // 1024 of them (2 MiB) is halved until a slab fits [`PADDED_SLAB_BYTES`].
        let slabs = odd_transpose_slabs("s4[4097,2048]{1,0:E(4)}", "s4[4097,2048]{0,1:E(4)}");
        assert_eq!((slabs.bits / 8, slabs.count), (256 * 2049, 8), "{slabs:?}");
    }

    /// Two-step copies whose slab loop the array's edge clips in one step and not the other
    /// (`Slabs::of`): the padded rows of `u2[1999,2001]` one at a time, then in blocks that
    /// reach row 2048; tiles of 8 rows whose last reaches row 1000 of 999. They go in slabs,
    /// the last one cut short, and every element lands where the naive copy puts it.
    #[test]
    fn steps_whose_slab_loops_clip_go_in_slabs() {
        for (a, b) in [
            ("u2[1999,2001]{1,0:E(2)}", "u2[1999,2001]{0,1:E(2)}"),
            (
                "u8[1000,1000]{1,0:T(8,128)(2,1)}",
                "u8[1000,1000]{0,1:T(8,128)(4,1)}",
            ),
            ("bf16[999,1001]{1,0:T(8,128)(2,1)}", "bf16[999,1001]{0,1}"),
        ] {
            let plan = CopyPlan::new(&parse_array(a).unwrap(), &parse_array(b).unwrap()).unwrap();
            let mut slabbed = Vec::new();
            let mut stack = alloc::vec![&plan];
            while let Some(p) = stack.pop() {
                if let How::Through(t) = &p.how {
                    slabbed.extend(t.slabs);
                    stack.extend([&t.first, &t.second]);
                }
            }
            assert!(
                slabbed.iter().any(|s| s.count > 1),
                "{a} -> {b}: {:?}",
                plan.how
            );
            for stream in [false, true] {
                check_both_ways(a, b, stream);
            }
        }
    }

    /// The parts of the copy `a -> b`, which must be peeled ([`Peeled`]), and the bytes
    /// (destination, source) each part past the interior starts into the buffers.
    fn peeled_shifts(a: &str, b: &str) -> (Peeled, Vec<(usize, usize)>) {
        let plan = CopyPlan::new(&parse_array(a).unwrap(), &parse_array(b).unwrap()).unwrap();
        let How::Peeled(p) = plan.how else {
            panic!("{a} -> {b}: {:?}", plan.how);
        };
        let shifts = p.edges.iter().map(|e| e.2).collect();
        (*p, shifts)
    }

    /// Transposed tiles of a count no power of two above 1 divides (125 tile columns of 8
    /// rows), whose blocks could not be widened past a tile's 8 rows of `E(4)` fields (4
    /// bytes), go in boxes along the tile columns: 64 of them, widened to 64 tile columns
    /// (512 rows, the destination's 4 lines), then the last 64, from tile column 61 (3
    /// copied twice). That box starts 61 · 8 fields (244 bytes) into each destination row,
    /// and 61 source tile rows of 8 · 1024 fields (4096 bytes each) in.
    #[test]
    fn odd_tile_counts_go_in_boxes() {
        let (a, b) = ("s4[1024,1000]{0,1:T(8,128)E(4)}", "s4[1024,1000]{1,0:E(4)}");
        let (p, shifts) = peeled_shifts(a, b);
        assert_eq!(shifts, [(244, 61 * 4096)]);
        for plan in core::iter::once(&p.interior).chain(p.edges.iter().map(|e| &e.0)) {
            match plan.how.nest().map(|(n, _)| n.kernel) {
                Some(Kernel::Block {
                    a,
                    form: Form::Lanes { wide, .. },
                    ..
                }) => assert_eq!(a.size * wide[0].size, 512, "{:?}", plan.how),
                other => panic!("{a} -> {b}: vector blocks, not {other:?}"),
            }
        }
        // Every element in place: boxes with no edge, boxes of an array whose tiles overhang
        // too (each box with its edges), of bytes, and of `E(2)` and `E(1)` fields (whose
        // transposes have vector blocks only; tiles of 2 rows, 500 tile columns).
        for (a, b) in [
            (a, b),
            ("s4[1000,1000]{0,1:T(8,128)E(4)}", "s4[1000,1000]{1,0:E(4)}"),
            ("u8[1000,776]{0,1:T(8,128)}", "u8[1000,776]{1,0}"),
            // 500 tile columns: blocks 4 wide (16 bytes) but in boxes.
            ("s4[512,4000]{0,1:T(8,128)E(4)}", "s4[512,4000]{1,0:E(4)}"),
            ("u2[1024,1000]{0,1:T(8,128)E(2)}", "u2[1024,1000]{1,0:E(2)}"),
            ("u1[2048,1000]{0,1:T(2,128)E(1)}", "u1[2048,1000]{1,0:E(1)}"),
        ] {
            peeled_shifts(a, b);
            for stream in [false, true] {
                check_both_ways(a, b, stream);
            }
        }
    }

    /// An edge goes in pieces of the powers of two its extent is the sum of, each from its
    /// own offset: `bf16[520,200]` has 72 columns past its one whole tile column, pieces of 64
    /// and 8. The first starts at that tile column: 128 destination rows of 520 elements
    /// (133120 bytes) and one source tile of 8 × 128 elements (2048 bytes); the second 64
    /// columns on: 64 more destination rows (66560 bytes) and 64 columns of a source `(2,1)`
    /// sub-tile row (a column is a pair's 4 bytes: 256). Every element in place is
    /// `peeled_copies_put_every_element_in_place`.
    #[test]
    fn peeled_edges_go_in_pieces() {
        let (a, b) = ("bf16[520,200]{1,0:T(8,128)(2,1)}", "bf16[520,200]{0,1}");
        let (p, shifts) = peeled_shifts(a, b);
        assert_eq!(shifts, [(133120, 2048), (199680, 2304)]);
        let rows: Vec<usize> = p
            .edges
            .iter()
            .map(|(edge, ..)| match edge.how.nest().map(|(n, _)| n.kernel) {
                Some(Kernel::Block { b, .. }) => b.size,
                other => panic!("{a} -> {b}: a block kernel, not {other:?}"),
            })
            .collect();
        // Split, the edge would go in blocks of 8 rows (8 is the largest power of two that
        // divides 72).
        assert!(rows[0] > 8 && rows[1] == 8, "blocks of {rows:?} rows");
        // Back: an edge of destination tiles cut in dims of the source rows.
        let back = CopyPlan::new(&parse_array(b).unwrap(), &parse_array(a).unwrap()).unwrap();
        assert!(matches!(back.how, How::Peeled(_)), "{:?}", back.how);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]

        /// Channels to the minor dim and back (`NCHW` <-> `NHWC`), 2 to 15 of them (rows
        /// interleaved by `kernels::zip_any`, split by `unzip_any`; 2, 4 and 8 by the vector
        /// kernels; bytes split by shuffles with AVX2), at every width that fits, runs with and
        /// without a tail shorter than a chunk, streamed or not, with AVX2 and without: each
        /// element where the plans' offsets put it.
        #[test]
        fn channels_put_every_element_in_place(
            ty in proptest::sample::select(alloc::vec!["u8", "bf16", "f32", "f64"]),
            c in 2usize..16,
            (n, h, w) in (1usize..3, 1usize..12, 1usize..300),
            (whole, stream, avx2) in proptest::prelude::any::<(bool, bool, bool)>(),
        ) {
            // Rows of whole chunks of 16 slots (their runs' blocks), or of any length.
            let w = if whole { 16 * (1 + w % 24) } else { w };
            let a = alloc::format!("{ty}[{n},{c},{h},{w}]{{3,2,1,0}}");
            let b = alloc::format!("{ty}[{n},{c},{h},{w}]{{1,3,2,0}}");
            crate::tensor::with_avx2(avx2, || check_both_ways(&a, &b, stream));
        }

        /// Transposes of small arrays (most of them listed, see [`Schedule`]; the larger
        /// ones not), tiled or not on either side, through [`CopyPlan::run`], with AVX2 and
        /// without: each element where the plans' offsets put it, padding left as it was.
        #[test]
        fn small_copies_put_every_element_in_place(
            ty in proptest::sample::select(alloc::vec!["u8", "bf16", "f32", "f64"]),
            tiles in [(); 2].map(|()| proptest::sample::select(alloc::vec![
                "", ":T(4,4)", ":T(8,8)", ":T(2,2)", ":T(8,8)(2,1)", ":T(16,16)",
            ])),
            shape in (1usize..40, 1usize..70),
            avx2 in proptest::prelude::any::<bool>(),
        ) {
            let (rows, cols) = shape;
            let a = alloc::format!("{ty}[{rows},{cols}]{{1,0{}}}", tiles[0]);
            let b = alloc::format!("{ty}[{rows},{cols}]{{0,1{}}}", tiles[1]);
            crate::tensor::with_avx2(avx2, || {
                check_with(&a, &b, &|plan, src, dst| plan.run(src, dst, 0..plan.parts()));
            });
        }

        /// Streamed and in-cache copies between rows and tiles of short rows (1 to 256 bytes
        /// a tile row, the run kernels' fixed-size moves, pairs, staged tiles and rows), at
        /// every width, with and without padding: each element where the plans' offsets put
        /// it, padding left as it was.
        #[test]
        fn short_tile_rows_put_every_element_in_place(
            ty in proptest::sample::select(alloc::vec!["u8", "bf16", "f32", "f64"]),
            tile in (
                proptest::sample::select(alloc::vec![1usize, 2, 3, 4, 8]),
                proptest::sample::select(alloc::vec![1usize, 2, 4, 8, 16, 32]),
            ),
            shape in (1usize..24, 1usize..400),
            stream in proptest::prelude::any::<bool>(),
        ) {
            let ((tr, tc), (rows, cols)) = (tile, shape);
            let a = alloc::format!("{ty}[{rows},{cols}]{{1,0}}");
            let b = alloc::format!("{ty}[{rows},{cols}]{{1,0:T({tr},{tc})}}");
            check_both_ways(&a, &b, stream);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

        /// Streamed transposes (2-D, to and between transposed tiles, from sub-tiles whose
        /// groups move as wider slots, between sub-tiles along different dims, whose blocks
        /// move as slots transposed within, 4-D reversals) of random extents at every width (rows
        /// apart by a part of a page or by whole pages; whole transposed tiles, whose 8 rows of
        /// bytes make half a vector group), in AVX2
        /// registers or in 16-byte ones: each element where the plans' offsets put it, padding
        /// left as it was.
        #[test]
        fn streamed_transposes_put_every_element_in_place(
            ty in proptest::sample::select(alloc::vec!["u8", "bf16", "f32", "f64"]),
            form in 0usize..8,
            (long, short, tall) in (1usize..1100, 1usize..40, proptest::prelude::any::<bool>()),
            dims in (1usize..20, 1usize..10, 1usize..10, 1usize..40),
            pow in (2u32..6, 3u32..5, 3u32..5, 2u32..6),
            avx2 in proptest::prelude::any::<bool>(),
        ) {
            let (a, b) = match form {
                0 => ("{1,0}", "{0,1}"),
                1 | 5 => ("{1,0}", "{0,1:T(8,128)}"),
                2 => ("{1,0:T(8,128)}", "{0,1:T(8,128)}"),
                6 if ty == "u8" => ("{1,0:T(8,128)(4,1)}", "{0,1}"),
                6 => ("{1,0:T(8,128)(2,1)}", "{0,1}"),
                7 if ty == "u8" => ("{1,0:T(32,128)(4,1)}", "{0,1:T(32,128)(4,1)}"),
                7 => ("{1,0:T(8,128)(2,1)}", "{0,1:T(8,128)(2,1)}"),
                _ => ("{3,2,1,0}", "{0,1,2,3}"),
            };
            // Form 5: whole tiles (no padding), whose next tiles widen a tile's 8 rows.
            let (rows, cols) = match (form, tall) {
                (5, _) => (128 * (1 + short % 3), 8 * (1 + long % 48)),
                (_, true) => (long, short),
                _ => (short, long),
            };
            // Form 4: power-of-two extents, whose rows are whole pages apart.
            let dims = match form {
                4 => (1 << pow.0, 1 << pow.1, 1 << pow.2, 1 << pow.3),
                _ => dims,
            };
            let shape = if form == 3 || form == 4 {
                alloc::format!("{ty}[{},{},{},{}]", dims.0, dims.1, dims.2, dims.3)
            } else {
                alloc::format!("{ty}[{rows},{cols}]")
            };
            crate::tensor::with_avx2(avx2, || {
                check_both_ways(&alloc::format!("{shape}{a}"), &alloc::format!("{shape}{b}"), true);
            });
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

        /// Transposes in panels (`stream::PANEL_BYTES`: blocks staged whole, the next ones
        /// prefetched), streamed or not, taken here on arrays of any size: 2-D at every width
        /// and of `E(4)` fields, to and between transposed tiles, sub-tiles moved as wider slots or
        /// transposed within, 4-D reversals, of extents that fill whole panels or cut the last
        /// ones (copied at the edge element by element), in AVX2 registers or in 16-byte ones:
        /// each element where the plans' offsets put it, padding left as it was.
        #[test]
        fn panels_put_every_element_in_place(
            ty in proptest::sample::select(alloc::vec!["u8", "bf16", "f32", "f64", "c128", "s4"]),
            form in 0usize..7,
            (rows, cols, whole) in (64usize..700, 64usize..700, proptest::prelude::any::<bool>()),
            dims in (1usize..4, 1usize..4),
            avx2 in proptest::prelude::any::<bool>(),
            stream in proptest::prelude::any::<bool>(),
        ) {
            let (a, b) = match form {
                0 => ("{1,0}", "{0,1}"),
                1 => ("{1,0}", "{0,1:T(8,128)}"),
                2 => ("{1,0:T(8,128)}", "{0,1:T(8,128)}"),
                3 if ty == "u8" => ("{1,0:T(32,128)(4,1)}", "{0,1:T(32,128)(4,1)}"),
                3 => ("{1,0:T(8,128)(2,1)}", "{0,1}"),
                4 => ("{0,1:T(8,128)}", "{1,0}"),
                // Sub-tiles on both sides: slots of 2 × 2 elements transposed within (bytes:
                // `(4,1)` sub-tiles into `(8,1)` ones).
                6 if ty != "u8" => ("{1,0:T(8,128)(2,1)}", "{0,1:T(8,128)(2,1)}"),
                6 => ("{1,0:T(32,128)(4,1)}", "{1,0:T(8,128)(8,1)}"),
                _ => ("{3,2,1,0}", "{0,1,2,3}"),
            };
            let (rows, cols) = if whole {
                (128 << (rows % 3), 128 << (cols % 3))
            } else {
                (rows, cols)
            };
            // (A panel of `E(4)` fields is 128 rows of 512 fields.)
            let (rows, cols) = if ty == "s4" { (2 * rows, 4 * cols) } else { (rows, cols) };
            let shape = if form == 5 {
                alloc::format!("{ty}[{},{},{},{}]", 8 * dims.0, rows / 8, cols / 8, 16 * dims.1)
            } else {
                alloc::format!("{ty}[{rows},{cols}]")
            };
            // `s4` as `E(4)` fields on both sides (their transposes go through bytes).
            let packed = |layout: &str| match (ty, layout.contains(':')) {
                ("s4", true) => layout.replace('}', "E(4)}"),
                ("s4", false) => layout.replace('}', ":E(4)}"),
                _ => alloc::string::String::from(layout),
            };
            let (a, b) = (packed(a), packed(b));
            crate::tensor::nest::with_panels(stream, || {
                crate::tensor::with_avx2(avx2, || {
                    check_both_ways(&alloc::format!("{shape}{a}"), &alloc::format!("{shape}{b}"), stream);
                });
            });
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

        /// Transposes of packed fields (`E(4)`, `E(2)`, `E(1)`: 2-D, to and between
        /// transposed tiles, 4-D reversals) of random extents or of whole blocks, streamed or
        /// not, whose whole blocks go through bytes: each field where the plans' offsets put
        /// it, padding left as it was.
        #[test]
        fn packed_transposes_put_every_field_in_place(
            (ty, e) in proptest::sample::select(alloc::vec![("s4", 4), ("u4", 4), ("u2", 2), ("u1", 1)]),
            form in 0usize..4,
            (rows, cols, whole) in (1usize..300, 1usize..300, proptest::prelude::any::<bool>()),
            dims in (1usize..12, 1usize..12, 1usize..12, 1usize..40),
            stream in proptest::prelude::any::<bool>(),
        ) {
            // Whole blocks (extents of powers of two times a few) or any extents.
            let (rows, cols) = if whole {
                (128 << (rows % 3), 64 * (1 + cols % 6))
            } else {
                (rows, cols)
            };
            let dims = if whole {
                (1 << (dims.0 % 3), 2, 32 << (dims.2 % 2), 64)
            } else {
                dims
            };
            let (a, b) = match form {
                0 => ("{1,0", "{0,1"),
                1 => ("{1,0", "{0,1:T(8,128)"),
                2 => ("{1,0:T(8,128)", "{0,1:T(8,128)"),
                _ => ("{3,2,1,0", "{0,1,2,3"),
            };
            let packing = |l: &str| {
                let sep = if l.contains(':') { "" } else { ":" };
                alloc::format!("{l}{sep}E({e})}}")
            };
            let shape = if form == 3 {
                alloc::format!("{ty}[{},{},{},{}]", dims.0, dims.1, dims.2, dims.3)
            } else {
                alloc::format!("{ty}[{rows},{cols}]")
            };
            check_both_ways(
                &alloc::format!("{shape}{}", packing(a)),
                &alloc::format!("{shape}{}", packing(b)),
                stream,
            );
        }
    }

    /// Transposes in cache (not streamed): of 1 MiB and more, which stage their blocks'
    /// source rows, and smaller ones, transposed in place (rows into transposed tiles of
    /// bytes, whose 8-row sides scatter a vector group's rows over two tiles): each element
    /// where the plans' offsets put it.
    #[test]
    fn staged_copies_put_every_element_in_place() {
        let pairs = [
            ("u8[64,256]{1,0}", "u8[64,256]{0,1:T(8,128)}"),
            ("u8[1024,1024]{1,0}", "u8[1024,1024]{0,1:T(8,128)}"),
            ("f32[512,520]{1,0}", "f32[512,520]{0,1}"),
            ("f32[1024,256]{1,0}", "f32[1024,256]{0,1}"),
            ("f32[512,1024]{0,1:T(8,128)}", "f32[512,1024]{1,0}"),
            ("u8[1024,1040]{1,0}", "u8[1024,1040]{0,1}"),
            ("bf16[16,16,32,128]{3,2,1,0}", "bf16[16,16,32,128]{0,1,2,3}"),
        ];
        for (a, b) in pairs {
            check_both_ways(a, b, false);
        }
    }

    /// Transposes in panels of slots of 4, 8 and 16 bytes, which go in square blocks of
    /// 32-byte rows (`kernels::squares`): plain slots, slots of sub-tiles moved whole or
    /// transposed within (2 × 2 of bf16, 4 × 4 of s8), bytes zipped four rows to a word first,
    /// destination rows in tiles, extents that cut the last panels; streamed and with plain
    /// stores, each element where the plans' offsets put it.
    #[test]
    fn square_blocks_put_every_element_in_place() {
        let pairs = [
            ("f32[256,512]{1,0}", "f32[256,512]{0,1}"),
            ("f32[300,520]{1,0}", "f32[300,520]{0,1:T(8,128)}"),
            ("f64[256,256]{1,0:T(8,128)}", "f64[256,256]{0,1:T(8,128)}"),
            ("c128[130,256]{1,0}", "c128[130,256]{0,1}"),
            ("bf16[256,512]{1,0:T(8,128)(2,1)}", "bf16[256,512]{0,1}"),
            (
                "bf16[256,512]{1,0:T(8,128)(2,1)}",
                "bf16[256,512]{0,1:T(8,128)(2,1)}",
            ),
            (
                "bf16[200,264]{0,1:T(8,128)(2,1)}",
                "bf16[200,264]{1,0:T(8,128)(2,1)}",
            ),
            (
                "s8[256,512]{1,0:T(32,128)(4,1)}",
                "s8[256,512]{0,1:T(32,128)(4,1)}",
            ),
            (
                "f32[256,256]{1,0:T(8,128)(2,1)}",
                "f32[256,256]{0,1:T(8,128)(2,1)}",
            ),
            ("u8[512,256]{1,0}", "u8[512,256]{0,1}"),
            ("u8[264,520]{1,0}", "u8[264,520]{0,1:T(8,128)}"),
            ("u8[8,64,200]{2,1,0}", "u8[8,64,200]{0,1,2}"),
            ("s4[512,1024]{1,0:E(4)}", "s4[512,1024]{0,1:E(4)}"),
            (
                "s4[520,1000]{1,0:T(8,128)E(4)}",
                "s4[520,1000]{0,1:T(8,128)E(4)}",
            ),
            ("s4[264,700]{0,1:E(4)}", "s4[264,700]{1,0:T(8,128)E(4)}"),
            (
                "s4[512,1024]{1,0:T(8,128)(2,1)E(4)}",
                "s4[512,1024]{0,1:T(8,128)(2,1)E(4)}",
            ),
            (
                "s4[200,522]{1,0:T(8,128)(2,1)E(4)}",
                "s4[200,522]{0,1:T(8,128)(2,1)E(4)}",
            ),
            ("u2[512,2048]{1,0:E(2)}", "u2[512,2048]{0,1:E(2)}"),
            ("u2[264,1100]{0,1:E(2)}", "u2[264,1100]{1,0:T(8,128)E(2)}"),
            ("u2[512,2048]{1,0:T(8,128)E(2)}", "u2[512,2048]{0,1:E(2)}"),
            ("s4[512,1024]{1,0:T(2,128)E(4)}", "s4[512,1024]{0,1:E(4)}"),
            ("u1[1024,1024]{1,0:E(1)}", "u1[1024,1024]{0,1:E(1)}"),
            ("u1[1030,600]{1,0:T(8,128)E(1)}", "u1[1030,600]{0,1:E(1)}"),
            // Tile rows of 16 bytes, two to a register.
            ("u1[2048,384]{1,0:T(8,128)E(1)}", "u1[2048,384]{0,1:E(1)}"),
            ("u1[4100,256]{1,0:T(8,128)E(1)}", "u1[4100,256]{0,1:E(1)}"),
            ("u2[2048,192]{1,0:T(8,64)E(2)}", "u2[2048,192]{0,1:E(2)}"),
        ];
        for stream in [true, false] {
            crate::tensor::nest::with_panels(stream, || {
                crate::tensor::with_avx2(true, || {
                    for (a, b) in pairs {
                        check_both_ways(a, b, stream);
                    }
                });
            });
        }
    }

    /// Transposes in place past the L1 cache (64 KiB to 1 MiB), which go a run of blocks at
    /// a time: runs cut short at the end of a leaf (odd block counts), pairs of groups (1-
    /// and 2-byte slots), destination rows scattered over tiles, 4-D permutations.
    #[test]
    fn in_place_runs_put_every_element_in_place() {
        let pairs = [
            ("f32[240,272]{1,0}", "f32[240,272]{0,1}"),
            ("f64[176,208]{1,0}", "f64[176,208]{0,1}"),
            ("bf16[336,208]{1,0}", "bf16[336,208]{0,1}"),
            ("u8[400,304]{1,0}", "u8[400,304]{0,1:T(8,128)}"),
            ("f32[16,12,20,24]{3,2,1,0}", "f32[16,12,20,24]{1,0,3,2}"),
            (
                "s8[384,256]{1,0:T(32,128)(4,1)}",
                "s8[384,256]{0,1:T(32,128)(4,1)}",
            ),
        ];
        for (a, b) in pairs {
            check_both_ways(a, b, false);
        }
    }

    /// Transposes of at most `SMALL_BYTES` a side, run from their lists of groups: every
    /// slot width, pairs of groups and groups alone, slots of `2 × 2` and `4 × 4` elements,
    /// blocks the edge cuts (tiles that pad), a metadata prefix, a 4-D permutation; with AVX2
    /// and without.
    #[test]
    fn small_transposes_put_every_element_in_place() {
        let pairs = [
            ("u8[32,128]{1,0}", "u8[32,128]{0,1}"),
            ("u8[48,80]{1,0}", "u8[48,80]{0,1}"),
            ("u8[30,60]{1,0}", "u8[30,60]{0,1:T(16,16)}"),
            ("u8[32,64]{1,0:M(8)}", "u8[32,64]{0,1}"),
            ("u8[32,32]{1,0:T(4,4)}", "u8[32,32]{0,1:T(4,4)}"),
            ("bf16[16,128]{1,0}", "bf16[16,128]{0,1}"),
            ("bf16[24,40]{1,0}", "bf16[24,40]{0,1}"),
            ("bf16[32,32]{1,0:T(2,2)}", "bf16[32,32]{0,1:T(2,2)}"),
            (
                "bf16[30,28]{1,0:T(8,8)(2,2)}",
                "bf16[30,28]{0,1:T(8,8)(2,2)}",
            ),
            (
                "bf16[20,24]{1,0:T(8,8)(2,1)}",
                "bf16[20,24]{0,1:T(8,8)(2,1)}",
            ),
            ("f32[8,128]{1,0}", "f32[8,128]{0,1}"),
            ("f32[128,128]{1,0}", "f32[128,128]{0,1}"),
            ("f32[12,20]{1,0}", "f32[12,20]{0,1}"),
            ("f32[8,32]{1,0}", "f32[8,32]{0,1:T(8,32)}"),
            ("f32[30,28]{1,0:T(8,8)}", "f32[30,28]{0,1:T(8,8)}"),
            ("f32[10,12]{1,0:T(4,4)}", "f32[10,12]{0,1:T(4,4)}"),
            ("f32[8,8,8,8]{3,2,1,0}", "f32[8,8,8,8]{1,0,3,2}"),
            ("f64[8,64]{1,0}", "f64[8,64]{0,1}"),
            ("c128[16,16]{1,0}", "c128[16,16]{0,1}"),
        ];
        for avx2 in [true, false] {
            crate::tensor::with_avx2(avx2, || {
                for (a, b) in pairs {
                    check_listed(a, b);
                }
            });
        }
    }

    /// Blocks the array's edge cuts where some clipped loops step a tile at a time (tiles that
    /// pad, sub-tiles, packed fields): each way's edge slots one by one; streamed or not, and
    /// through `run` (listed where small transposes are).
    #[test]
    fn edge_blocks_put_every_element_in_place() {
        let pairs = [
            ("f32[8,171]{1,0:T(4,128)}", "f32[8,171]{0,1:T(4,128)}"),
            // A side of 2 slots that only widening would make a vector, the other side
            // overhanging (13 slots in blocks of 4): not widened, so not a vector block.
            ("f32[2,1,6,13]{3,2,1,0}", "f32[2,1,6,13]{0,1,2,3}"),
            ("f32[13,38]{1,0:T(2,128)}", "f32[13,38]{0,1:T(4,128)}"),
            ("f32[32,146]{1,0:T(8,8)}", "f32[32,146]{0,1:T(8,8)}"),
            ("f32[39,262]{1,0:T(8,8)}", "f32[39,262]{0,1:T(8,128)(2,1)}"),
            ("bf16[7,250]{1,0}", "bf16[7,250]{0,1:T(2,1)}"),
            ("bf16[8,231]{1,0:T(4,4)}", "bf16[8,231]{0,1:T(2,128)}"),
            ("bf16[15,153]{1,0:T(4,128)}", "bf16[15,153]{0,1:T(4,4)}"),
            ("u8[19,121]{1,0:T(1,128)}", "u8[19,121]{0,1:T(4,128)}"),
            (
                "u8[12,271]{1,0:T(4,4)(2,1)}",
                "u8[12,271]{0,1:T(32,128)(4,1)}",
            ),
            ("s4[29,242]{1,0:T(2,128)E(4)}", "s4[29,242]{0,1:T(2,1)E(4)}"),
            ("s4[19,259]{1,0:T(8,128)(2,1)E(4)}", "s4[19,259]{0,1:E(4)}"),
            ("u2[33,20]{1,0:T(2,1)E(2)}", "u2[33,20]{0,1:T(8,8)E(2)}"),
            (
                "u2[13,259]{1,0:T(4,128)E(2)}",
                "u2[13,259]{0,1:T(1,128)E(2)}",
            ),
        ];
        for (a, b) in pairs {
            for stream in [false, true] {
                check_both_ways(a, b, stream);
            }
            check_with(a, b, &|plan, src, dst| plan.run(src, dst, 0..plan.parts()));
        }
    }

    /// Permutations whose source-contiguous dim is 3, 5 or 7 slots (a square block's side
    /// whole): streamed or not, each way.
    #[test]
    fn short_minor_dims_put_every_element_in_place() {
        let pairs = [
            ("bf16[40,5,12,7]{3,2,1,0}", "bf16[40,5,12,7]{0,1,2,3}"),
            ("f32[33,6,3]{2,1,0}", "f32[33,6,3]{0,1,2}"),
            ("u8[70,9,5]{2,1,0}", "u8[70,9,5]{0,1,2}"),
            ("f32[64,6,5]{2,1,0}", "f32[64,6,5]{0,1,2}"),
        ];
        for (a, b) in pairs {
            for stream in [false, true] {
                check_both_ways(a, b, stream);
            }
        }
    }

    #[test]
    fn two_step_copies_put_every_element_in_place() {
        // (source, destination, whether the copy from the source to the destination goes a
        // slab at a time: a coverage flag, so that the slab path is known to run here, not a
        // value the copy's correctness rests on; the way back may not): sub-tiles of
        // two sizes across a transpose, and packed sub-tiles with a transpose; extents that
        // pad, several slabs, metadata prefixes, signed fields; `(4,1)` groups of bytes, and
        // sub-tiles of `E(4)` fields, along different dims.
        let pairs = [
            (
                "u8[256,512]{1,0:T(8,128)(8,1)}",
                "u8[256,512]{0,1:T(32,128)(4,1)}",
                true,
            ),
            (
                "u8[1024,1024]{1,0:T(8,128)(8,1)}",
                "u8[1024,1024]{0,1:T(32,128)(4,1)}",
                true,
            ),
            (
                "u8[100,300]{1,0:T(8,128)(8,1)}",
                "u8[100,300]{0,1:T(32,128)(4,1)}",
                true,
            ),
            (
                "u8[608,1536]{1,0:T(8,128)(8,1)}",
                "u8[608,1536]{0,1:T(32,128)(4,1)}",
                true,
            ),
            (
                "u8[64,256]{1,0:T(8,128)(8,1)M(8)}",
                "u8[64,256]{0,1:T(32,128)(4,1)M(24)}",
                true,
            ),
            // (Its pairs as 4-bit fields move less than a vector a side.)
            (
                "s2[48,384]{0,1:E(2)}",
                "s2[48,384]{1,0:T(8,128)(2,1)E(2)}",
                true,
            ),
        ];
        for (a, b, slabbed) in pairs {
            for (x, y) in [(a, b), (b, a)] {
                let plan =
                    CopyPlan::new(&parse_array(x).unwrap(), &parse_array(y).unwrap()).unwrap();
                match &plan.how {
                    How::Through(t) => assert!(
                        t.slabs.is_some() || !slabbed || x == b,
                        "{x} -> {y}: the whole intermediate at once"
                    ),
                    // (The way back may go in one step: without slabs, a copy of slots does.)
                    how => assert!(x == b, "{x} -> {y}: in one step, {how:?}"),
                }
            }
            for stream in [false, true] {
                check_both_ways(a, b, stream);
            }
        }
    }

    /// `E(1)` and `E(2)` fields that both sides keep in runs of 2 or 4 bits (the rows of a
    /// `(2,1)` sub-tile against the transposed layout, whose minor dim is theirs) go in one
    /// step as fields that wide ([`packed_as_fields`]): every element in place both ways,
    /// streamed or not, in several slabs' worth and where tiles overhang the array.
    #[test]
    fn packed_runs_go_as_wider_fields() {
        let pairs = [
            ("u2[64,256]{0,1:E(2)}", "u2[64,256]{1,0:T(8,128)(2,1)E(2)}"),
            (
                "u2[1024,4096]{0,1:E(2)}",
                "u2[1024,4096]{1,0:T(8,128)(2,1)E(2)}",
            ),
            (
                "s2[2048,1536]{0,1:E(2)}",
                "s2[2048,1536]{1,0:T(8,128)(2,1)E(2)}",
            ),
            ("u1[64,640]{0,1:E(1)}", "u1[64,640]{1,0:T(8,128)(2,1)E(1)}"),
            (
                "u1[2048,4096]{0,1:E(1)}",
                "u1[2048,4096]{1,0:T(8,128)(2,1)E(1)}",
            ),
            (
                "u1[256,512]{1,0:T(8,128)(4,1)E(1)}",
                "u1[256,512]{0,1:E(1)}",
            ),
        ];
        for (a, b) in pairs {
            for (x, y) in [(a, b), (b, a)] {
                let plan =
                    CopyPlan::new(&parse_array(x).unwrap(), &parse_array(y).unwrap()).unwrap();
                let bits = plan.src.bits;
                let wide =
                    |how: &How| matches!(how, How::Bits { fields, .. } if fields.src_bits > bits);
                let found = match &plan.how {
                    How::Peeled(p) => wide(&p.interior.how),
                    how => wide(how),
                };
                assert!(found, "{x} -> {y}: {:?}", plan.how);
            }
            for stream in [false, true] {
                check_both_ways(a, b, stream);
            }
        }
        // Tiles that overhang the array: its interior so, the edges in steps.
        for stream in [false, true] {
            check_both_ways(
                "u1[1000,1000]{0,1:E(1)}",
                "u1[1000,1000]{1,0:T(8,128)(2,1)E(1)}",
                stream,
            );
        }
    }

    /// Packed fields whose blocks do not start on bytes (odd extents across a transpose) go
    /// through the untiled side padded to whole bytes a row ([`padded_to_bytes`]; where both
    /// sides' rows start inside bytes, the transpose through the other side padded too), the
    /// intermediate the padded layout's size; where neither side pads (rows of whole bytes
    /// into odd transposed tiles), unpacked into bytes, relaid out and packed again
    /// ([`CopyPlan::through_bytes`]): every element in place both ways, streamed or not.
    #[test]
    fn fields_off_bytes_go_through_padding_or_bytes() {
        // (a, b, bytes of the intermediate from a to b, and from b to a)
        let padded = [
            // Rows of 301 fields into `T(302)`: 520 of 151 bytes; back the same.
            (
                "s4[301,520]{1,0:E(4)}",
                "s4[301,520]{0,1:E(4)}",
                520 * 151,
                520 * 151,
            ),
            // The source's rows of 517 into `T(518)`: 256 of 259 bytes.
            (
                "s4[256,517]{1,0:E(4)}",
                "s4[256,517]{0,1:E(4)}",
                256 * 259,
                256 * 259,
            ),
            // Both sides odd (rows of 259 and 130 crumbs): the destination padded.
            (
                "u2[130,259]{1,0:E(2)}",
                "u2[130,259]{0,1:E(2)}",
                259 * 33,
                130 * 65,
            ),
            (
                "s4[41,259]{1,0:E(4)}",
                "s4[41,259]{0,1:T(8,128)E(4)}",
                41 * 130,
                41 * 130,
            ),
        ];
        for (a, b, there, back) in padded {
            for (x, y, bytes) in [(a, b, there), (b, a, back)] {
                let plan =
                    CopyPlan::new(&parse_array(x).unwrap(), &parse_array(y).unwrap()).unwrap();
                let How::Through(t) = &plan.how else {
                    panic!("{x} -> {y}: {:?}", plan.how);
                };
                assert_eq!(
                    t.first.dst.bytes, bytes,
                    "{x} -> {y}: the padded intermediate"
                );
            }
            for stream in [false, true] {
                check_both_ways(a, b, stream);
            }
        }
        let (a, b) = ("s4[121,34]{1,0:E(4)}", "s4[121,34]{0,1:T(8,128)E(4)}");
        for (x, y) in [(a, b), (b, a)] {
            let plan = CopyPlan::new(&parse_array(x).unwrap(), &parse_array(y).unwrap()).unwrap();
            let How::Through(t) = &plan.how else {
                panic!("{x} -> {y}: {:?}", plan.how);
            };
            assert!(
                matches!(t.first.how, How::Through(_)),
                "{x} -> {y}: three steps through bytes"
            );
        }
        for stream in [false, true] {
            check_both_ways(a, b, stream);
        }
    }

    /// Sub-tiles of packed fields whose rows do not start on bytes (an odd minor extent) go
    /// through the tiles without the sub-tile, in slabs: runs of fields shifted onto bytes,
    /// then rows of bytes interleaved (or the other way); but for zips of `E(4)` rows, which
    /// read the rows half a byte in as they are (`bits::Half`), in one step. Every element in
    /// place.
    #[test]
    fn odd_packed_rows_zip_in_one_step_or_go_through_tiles() {
        let pairs = [
            ("s4[40,259]{1,0:E(4)}", "s4[40,259]{1,0:T(8,128)(2,1)E(4)}"),
            (
                "s4[3,70,301]{2,1,0:E(4)}",
                "s4[3,70,301]{2,1,0:T(32,128)(4,1)E(4)}",
            ),
            ("u2[24,131]{1,0:E(2)}", "u2[24,131]{1,0:T(8,128)(2,1)E(2)}"),
            ("u1[16,389]{1,0:E(1)}", "u1[16,389]{1,0:T(8,128)(2,1)E(1)}"),
        ];
        for (a, b) in pairs {
            for (x, y) in [(a, b), (b, a)] {
                let plan =
                    CopyPlan::new(&parse_array(x).unwrap(), &parse_array(y).unwrap()).unwrap();
                if x == a && x.starts_with("s4") {
                    let zip = plan.how.nest().map(|(n, _)| n.kernel);
                    assert!(
                        matches!(
                            zip,
                            Some(Kernel::Block {
                                form: Form::Zip,
                                ..
                            })
                        ),
                        "{x} -> {y}: a zip in one step, not {:?}",
                        plan.how
                    );
                    continue;
                }
                let How::Through(t) = &plan.how else {
                    panic!("{x} -> {y}: {:?}", plan.how);
                };
                assert!(t.slabs.is_some(), "{x} -> {y}: in slabs");
                let runs = [&t.first.how, &t.second.how].into_iter().any(|h| {
                    matches!(h, How::Bits { nest, .. } if matches!(nest.kernel, Kernel::Run(_)))
                });
                assert!(runs, "{x} -> {y}: a step of runs: {:?}", t.first.how);
            }
            for stream in [false, true] {
                check_both_ways(a, b, stream);
            }
        }
        // Runs alone.
        let runs = [
            ("s4[17,259]{1,0:E(4)}", "s4[17,259]{1,0:T(8,128)E(4)}"),
            ("u1[9,77]{1,0:E(1)}", "u1[9,77]{1,0:T(8,128)E(1)}"),
        ];
        for (a, b) in runs {
            for stream in [false, true] {
                check_both_ways(a, b, stream);
            }
        }
    }

    /// Runs of `E(4)` tile rows into destination rows that start inside bytes (an odd row
    /// length) follow the destination: the loop inside the runs' is the one whose runs follow
    /// each other there, so that each row goes out as one shifted run (`bits::gathered`), not
    /// a run of a tile at a time shifted and stored on its own. Every element in place both
    /// ways, streamed or not, with bands of rows and tiles cut by the array's edge.
    /// Transposes into destination rows that do not fill whole lines go through those rows
    /// padded to lines (`CopyPlan::through_lines`), in slabs: every byte of the destination
    /// is what the one-step copy writes, streamed or not.
    #[test]
    fn transposes_into_rows_off_lines_go_through_rows_padded_to_lines() {
        let pairs = [
            ("u8[200,4096]{1,0}", "u8[200,4096]{0,1}"),
            ("u8[100,16384]{1,0}", "u8[100,16384]{0,1}"),
            ("f32[370,1024]{1,0}", "f32[370,1024]{0,1}"),
            ("bf16[300,2048]{1,0}", "bf16[300,2048]{0,1}"),
            ("u8[3,500,2048]{2,1,0}", "u8[3,500,2048]{1,2,0}"),
        ];
        for (a, b) in pairs {
            let (sa, sb) = (parse_array(a).unwrap(), parse_array(b).unwrap());
            let (pa, pb) = (
                crate::Plan::new(&sa).unwrap(),
                crate::Plan::new(&sb).unwrap(),
            );
            // (The transposes of arrays this small go in panels only so told.)
            let (direct, through) = crate::tensor::nest::with_panels(true, || {
                let direct = CopyPlan::direct(&pa, &pb, sa.element_type, true);
                let through = CopyPlan::through_lines((&sa, &pa), (&sb, &pb), &direct);
                (direct, through)
            });
            let Some(mut through) = through else {
                panic!(
                    "{a} -> {b}: through rows padded to lines, not {:?}",
                    direct.how
                );
            };
            let How::Through(t) = &mut through.how else {
                panic!("{a} -> {b}: two steps, not {:?}", through.how);
            };
            assert!(t.slabs.is_some(), "{a} -> {b}: a slab at a time");
            // (The two steps, not the one-step copy that runs on more than one thread.)
            t.single = false;
            let mut src = AlignedBuf::filled(direct.src_bytes(), 0u8);
            for (k, x) in src.iter_mut().enumerate() {
                *x = (k.wrapping_mul(131) ^ (k >> 8)) as u8;
            }
            for stream in [false, true] {
                let mut want = AlignedBuf::filled(direct.dst_bytes(), 0xa5u8);
                direct.run_streamed(&src, &mut want, 0..direct.parts(), stream);
                let mut got = AlignedBuf::filled(through.dst_bytes(), 0xa5u8);
                through.run_streamed(&src, &mut got, 0..through.parts(), stream);
                assert!(got[..] == want[..], "{a} -> {b}, streamed {stream}");
            }
        }
    }

    /// Runs of packed fields from source rows that start inside bytes (an odd row of `E(2)`
    /// or `E(1)` fields, of `E(4)` fields into tiles a half line wide) into tiles follow the
    /// destination: the loop over a tile's rows innermost, each tile's runs back to back
    /// (`bits::scattered`), the edge tiles clipped; every element in place, streamed or not,
    /// on CPUs with AVX2 or without.
    #[test]
    fn runs_from_rows_inside_bytes_fill_tiles_in_order() {
        let pairs = [
            ("u2[19,1023]{1,0:E(2)}", "u2[19,1023]{1,0:T(8,128)E(2)}"),
            ("u1[17,2047]{1,0:E(1)}", "u1[17,2047]{1,0:T(8,128)E(1)}"),
            ("s4[9,1023]{1,0:E(4)}", "s4[9,1023]{1,0:T(8,64)E(4)}"),
            ("u2[2,9,511]{2,1,0:E(2)}", "u2[2,9,511]{2,1,0:T(8,128)E(2)}"),
        ];
        for (a, b) in pairs {
            let plan = CopyPlan::new(&parse_array(a).unwrap(), &parse_array(b).unwrap()).unwrap();
            let How::Bits { nest, .. } = &plan.how else {
                panic!("{a} -> {b}: runs of fields, not {:?}", plan.how);
            };
            let (Kernel::Run(run), [.., tiles, rows]) = (nest.kernel, nest.outer.as_slice()) else {
                panic!("{a} -> {b}: runs of fields, not {nest:?}");
            };
            assert_eq!(
                (rows.dst, tiles.dst),
                (run.size, rows.size * run.size),
                "{a} -> {b}: a tile's rows innermost, then the tiles: {nest:?}"
            );
            for (stream, avx2) in [(false, true), (true, true), (true, false)] {
                crate::tensor::with_avx2(avx2, || check_both_ways(a, b, stream));
            }
        }
    }

    #[test]
    fn runs_into_rows_inside_bytes_follow_the_destination() {
        let pairs = [
            ("s4[9,1031]{1,0:T(8,128)E(4)}", "s4[9,1031]{1,0:E(4)}"),
            ("s4[20,515]{1,0:T(8,128)E(4)}", "s4[20,515]{1,0:E(4)}"),
            ("u2[9,1031]{1,0:T(8,128)E(2)}", "u2[9,1031]{1,0:E(2)}"),
            ("u1[17,2055]{1,0:T(8,128)E(1)}", "u1[17,2055]{1,0:E(1)}"),
            (
                "s4[3,17,259]{2,1,0:T(8,128)E(4)}",
                "s4[3,17,259]{2,1,0:E(4)}",
            ),
        ];
        for (a, b) in pairs {
            let plan = CopyPlan::new(&parse_array(a).unwrap(), &parse_array(b).unwrap()).unwrap();
            let How::Bits { nest, .. } = &plan.how else {
                panic!("{a} -> {b}: runs of fields, not {:?}", plan.how);
            };
            let (Kernel::Run(run), Some(inner)) = (nest.kernel, nest.outer.last()) else {
                panic!("{a} -> {b}: runs of fields, not {nest:?}");
            };
            assert_eq!(
                inner.dst,
                run.size * run.dst,
                "{a} -> {b}: the loop whose runs follow each other innermost: {nest:?}"
            );
            for stream in [false, true] {
                check_both_ways(a, b, stream);
            }
        }
    }

    /// Copies `a` to `b` and back (`stream` forced on or off; not from a small transpose's
    /// list), checking that each element is where the plans' offsets put it and the padding
    /// is left as it was.
    fn check_both_ways(a: &str, b: &str, stream: bool) {
        check_with(a, b, &|plan, src, dst| {
            plan.run_streamed(src, dst, 0..plan.parts(), stream);
        });
    }

    /// [`check_both_ways`], each way a small transpose run from its list of groups (see
    /// [`Schedule`]), which both ways must have.
    fn check_listed(a: &str, b: &str) {
        check_with(a, b, &|plan, src, dst| {
            assert!(plan.small.is_some(), "a listed copy: {:?}", plan.how);
            plan.run(src, dst, 0..plan.parts());
        });
    }

    /// A way to run a copy: `run(plan, src, dst)`.
    type Run<'a> = &'a dyn Fn(&CopyPlan, &[u8], &mut [u8]);

    /// [`check_both_ways`], each way's copy run by `run`.
    fn check_with(a: &str, b: &str, run: Run<'_>) {
        let (a, b) = (parse_array(a).unwrap(), parse_array(b).unwrap());
        for (a, b) in [(&a, &b), (&b, &a)] {
            let plan = CopyPlan::new(a, b).unwrap();
            let mut src = AlignedBuf::filled(plan.src_bytes(), 0u8);
            for (k, x) in src.iter_mut().enumerate() {
                *x = (k.wrapping_mul(131) ^ (k >> 8)) as u8;
            }
            let mut dst = AlignedBuf::filled(plan.dst_bytes(), 0xa5u8);
            run(&plan, &src, &mut dst);
            let (pa, pb) = (crate::Plan::new(a).unwrap(), crate::Plan::new(b).unwrap());
            // Element bits at bit `at` of a buffer (fields low bits first), and marks
            // the bytes they lie in as written.
            let bits = pa.element_bits();
            let field = |buf: &[u8], at: usize| -> Vec<u8> {
                if bits >= 8 {
                    buf[at / 8..][..bits / 8].to_vec()
                } else {
                    alloc::vec![(buf[at / 8] >> (at % 8)) & ((1u8 << bits) - 1)]
                }
            };
            let mut written = alloc::vec![false; dst.len()];
            let offsets = pa.logical_offsets().zip(pb.logical_offsets());
            for (k, (s, d)) in offsets.enumerate() {
                let (s, d) = (
                    s * bits + 8 * pa.prefix_bytes(),
                    d * bits + 8 * pb.prefix_bytes(),
                );
                assert_eq!(
                    field(&src, s),
                    field(&dst, d),
                    "{a} -> {b}: element {k} in logical order"
                );
                written[d / 8..(d + bits).div_ceil(8)].fill(true);
            }
            let untouched: Vec<usize> = (0..dst.len())
                .filter(|&k| !written[k] && dst[k] != 0xa5)
                .collect();
            assert!(
                untouched.is_empty(),
                "{a} -> {b}: padding bytes {untouched:?}"
            );
        }
    }
}
