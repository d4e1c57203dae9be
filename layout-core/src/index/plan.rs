//! The tiling model (spec §8.2, XLA's `LinearIndexForNestedTiling` extended to `*`, tile rank
//! above array rank and the legacy padded dimensions): from logical index to element offset
//! and back, through a plan computed once per layout.

use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

use crate::index::program::Program;
use crate::model::tiling::{
    Step, checked_byte_size, element_bits, expand, layout_extents, physical_order, round_up,
};
use crate::model::{ArrayShape, Error, ErrorKind, Errors};
use crate::text::parse_array;

/// The widest the working index of a [`Plan`] may grow while tiles expand it. Plans are built
/// for layouts up to this width, so that `offset` can run in a fixed stack buffer.
///
/// ```
/// assert!(xla_layout::MAX_EXPANDED_RANK >= 32);
/// ```
pub const MAX_EXPANDED_RANK: usize = 64;

/// The most tiling steps (tiles, `*` merges and paddings for tiles of higher rank) a
/// [`Plan`] compiles. Real layouts take a handful; the bound keeps every walk over the steps
/// (offsets, closed forms, their depth) small for any input.
///
/// ```
/// use xla_layout::{parse_array, Plan, MAX_PLAN_STEPS};
/// let text = format!("f32[4]{{0:T{}}}", "(1)".repeat(MAX_PLAN_STEPS + 1));
/// assert!(Plan::new(&parse_array(&text).unwrap()).is_err());
/// ```
pub const MAX_PLAN_STEPS: usize = 1024;

/// A layout compiled for indexing: logical index ↔ element offset, and sizes.
///
/// Built once per layout from a valid, static array shape (or parsed from its text, see
/// [`FromStr`](#impl-FromStr-for-Plan)); [`Plan::offset`] then runs the offset compiled at
/// construction, with no allocation and no hardware divide.
///
/// ```
/// use xla_layout::{parse_array, Plan};
/// let plan = Plan::new(&parse_array("f32[3,5]{1,0:T(2,2)}").unwrap()).unwrap();
/// assert_eq!(plan.offset(&[2, 3]), 17); // docs/tiled_layout.md's worked example
/// assert_eq!(plan.physical_elements(), 24);
/// assert_eq!(plan.index_of(17), Some(vec![2, 3]));
/// assert_eq!(plan.index_of(23), None); // a padding slot
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub(crate) dims: Vec<usize>,
    pub(crate) physical: Vec<usize>,
    physical_extents: Vec<usize>,
    pub(crate) steps: Vec<Step>,
    pub(crate) expanded: Vec<usize>,
    pub(crate) strides: Vec<usize>,
    pub(crate) tiled_elements: usize,
    /// The offset, compiled: what [`Plan::offset`] runs.
    pub(crate) program: Program,
    /// Whether every element's offset is its row-major position (see
    /// [`Program::row_major`]): logical order is one run of slots.
    pub(crate) row_major: bool,
    physical_elements: usize,
    element_bits: usize,
    prefix_bytes: usize,
    size_bytes: usize,
}

fn unsupported(message: alloc::string::String) -> Errors {
    Errors::new(vec![Error::new(ErrorKind::Unsupported, None, message)])
}

fn to_usize(v: u64, what: &str) -> Result<usize, Errors> {
    usize::try_from(v)
        .map_err(|_| unsupported(format!("{what} {v} does not fit in usize on this target")))
}

impl Plan {
    /// Compiles the layout of a valid array with static or bounded dimensions.
    ///
    /// Errors: the validator's, an unbounded `?` dimension (no static extent), or a layout
    /// whose tiles expand the index past [`MAX_EXPANDED_RANK`] entries.
    ///
    /// ```
    /// use xla_layout::{parse_array, Plan};
    /// assert!(Plan::new(&parse_array("f32[?,784]").unwrap()).is_err());
    /// ```
    pub fn new(a: &ArrayShape) -> Result<Plan, Errors> {
        a.validate()?;
        let Some(extents) = layout_extents(a) else {
            return Err(unsupported(format!(
                "`{a}` has an unbounded `?` dimension, so its elements have no fixed offsets; \
                 give it a bound (`<=N`) or a static size"
            )));
        };
        let order = physical_order(a);
        let physical_sizes: Vec<u64> = order.iter().map(|&d| extents[d]).collect();
        let overflow = || unsupported(format!("the size of `{a}` overflows"));
        let (steps, expanded, widest) =
            expand(physical_sizes, &a.layout.tiles).ok_or_else(overflow)?;
        if steps.len() > MAX_PLAN_STEPS {
            return Err(unsupported(format!(
                "`{a}` takes {} tiling steps; index plans support up to {MAX_PLAN_STEPS}",
                steps.len()
            )));
        }
        if widest > MAX_EXPANDED_RANK {
            return Err(unsupported(format!(
                "`{a}` has {widest} dimensions once tiled; index plans support up to {MAX_EXPANDED_RANK}"
            )));
        }
        let mut strides = vec![0u64; expanded.len()];
        let mut acc = 1u64;
        for (s, &p) in strides.iter_mut().zip(&expanded).rev() {
            *s = acc;
            acc = acc.checked_mul(p).ok_or_else(overflow)?;
        }
        let tiled = acc;
        let physical_elements =
            round_up(tiled, a.layout.tail_padding_alignment_in_elements).ok_or_else(overflow)?;
        let size_bytes = checked_byte_size(a).ok_or_else(overflow)?;
        let dims = a
            .dims
            .iter()
            .map(|d| {
                to_usize(
                    u64::try_from(d.extent().unwrap_or(0)).unwrap_or(0),
                    "dimension",
                )
            })
            .collect::<Result<Vec<_>, _>>()?;
        let physical_extents = order
            .iter()
            .map(|&d| to_usize(extents[d], "dimension"))
            .collect::<Result<_, _>>()?;
        let expanded = expanded
            .iter()
            .map(|&e| to_usize(e, "tiled dimension"))
            .collect::<Result<Vec<_>, _>>()?;
        let strides = strides
            .iter()
            .map(|&s| to_usize(s, "stride"))
            .collect::<Result<Vec<_>, _>>()?;
        let program = Program::new(&dims, &order, &steps, &expanded, &strides);
        let row_major = program.row_major(&dims);
        Ok(Plan {
            row_major,
            dims,
            physical: order,
            physical_extents,
            steps,
            expanded,
            strides,
            tiled_elements: to_usize(tiled, "element count")?,
            program,
            physical_elements: to_usize(physical_elements, "element count")?,
            element_bits: to_usize(element_bits(a), "element size")?,
            prefix_bytes: to_usize(
                a.layout
                    .dynamic_shape_metadata_prefix_bytes
                    .max(0)
                    .unsigned_abs(),
                "metadata prefix",
            )?,
            size_bytes: to_usize(size_bytes, "byte size")?,
        })
    }

    /// The logical dimension sizes (bounds for `<=N`).
    ///
    /// ```
    /// let p = xla_layout::Plan::new(&xla_layout::parse_array("f32[<=4,3]").unwrap()).unwrap();
    /// assert_eq!(p.dims(), &[4, 3]);
    /// ```
    pub fn dims(&self) -> &[usize] {
        &self.dims
    }

    /// The shape after every tile, major to minor: the array as a row-major block of memory.
    ///
    /// ```
    /// let a = xla_layout::parse_array("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}").unwrap();
    /// let p = xla_layout::Plan::new(&a).unwrap();
    /// assert_eq!(p.expanded_dims(), &[1, 8, 160, 128, 4, 128, 2, 1]);
    /// ```
    pub fn expanded_dims(&self) -> &[usize] {
        &self.expanded
    }

    /// The physical shape (major to minor) before tiling and after each tile: the steps
    /// of docs/tiled_layout.md's pad -> reshape -> transpose, as shapes.
    ///
    /// ```
    /// let a = xla_layout::parse_array("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}").unwrap();
    /// let p = xla_layout::Plan::new(&a).unwrap();
    /// assert_eq!(
    ///     p.tiling_stages(),
    ///     [vec![1, 8, 1280, 16384], vec![1, 8, 160, 128, 8, 128], vec![1, 8, 160, 128, 4, 128, 2, 1]]
    /// );
    /// ```
    pub fn tiling_stages(&self) -> Vec<Vec<usize>> {
        let mut sizes = self.physical_extents.clone();
        let mut stages = vec![sizes.clone()];
        for step in &self.steps {
            match step {
                Step::Pad { by } => {
                    sizes.splice(0..0, core::iter::repeat_n(1, *by));
                }
                Step::Combine { at, .. } => {
                    sizes[at + 1] *= sizes[*at];
                    sizes.remove(*at);
                }
                Step::Tile {
                    start, sizes: t, ..
                } => {
                    for (j, &t) in t.iter().enumerate() {
                        sizes[start + j] = sizes[start + j].div_ceil(t as usize);
                    }
                    sizes.extend(t.iter().map(|&t| t as usize));
                    stages.push(sizes.clone());
                }
            }
        }
        stages
    }

    /// Row-major strides of [`expanded_dims`](Self::expanded_dims), in elements.
    ///
    /// ```
    /// let p = xla_layout::Plan::new(&xla_layout::parse_array("f32[3,5]{1,0:T(2,2)}").unwrap()).unwrap();
    /// assert_eq!(p.expanded_strides(), &[12, 4, 2, 1]);
    /// ```
    pub fn expanded_strides(&self) -> &[usize] {
        &self.strides
    }

    /// Logical dimension at each physical position, major to minor.
    ///
    /// ```
    /// let p = xla_layout::Plan::new(&xla_layout::parse_array("f32[8,100,100,3]{3,0,2,1}").unwrap()).unwrap();
    /// assert_eq!(p.physical_order(), &[1, 2, 0, 3]);
    /// ```
    pub fn physical_order(&self) -> &[usize] {
        &self.physical
    }

    /// Number of logical elements (product of the dims).
    ///
    /// ```
    /// let p = xla_layout::Plan::new(&xla_layout::parse_array("f32[3,5]{1,0:T(2,2)}").unwrap()).unwrap();
    /// assert_eq!(p.elements(), 15);
    /// ```
    pub fn elements(&self) -> usize {
        self.dims.iter().product()
    }

    /// Number of element slots of the fully tiled shape, before `L` rounding.
    ///
    /// ```
    /// let p = xla_layout::Plan::new(&xla_layout::parse_array("f32[200001,128]{1,0:T(8)L(1024)}").unwrap()).unwrap();
    /// assert_eq!(p.tiled_elements(), 25600128);
    /// ```
    pub fn tiled_elements(&self) -> usize {
        self.tiled_elements
    }

    /// Number of element slots in memory: the fully tiled shape rounded up to `L(n)`.
    ///
    /// ```
    /// let p = xla_layout::Plan::new(&xla_layout::parse_array("f32[200001,128]{1,0:T(8)L(1024)}").unwrap()).unwrap();
    /// assert_eq!(p.physical_elements(), 25601024);
    /// ```
    pub fn physical_elements(&self) -> usize {
        self.physical_elements
    }

    /// Storage bits per element (`E(n)` if set, else 8 × the type's byte width).
    ///
    /// ```
    /// let p = xla_layout::Plan::new(&xla_layout::parse_array("s4[8]{0:E(4)}").unwrap()).unwrap();
    /// assert_eq!(p.element_bits(), 4);
    /// ```
    pub fn element_bits(&self) -> usize {
        self.element_bits
    }

    /// Bytes of dynamic-shape metadata before the data (`M(n)`).
    ///
    /// ```
    /// let p = xla_layout::Plan::new(&xla_layout::parse_array("s32[<=4096]{0:T(8)M(1024)}").unwrap()).unwrap();
    /// assert_eq!(p.prefix_bytes(), 1024);
    /// ```
    pub fn prefix_bytes(&self) -> usize {
        self.prefix_bytes
    }

    /// Bytes in memory: `ceil(physical_elements × bits / 8) + M`.
    ///
    /// ```
    /// let a = xla_layout::parse_array("s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}").unwrap();
    /// assert_eq!(xla_layout::Plan::new(&a).unwrap().size_bytes(), 28311552);
    /// ```
    pub fn size_bytes(&self) -> usize {
        // Computed exactly (in 128 bits) and checked against i64::MAX in `new`.
        self.size_bytes
    }

    /// True when `index` has one in-bounds entry per dimension.
    ///
    /// ```
    /// let p = xla_layout::Plan::new(&xla_layout::parse_array("f32[2,3]").unwrap()).unwrap();
    /// assert!(p.in_bounds(&[1, 2]));
    /// assert!(!p.in_bounds(&[2, 0]));
    /// assert!(!p.in_bounds(&[0]));
    /// ```
    pub fn in_bounds(&self, index: &[usize]) -> bool {
        index.len() == self.dims.len() && index.iter().zip(&self.dims).all(|(i, d)| i < d)
    }

    /// The element offset of a logical index (index into the array of element slots).
    /// The index must be in bounds (checked with `debug_assert!`; out-of-bounds indices give
    /// an unspecified offset in release builds, never undefined behaviour).
    ///
    /// [`Plan::new`] compiles the tiling steps once: a division by a power-of-two tile size is
    /// a shift and a mask, any other a multiply by a precomputed reciprocal that is exact for
    /// every index a plan can hold. When every tile size is a power of two and no `*` merges
    /// dimensions (`T(8,128)`, `T(8,128)(2,1)`, untiled layouts), the offset is a sum of one
    /// `((index[d] >> shift) & mask) * stride` per tiled coordinate; untiled, of one
    /// `index[d] * stride` per dimension. See BENCHMARKS.md for its cost against a
    /// hand-written closed form.
    ///
    /// ```
    /// let a = xla_layout::parse_array("f32[4,8]{1,0:T(2,4)(2,1)}").unwrap();
    /// let p = xla_layout::Plan::new(&a).unwrap();
    /// assert_eq!(p.offset(&[2, 1]), 18); // docs/tiled_layout.md Figure 2
    /// ```
    #[inline]
    pub fn offset(&self, index: &[usize]) -> usize {
        debug_assert!(
            self.in_bounds(index),
            "index {index:?} out of bounds for dims {:?}",
            self.dims
        );
        self.program.eval(index)
    }

    /// The offsets of many indices at once: `out[n] = offset(indices[n])`, with the plan's
    /// compiled terms read once for the whole batch, each index's terms in full: for indices
    /// that share nothing that is what an [`offset`](Self::offset) call costs, while a loop
    /// of `offset` calls over a row lets the compiler hoist the row's terms out of the loop
    /// and runs 1.5 to 2.6 times faster than this (BENCHMARKS.md). For consecutive indices
    /// along one dimension (a row), [`offsets_along`](Self::offsets_along) computes one
    /// offset per tile row and is faster still. Indices are
    /// anything that views as `&[usize]`: arrays `[usize; R]`, `Vec<usize>`, slices. Each must
    /// be in bounds, as for `offset`.
    ///
    /// # Panics
    /// If `out.len() != indices.len()`.
    ///
    /// ```
    /// let p: xla_layout::Plan = "f32[3,5]{1,0:T(2,2)}".parse().unwrap();
    /// let indices = [[0, 0], [2, 3], [1, 4]];
    /// let mut out = [0; 3];
    /// p.offsets(&indices, &mut out);
    /// assert_eq!(out, [0, 17, 10]); // [1, 4]: tile (0, 2) at 8, then (1, 0) in it
    ///
    /// // A flat buffer of indices: view it in chunks of the rank.
    /// let flat = [0, 0, 2, 3, 1, 4];
    /// let chunks: Vec<&[usize]> = flat.chunks_exact(2).collect();
    /// p.offsets(&chunks, &mut out);
    /// assert_eq!(out, [0, 17, 10]);
    /// ```
    pub fn offsets<I: AsRef<[usize]>>(&self, indices: &[I], out: &mut [usize]) {
        assert_eq!(
            indices.len(),
            out.len(),
            "Plan::offsets: {} indices but {} output slots",
            indices.len(),
            out.len()
        );
        debug_assert!(indices.iter().all(|i| self.in_bounds(i.as_ref())));
        self.program.eval_many(indices, out);
    }

    /// [`offset`](Self::offset) if the index is in bounds, else `None`.
    ///
    /// ```
    /// let p = xla_layout::Plan::new(&xla_layout::parse_array("f32[3,5]{1,0:T(2,2)}").unwrap()).unwrap();
    /// assert_eq!(p.checked_offset(&[2, 3]), Some(17));
    /// assert_eq!(p.checked_offset(&[3, 0]), None);
    /// ```
    pub fn checked_offset(&self, index: &[usize]) -> Option<usize> {
        self.in_bounds(index).then(|| self.offset(index))
    }

    /// The bit offset of an element from the start of the buffer: `8·M + offset·bits`.
    /// Sub-byte elements are packed least-significant bits first, so the element lives in
    /// byte `bit / 8` at bits `bit % 8 ..`.
    ///
    /// A `u128`, because a buffer of up to `i64::MAX` bytes (XLA's limit) has up to 2^66 bits.
    ///
    /// ```
    /// let p = xla_layout::Plan::new(&xla_layout::parse_array("s4[2,3]{1,0:E(4)M(2)}").unwrap()).unwrap();
    /// assert_eq!(p.bit_offset(&[1, 0]), 16 + 3 * 4);
    /// ```
    pub fn bit_offset(&self, index: &[usize]) -> u128 {
        // Each factor is below 2^64, so neither product nor the sum overflows 128 bits.
        8 * self.prefix_bytes as u128 + self.offset(index) as u128 * self.element_bits as u128
    }

    /// The logical index stored at an element offset, or `None` for a padding slot or an
    /// offset past the end (XLA's `DelinearizeIndexForNestedTiling`, extended).
    ///
    /// ```
    /// let a = xla_layout::parse_array("bf16[2048]{0:T(1024)(128)(2,1)}").unwrap();
    /// let p = xla_layout::Plan::new(&a).unwrap();
    /// assert_eq!(p.index_of(1), Some(vec![128]));
    /// assert_eq!(p.index_of(2), Some(vec![1]));
    /// ```
    pub fn index_of(&self, offset: usize) -> Option<Vec<usize>> {
        if offset >= self.tiled_elements {
            return None;
        }
        let mut work: Vec<usize> = self
            .expanded
            .iter()
            .zip(&self.strides)
            .map(|(&p, &s)| (offset / s) % p)
            .collect();
        for step in self.steps.iter().rev() {
            match step {
                Step::Tile {
                    start,
                    sizes,
                    extents,
                } => {
                    let inner = work.split_off(work.len() - sizes.len());
                    for (j, (&t, r)) in sizes.iter().zip(inner).enumerate() {
                        let v = work[start + j] * t as usize + r;
                        if v as u64 >= extents[j] {
                            return None;
                        }
                        work[start + j] = v;
                    }
                }
                Step::Combine { at, mult } => {
                    let c = work[*at];
                    let m = *mult as usize;
                    work[*at] = c % m;
                    work.insert(*at, c / m);
                }
                Step::Pad { by } => {
                    if work[..*by].iter().any(|&i| i != 0) {
                        return None;
                    }
                    work.drain(..by);
                }
            }
        }
        let mut index = vec![0; self.dims.len()];
        for (&i, &d) in work.iter().zip(&self.physical) {
            if i >= self.dims[d] {
                return None;
            }
            index[d] = i;
        }
        Some(index)
    }
}

/// Parses and compiles a layout's text, as [`parse_array`] then
/// [`Plan::new`]. The errors are theirs, every one with a byte range into the text (the
/// plan's own, such as an unbounded `?` dimension, point at the whole text).
///
/// ```
/// use xla_layout::Plan;
/// let p: Plan = "bf16[8,1280]{1,0:T(8,128)(2,1)}".parse().unwrap();
/// assert_eq!(p.offset(&[1, 0]), 1); // (2,1): rows 0 and 1 interleave
///
/// let errors = "f32[2,3]{1,0:T(0)}".parse::<Plan>().unwrap_err();
/// assert_eq!(errors[0].span(), Some(15..16)); // the tile size 0
/// let errors = "f32[?,784]".parse::<Plan>().unwrap_err();
/// assert_eq!(errors[0].span(), Some(0..10));
/// ```
impl core::str::FromStr for Plan {
    type Err = Errors;

    fn from_str(text: &str) -> Result<Plan, Errors> {
        Plan::new(&parse_array(text)?).map_err(|errors| {
            Errors::new(
                errors
                    .into_iter()
                    .map(|e| match e.span() {
                        Some(_) => e,
                        None => Error::new(e.kind(), Some(0..text.len()), e.message()),
                    })
                    .collect(),
            )
        })
    }
}
