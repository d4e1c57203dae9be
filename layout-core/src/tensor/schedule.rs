//! Small transposes, listed when they are planned: every group of the vector transpose (see
//! `kernels::lanes`) as its two corners, and every slot of a block the array's edge cuts,
//! so that a copy of up to 64 KiB runs one flat loop over the list instead of walking the
//! nest, dispatching to the block kernel and re-deriving its bounds on every call (a fixed
//! cost of ~45 ns a copy, against ~4 ns a 256-byte block, and a loop across blocks that costs
//! more a group than the list). Groups side by side in the destination go as pairs, one
//! 32-byte AVX2 register a destination row, where the CPU has AVX2.
#![allow(unsafe_code)]

use alloc::vec::Vec;

use super::kernels::{self, GroupShape, edge};
use super::lanes;
use super::nest::{Form, Kernel, Nest, SMALL_BYTES, Slice};

/// The most groups, and the most edge slots, a list holds: 12 KiB of list at most (pairs of
/// groups in 12 bytes), a fifth of the data it moves or less.
const MAX_LISTED: usize = 2048;

/// The groups of a small copy's vector transpose (the slots of a block from its corner:
/// `M` source rows of 16 bytes, `M` destination rows of 16 bytes, see `kernels::group`),
/// and its edge slots. Byte offsets from the data's start on each side.
#[derive(Clone, Debug)]
pub(crate) struct Schedule {
    /// Bytes from a group's source row to the next, and from its destination row to the
    /// next: the same for every group.
    rows: (usize, usize),
    /// Two groups whose destination rows follow each other: both source corners, and the
    /// first's destination corner (the second's is 16 bytes on).
    pairs: Vec<[u32; 3]>,
    /// The other groups: source corner, destination corner.
    singles: Vec<[u32; 2]>,
    /// Slots of blocks the array's edge cuts: destination byte, source byte.
    slots: Vec<[u32; 2]>,
    /// The bytes every group and slot lies within: source, destination.
    spans: (usize, usize),
    /// The loop over the list, for the slot width and group shape of the copy.
    run: Runner,
}

/// [`Schedule::run`] for one slot width and group shape: (the schedule, destination, source).
type Runner = fn(&Schedule, &mut [u8], &[u8]);

impl Schedule {
    /// The list of `nest`'s copy of slots of `width` bytes, whose sides hold `bytes`
    /// (source, destination): `None` unless it is a transpose of whole vectors (no widened
    /// side shorter than a group: a group's rows one stride apart) of at most [`SMALL_BYTES`]
    /// a side, [`MAX_LISTED`] groups and as many edge slots.
    pub(crate) fn new(nest: &Nest, width: usize, bytes: (usize, usize)) -> Option<Schedule> {
        let Kernel::Block {
            a,
            b,
            form: Form::Lanes {
                wide: [wa, wb],
                inner,
            },
        } = nest.kernel
        else {
            return None;
        };
        let m = lanes::BYTES.checked_div(width)?.max(1);
        // (A group writes `16 · m` bytes of the destination that no other group writes.)
        if bytes.0.max(bytes.1) > SMALL_BYTES
            || bytes.1 / (lanes::BYTES * m) > MAX_LISTED
            || !a.size.is_multiple_of(m)
            || !b.size.is_multiple_of(m)
        {
            return None;
        }
        // Row `x` of a block's source side and row `y` of its destination side, in bytes
        // from its corner (a side may continue in a second loop, `wa` and `wb`).
        let from = |x: usize| ((x % a.size) * a.src + (x / a.size) * wa.src) * width;
        let to = |y: usize| ((y % b.size) * b.dst + (y / b.size) * wb.dst) * width;
        let (sa, sb) = (a.size * wa.size, b.size * wb.size);
        let rows = (a.src * width, b.dst * width);
        let (mut groups, mut slots) = (Vec::new(), Vec::new());
        nest.walk_from(&Slice::outer(0..nest.parts()), &mut |leaf| {
            let whole = nest.whole_steps(leaf, &[a, b, wa, wb]);
            for r in 0..whole {
                let (d0, s0) = leaf.offsets(r);
                for gy in 0..sb / m {
                    for gx in 0..sa / m {
                        groups.push((
                            s0 * width + from(gx * m) + gy * lanes::BYTES,
                            d0 * width + to(gy * m) + gx * lanes::BYTES,
                        ));
                    }
                }
            }
            for k in whole..leaf.n {
                edge(nest, leaf, k, [a, b, wa, wb], &mut |d, s| {
                    slots.push((d * width, s * width));
                });
            }
        });
        if slots.len() > MAX_LISTED {
            return None;
        }
        let last = (m - 1) * rows.0 + lanes::BYTES;
        let mut spans = (0, 0);
        for &(f, o) in &groups {
            spans = (
                spans.0.max(f + last),
                spans.1.max(o + (m - 1) * rows.1 + lanes::BYTES),
            );
        }
        for &(d, s) in &slots {
            spans = (spans.0.max(s + width), spans.1.max(d + width));
        }
        if spans.0 > bytes.0 || spans.1 > bytes.1 {
            // A nest reaches only the slots of its layouts; never taken.
            return None;
        }
        let small = |x: usize| u32::try_from(x).expect("offsets below SMALL_BYTES");
        let (mut pairs, mut singles) = (Vec::new(), Vec::new());
        let mut k = 0;
        while k < groups.len() {
            let (f, o) = groups[k];
            match groups.get(k + 1) {
                Some(&(g, p)) if p == o + lanes::BYTES => {
                    pairs.push([small(f), small(g), small(o)]);
                    k += 2;
                }
                _ => {
                    singles.push([small(f), small(o)]);
                    k += 1;
                }
            }
        }
        let run = match width {
            1 => kernels::for_group::<1, Pick>(inner),
            2 => kernels::for_group::<2, Pick>(inner),
            4 => kernels::for_group::<4, Pick>(inner),
            8 => kernels::for_group::<8, Pick>(inner),
            _ => kernels::for_group::<16, Pick>(inner),
        };
        Some(Schedule {
            rows,
            pairs,
            singles,
            slots: slots
                .into_iter()
                .map(|(d, s)| [small(d), small(s)])
                .collect(),
            spans,
            run,
        })
    }

    /// Copies the listed groups and slots from `src` into `dst` (the data of each side,
    /// from its first slot).
    ///
    /// # Panics
    /// If a buffer is shorter than the bytes the list reaches on its side.
    pub(crate) fn run(&self, dst: &mut [u8], src: &[u8]) {
        assert!(
            src.len() >= self.spans.0 && dst.len() >= self.spans.1,
            "buffers of the planned lengths"
        );
        (self.run)(self, dst, src);
    }
}

/// Picks [`run`] for a group shape.
struct Pick;

impl<const N: usize> GroupShape<N> for Pick {
    type Out = Runner;
    fn at<const M: usize, const K: usize>() -> Runner {
        run::<N, M, K>
    }
}

/// [`Schedule::run`] for slots of `N` bytes, groups of `M` rows and slots of `K × K`
/// elements.
fn run<const N: usize, const M: usize, const K: usize>(s: &Schedule, dst: &mut [u8], src: &[u8]) {
    let (f_row, o_row) = s.rows;
    #[cfg(target_arch = "x86_64")]
    if super::avx2::available() {
        // SAFETY: the CPU has AVX2; every listed group lies within `s.spans`, which the
        // buffers reach (`Schedule::run` checked).
        unsafe { pairs_avx2::<N, M, K>(s, dst, src) };
    } else {
        pairs::<N, M, K>(s, dst, src);
    }
    #[cfg(not(target_arch = "x86_64"))]
    pairs::<N, M, K>(s, dst, src);
    for &[f, o] in &s.singles {
        // SAFETY: the group's rows `f + i·f_row` (`i < M`) end within `spans.0 <=
        // src.len()` and `o + i·o_row` within `spans.1 <= dst.len()` (`Schedule::new` took
        // the spans over every group, `Schedule::run` checked the buffers).
        unsafe {
            kernels::group::<N, M, false, K>(src, (f as usize, f_row), dst, (o as usize, o_row));
        }
    }
    for &[d, f] in &s.slots {
        let (d, f) = (d as usize, f as usize);
        let slot: [u8; N] = src[f..f + N].try_into().expect("N bytes");
        dst[d..d + N].copy_from_slice(&kernels::transpose_slot(slot, K));
    }
}

/// The listed pairs of groups, each as two groups of 16-byte vectors.
fn pairs<const N: usize, const M: usize, const K: usize>(s: &Schedule, dst: &mut [u8], src: &[u8]) {
    let (f_row, o_row) = s.rows;
    for &[f, g, o] in &s.pairs {
        for (f, o) in [(f, o), (g, o + lanes::BYTES as u32)] {
            // SAFETY: as for the single groups in `run`: both groups of a pair are listed
            // groups, within the spans.
            unsafe {
                kernels::group::<N, M, false, K>(
                    src,
                    (f as usize, f_row),
                    dst,
                    (o as usize, o_row),
                );
            }
        }
    }
}

/// The listed pairs of groups, side by side in 32-byte AVX2 registers: one store a
/// destination row of both.
///
/// # Safety
/// The CPU has AVX2; `src` and `dst` reach `s.spans`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn pairs_avx2<const N: usize, const M: usize, const K: usize>(
    s: &Schedule,
    dst: &mut [u8],
    src: &[u8],
) {
    let (f_row, o_row) = s.rows;
    for &[f, g, o] in &s.pairs {
        let (f, g, o) = (f as usize, g as usize, o as usize);
        // SAFETY: the rows `f + i·f_row` and `g + i·f_row` (`i < M`) of the pair's two
        // groups end within `spans.0 <= src.len()` (the caller's contract); the CPU has AVX2.
        let v =
            unsafe { kernels::group_pair::<N, M, K>(src, (|i| f + i * f_row, |i| g + i * f_row)) };
        for (i, v) in v.iter().enumerate() {
            // SAFETY: bytes `o + i·o_row ..` are the first group's 16 bytes of destination row
            // `i`, then the second's (listed as the first's corner plus 16), within `spans.1
            // <= dst.len()`; a plain store needs no alignment.
            unsafe { super::avx2::store::<false>(*v, dst.as_mut_ptr().add(o + i * o_row)) };
        }
    }
}
