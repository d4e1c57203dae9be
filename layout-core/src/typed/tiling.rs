//! A static layout compiled at compile time from a type's readable arguments: the tiling steps,
//! the expanded shape, strides and sizes, in fixed-capacity arrays so that `const` items can
//! hold them. The steps are those of the runtime plan (`model::tiling::expand`, spec §8.2) and
//! run through the same functions (`index::steps`); `layout!` checks every type it spells
//! against the runtime [`Plan`](crate::Plan) (sizes, expanded shape, strides and text).

use crate::index::steps;

/// The most dimensions a static `layout!` type has (its `Dims` spell up to 8, then `More`).
pub const MAX_TYPED_RANK: usize = 16;
/// The most tiles of a static `layout!` type, and the most dimensions of one of its tiles.
pub const MAX_TYPED_TILES: usize = 8;
/// The widest the working index of a static `layout!` type gets while its tiles expand it.
pub(crate) const WIDTH: usize = crate::index::MAX_EXPANDED_RANK;
/// The most steps (paddings, `*` merges, tiles) of a static `layout!` type.
pub(crate) const STEPS: usize = MAX_TYPED_TILES * (MAX_TYPED_TILES + 1);

/// One tiling step; see `model::tiling::Step`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// No step (the unused capacity).
    Nothing,
    /// Prepend `by` zero entries.
    Pad { by: usize },
    /// Merge entry `at` into the next: `I[at+1] += I[at] * mult`.
    Combine { at: usize, mult: usize },
    /// Tile entries `start..start + count` by `sizes[..count]`.
    Tile {
        start: usize,
        count: usize,
        sizes: [u64; MAX_TYPED_TILES],
    },
}

/// What a static layout type computes from its arguments.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Core {
    pub(crate) rank: usize,
    /// Logical dimension at each physical position, major to minor.
    pub(crate) physical: [usize; MAX_TYPED_RANK],
    /// Whether each logical dimension has size 1 (its index entry is always 0).
    pub(crate) unit: [bool; MAX_TYPED_RANK],
    pub(crate) steps: [Step; STEPS],
    pub(crate) step_count: usize,
    pub(crate) width: usize,
    pub(crate) expanded: [usize; WIDTH],
    pub(crate) strides: [usize; WIDTH],
    pub(crate) elements: usize,
    pub(crate) tiled: usize,
    pub(crate) physical_elements: usize,
    pub(crate) bytes: usize,
}

/// The inputs of [`Core::new`]: a layout as its type spells it.
pub(crate) struct Spec<'a> {
    pub(crate) dims: &'a [usize],
    pub(crate) minor_to_major: &'a [usize],
    /// Each tile's dims (`0` for `*`), `tile_ranks[t]` of them.
    pub(crate) tiles: &'a [[usize; MAX_TYPED_TILES]],
    pub(crate) tile_ranks: &'a [usize],
    /// Legacy padded sizes (empty for none).
    pub(crate) padded: &'a [usize],
    pub(crate) tail_alignment: usize,
    pub(crate) element_bits: usize,
    pub(crate) prefix_bytes: usize,
}

const fn checked(v: Option<usize>) -> usize {
    match v {
        Some(v) => v,
        None => panic!("the size of this layout type overflows"),
    }
}

impl Core {
    /// Compiles a valid layout (the macro validates it first); panics (a compile error in a
    /// `const`) on capacity or overflow.
    pub(crate) const fn new(spec: &Spec<'_>) -> Core {
        let rank = spec.dims.len();
        assert!(
            rank <= MAX_TYPED_RANK,
            "too many dimensions for a layout type"
        );
        assert!(
            spec.minor_to_major.len() == rank,
            "minor_to_major of the wrong length"
        );
        let mut physical = [0; MAX_TYPED_RANK];
        let mut unit = [false; MAX_TYPED_RANK];
        let mut sizes = [0usize; WIDTH];
        let mut elements = 1usize;
        let mut p = 0;
        while p < rank {
            let d = spec.minor_to_major[rank - 1 - p];
            physical[p] = d;
            let mut extent = spec.dims[d];
            if d < spec.padded.len() && spec.padded[d] > extent {
                extent = spec.padded[d];
            }
            sizes[p] = extent;
            unit[d] = spec.dims[d] == 1;
            elements = checked(elements.checked_mul(spec.dims[d]));
            p += 1;
        }
        let mut width = rank;
        let mut step_list = [Step::Nothing; STEPS];
        let mut step_count = 0;
        let mut t = 0;
        while t < spec.tiles.len() {
            let tile = spec.tiles[t];
            let k = spec.tile_ranks[t];
            if k > width {
                let by = k - width;
                width = steps::pad(&mut sizes, width, by);
                // Padded entries have size 1, not 0.
                let mut j = 0;
                while j < by {
                    sizes[j] = 1;
                    j += 1;
                }
                step_list[step_count] = Step::Pad { by };
                step_count += 1;
            }
            let base = width - k;
            let mut region = [0usize; MAX_TYPED_TILES];
            let mut i = 0;
            while i < k {
                region[i] = sizes[base + i];
                i += 1;
            }
            width = base;
            let mut tile_sizes = [0u64; MAX_TYPED_TILES];
            let mut count = 0;
            let mut carry = 0usize;
            let mut carrying = false;
            let mut i = 0;
            while i < k {
                let value = if carrying {
                    carrying = false;
                    checked(carry.checked_mul(region[i]))
                } else {
                    region[i]
                };
                if tile[i] == 0 {
                    step_list[step_count] = Step::Combine {
                        at: base + count,
                        mult: region[i + 1],
                    };
                    step_count += 1;
                    carry = value;
                    carrying = true;
                } else {
                    sizes[width] = value;
                    width += 1;
                    tile_sizes[count] = tile[i] as u64;
                    count += 1;
                }
                i += 1;
            }
            let mut j = 0;
            while j < count {
                sizes[base + j] = sizes[base + j].div_ceil(tile_sizes[j] as usize);
                sizes[width + j] = tile_sizes[j] as usize;
                j += 1;
            }
            width += count;
            assert!(width <= WIDTH, "this layout type is too wide once tiled");
            step_list[step_count] = Step::Tile {
                start: base,
                count,
                sizes: tile_sizes,
            };
            step_count += 1;
            t += 1;
        }
        let mut strides = [0usize; WIDTH];
        let mut tiled = 1usize;
        let mut i = width;
        while i > 0 {
            i -= 1;
            strides[i] = tiled;
            tiled = checked(tiled.checked_mul(sizes[i]));
        }
        let align = spec.tail_alignment;
        let physical_elements = checked(tiled.div_ceil(align).checked_mul(align));
        // In 128 bits, as `model::tiling`: a packed array of up to `i64::MAX` bytes has up to
        // 2^66 bits.
        let data = (physical_elements as u128 * spec.element_bits as u128).div_ceil(8);
        let data = if data <= usize::MAX as u128 {
            data as usize
        } else {
            panic!("the size of this layout type overflows")
        };
        Core {
            rank,
            physical,
            unit,
            steps: step_list,
            step_count,
            width,
            expanded: sizes,
            strides,
            elements,
            tiled,
            physical_elements,
            bytes: checked(data.checked_add(spec.prefix_bytes)),
        }
    }

    /// Runs step `n` on a working index of `width` entries; returns the new width.
    #[inline(always)]
    pub(crate) const fn run(step: Step, work: &mut [usize; WIDTH], width: usize) -> usize {
        match step {
            Step::Nothing => width,
            Step::Pad { by } => steps::pad(work, width, by),
            Step::Combine { at, mult } => steps::combine(work, width, at, mult),
            Step::Tile {
                start,
                count,
                sizes,
            } => steps::tile(work, width, start, sizes.split_at(count).0),
        }
    }

    /// The logical index stored at `offset` (into `index`), as `Plan::index_of`: `false` for
    /// a padding slot or an offset past the end.
    pub(crate) fn index_of(&self, offset: usize, index: &mut [usize]) -> bool {
        if offset >= self.tiled || self.elements == 0 {
            return false;
        }
        let mut work = [0usize; WIDTH];
        let mut width = self.width;
        for (w, (&s, &e)) in work
            .iter_mut()
            .zip(self.strides.iter().zip(&self.expanded))
            .take(width)
        {
            *w = (offset / s) % e;
        }
        for step in self.steps[..self.step_count].iter().rev() {
            match *step {
                Step::Nothing => {}
                Step::Tile {
                    start,
                    count,
                    sizes,
                } => {
                    width -= count;
                    for j in 0..count {
                        work[start + j] = work[start + j] * sizes[j] as usize + work[width + j];
                    }
                }
                Step::Combine { at, mult } => {
                    let c = work[at];
                    work.copy_within(at..width, at + 1);
                    work[at] = c / mult;
                    work[at + 1] = c % mult;
                    width += 1;
                }
                Step::Pad { by } => {
                    if work[..by].iter().any(|&i| i != 0) {
                        return false;
                    }
                    work.copy_within(by..width, 0);
                    width -= by;
                }
            }
        }
        for p in 0..self.rank {
            index[self.physical[p]] = work[p];
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    use super::{Core, MAX_TYPED_TILES, Spec, WIDTH};
    use crate::index::Plan;
    use crate::model::{ArrayShape, PaddingValue, TileDim};
    use crate::text::parse_array;
    use crate::typed::canonical::{Parts, canonical};

    /// Layouts of every kind the typed core handles, from XLA's docs and tests and this
    /// crate's corpus: untiled, tiled at several levels, `*`, tiles of higher rank, `L`, `E`,
    /// `S`, `SC`, `M`, scalars, legacy padding.
    const LAYOUTS: &[&str] = &[
        "f32[3,5]{1,0:T(2,2)}",
        "f32[4,8]{1,0:T(2,4)(2,1)}",
        "bf16[8,1,128,256]{3,2,0,1:T(8,128)(2,1)S(1)}",
        "bf16[2048]{0:T(1024)(128)(2,1)}",
        "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}",
        "bf16[2,3,1004]{2,1,0:T(2,*,128)}",
        "f32[100,37]{0,1:T(6,10)(3,5)}",
        "u8[5]{0:T(2,1)}",
        "f32[]{:T(256)}",
        "f32[]",
        "f32[2,3,4,5]{0,2,1,3:T(4,8)}",
        "s4[92,61]{1,0:T(64,128)(8,1)E(4)}",
        "u4[6,10]{0,1:T(3,*,4)(2,1)L(64)E(4)}",
        "s32[40]{0:T(8)M(1024)}",
        "f32[15,20,10]{0,1,2:SC(0:3)(1:4,13)}",
        "f32[1,1,7]{2,0,1:T(2,2,2)}",
        "pred[9,3]{0,1:T(4)L(16)}",
        "f32[0,3]{1,0:T(2,2)}",
    ];

    struct Owned {
        dims: Vec<usize>,
        m2m: Vec<usize>,
        tiles: Vec<[usize; MAX_TYPED_TILES]>,
        ranks: Vec<usize>,
        splits: Vec<usize>,
    }

    fn owned(a: &ArrayShape) -> Owned {
        let tiles = a
            .layout
            .tiles
            .iter()
            .map(|t| {
                let mut dims = [0; MAX_TYPED_TILES];
                for (d, td) in dims.iter_mut().zip(t.dims()) {
                    *d = match td {
                        TileDim::Size(n) => *n as usize,
                        TileDim::Combine => 0,
                    };
                }
                dims
            })
            .collect();
        let mut splits = Vec::new();
        for sc in &a.layout.split_configs {
            splits.push(sc.dimension as usize);
            splits.push(sc.split_indices.len());
            splits.extend(sc.split_indices.iter().map(|&i| i as usize));
        }
        Owned {
            dims: a
                .dims
                .iter()
                .map(|d| d.extent().unwrap_or(0) as usize)
                .collect(),
            m2m: a
                .layout
                .minor_to_major
                .iter()
                .map(|&d| d as usize)
                .collect(),
            tiles,
            ranks: a.layout.tiles.iter().map(|t| t.dims().len()).collect(),
            splits,
        }
    }

    fn offset(core: &Core, index: &[usize]) -> usize {
        let mut work = [0; WIDTH];
        for (w, &d) in work.iter_mut().zip(&core.physical[..core.rank]) {
            *w = if core.unit[d] { 0 } else { index[d] };
        }
        let mut width = core.rank;
        for &step in &core.steps[..core.step_count] {
            width = Core::run(step, &mut work, width);
        }
        (0..width)
            .filter(|&k| core.expanded[k] > 1)
            .map(|k| work[k] * core.strides[k])
            .sum()
    }

    /// The typed core against the runtime plan and printer: text, sizes, the expanded shape
    /// and strides, every element's offset and every slot's index.
    #[test]
    fn typed_core_agrees_with_the_plan() {
        let padded = {
            let mut a = parse_array("f32[2,3]{0,1:T(2)}").unwrap();
            a.layout = a.layout.clone().with_padding([3, 5], PaddingValue::Zero);
            a
        };
        let shapes = LAYOUTS
            .iter()
            .map(|t| parse_array(t).unwrap())
            .chain([padded]);
        for a in shapes {
            let text = &a.to_string();
            let plan = Plan::new(&a).unwrap();
            let o = owned(&a);
            let layout = &a.layout;
            let padded: Vec<usize> = layout
                .padded_dimensions
                .iter()
                .map(|&p| p as usize)
                .collect();
            let core = Core::new(&Spec {
                dims: &o.dims,
                minor_to_major: &o.m2m,
                tiles: &o.tiles,
                tile_ranks: &o.ranks,
                padded: &padded,
                tail_alignment: layout.tail_padding_alignment_in_elements as usize,
                element_bits: plan.element_bits(),
                prefix_bytes: layout.dynamic_shape_metadata_prefix_bytes.max(0) as usize,
            });
            let (bytes, len) = canonical(&Parts {
                element: a.element_type.name(),
                dims: &o.dims,
                minor_to_major: &o.m2m,
                tiles: &o.tiles,
                tile_ranks: &o.ranks,
                tail_alignment: layout.tail_padding_alignment_in_elements as usize,
                element_size: layout.element_size_in_bits as usize,
                memory_space: layout.memory_space as usize,
                splits: &o.splits,
                prefix_bytes: layout.dynamic_shape_metadata_prefix_bytes.max(0) as usize,
            });
            let mut unpadded = a.clone();
            unpadded.layout.padded_dimensions.clear();
            unpadded.layout.padding_value = PaddingValue::Unknown;
            let printed = String::from_utf8(bytes[..len].to_vec()).unwrap();
            assert_eq!(printed, unpadded.to_string());
            assert_eq!(&core.expanded[..core.width], plan.expanded_dims(), "{text}");
            assert_eq!(
                &core.strides[..core.width],
                plan.expanded_strides(),
                "{text}"
            );
            assert_eq!(core.tiled, plan.tiled_elements(), "{text}");
            assert_eq!(core.physical_elements, plan.physical_elements(), "{text}");
            assert_eq!(core.bytes, plan.size_bytes(), "{text}");
            assert_eq!(core.elements, plan.elements(), "{text}");
            let mut index = alloc::vec![0; o.dims.len()];
            for n in 0..plan.elements() {
                let mut rest = n;
                for (i, &d) in index.iter_mut().zip(&o.dims).rev() {
                    *i = rest % d;
                    rest /= d;
                }
                assert_eq!(
                    offset(&core, &index),
                    plan.offset(&index),
                    "{text} {index:?}"
                );
            }
            for slot in 0..plan.physical_elements() {
                let mut found = alloc::vec![0; o.dims.len()];
                let typed = core.index_of(slot, &mut found)
                    && plan.in_bounds(&found)
                    && offset(&core, &found) == slot;
                assert_eq!(typed.then_some(found), plan.index_of(slot), "{text} {slot}");
            }
        }
    }
}
