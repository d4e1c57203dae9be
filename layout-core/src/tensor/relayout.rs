//! Copying between two layouts of the same array: one `memcpy` for identical layouts,
//! strided copies driven by the tiled side's memory order between an untiled and a tiled
//! layout, and a per-element copy otherwise.

use alloc::vec::Vec;

use crate::typed::Layout;
use crate::{Expr, Plan};

/// True when both layouts have the same dimensions (evaluated at compile time).
pub(crate) const fn same_dims<A: Layout, B: Layout>() -> bool {
    let (a, b) = (A::DIMS, B::DIMS);
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// True when the two layouts put every element (numbered in logical row-major order) at the
/// same offset of the same storage (evaluated at compile time).
pub(crate) const fn is_bitcast<A: Layout, B: Layout>() -> bool {
    let (a, b) = (A::BITCAST_SIGNATURE, B::BITCAST_SIGNATURE);
    if A::STORAGE_WORDS != B::STORAGE_WORDS || A::ELEMENTS != B::ELEMENTS || a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The strides of an untiled layout's offset (`Σ i_d * stride_d`), if its closed form is
/// that linear.
fn linear_strides(plan: &Plan) -> Option<Vec<usize>> {
    let Expr::Sum(terms) = plan.offset_expr() else {
        return None;
    };
    let mut strides = alloc::vec![0; plan.dims().len()];
    for (e, s) in terms {
        match e {
            Expr::Index(d) => strides[d] = s,
            _ => return None,
        }
    }
    Some(strides)
}

/// A strided copy: for every point of the box `sizes`, `dst[Σ e·ds] = src[Σ e·ss]`.
struct Strided {
    sizes: Vec<usize>,
    dst: Vec<usize>,
    src: Vec<usize>,
}

/// For a layout with no `*` and no padding slots, driving the copy in its memory order: the
/// sizes of its expanded dims and, for each, the logical index step it stands for.
fn expanded_steps(plan: &Plan) -> Option<Vec<(usize, Vec<usize>)>> {
    if plan.tiled_elements() != plan.elements() || plan.elements() == 0 {
        return None;
    }
    plan.expanded_dims()
        .iter()
        .zip(plan.expanded_strides())
        .map(|(&size, &stride)| {
            let step = if size > 1 {
                plan.index_of(stride)?
            } else {
                alloc::vec![0; plan.dims().len()]
            };
            Some((size, step))
        })
        .collect()
}

/// The strided copy from an untiled `other` to/from the tiled `driver`, driven by the
/// driver's memory order; `None` if the pair does not have that shape.
fn strided(driver: &Plan, other: &Plan) -> Option<Strided> {
    let other_strides = linear_strides(other)?;
    let steps = expanded_steps(driver)?;
    let mut s = Strided {
        sizes: Vec::new(),
        dst: Vec::new(),
        src: Vec::new(),
    };
    for ((size, step), &driver_stride) in steps.into_iter().zip(driver.expanded_strides()) {
        if size == 1 {
            continue;
        }
        // Stepping one expanded coordinate moves the logical index by `step`; the untiled
        // side's offset moves by the dot product.
        let other_stride = step.iter().zip(&other_strides).map(|(a, b)| a * b).sum();
        s.sizes.push(size);
        s.dst.push(driver_stride);
        s.src.push(other_stride);
    }
    coalesce(&mut s);
    Some(s)
}

/// Merges adjacent dims that step both sides contiguously.
fn coalesce(s: &mut Strided) {
    let mut k = s.sizes.len();
    while k > 1 {
        k -= 1;
        let (outer, inner) = (k - 1, k);
        if s.dst[outer] == s.sizes[inner] * s.dst[inner]
            && s.src[outer] == s.sizes[inner] * s.src[inner]
        {
            s.sizes[outer] *= s.sizes[inner];
            s.dst[outer] = s.dst[inner];
            s.src[outer] = s.src[inner];
            s.sizes.remove(inner);
            s.dst.remove(inner);
            s.src.remove(inner);
        }
    }
}

/// Runs a strided copy between two directly stored layouts (`dst_is_driver` says which
/// side the strides in `s.dst` belong to).
fn run<D: Layout, S: Layout<Elem = D::Elem>>(
    s: &Strided,
    dst: &mut [D::Word],
    src: &[S::Word],
    dst_is_driver: bool,
) {
    let (ds, ss) = if dst_is_driver {
        (&s.dst, &s.src)
    } else {
        (&s.src, &s.dst)
    };
    nest::<D, S>(&s.sizes, ds, ss, dst, src, 0, 0);
}

fn nest<D: Layout, S: Layout<Elem = D::Elem>>(
    sizes: &[usize],
    ds: &[usize],
    ss: &[usize],
    dst: &mut [D::Word],
    src: &[S::Word],
    d0: usize,
    s0: usize,
) {
    match sizes.len() {
        0 => D::store(dst, d0, S::load(src, s0)),
        1 => line::<D, S>(sizes[0], ds[0], ss[0], dst, src, d0, s0),
        2 => plane::<D, S>(sizes, ds, ss, dst, src, d0, s0),
        _ => {
            for i in 0..sizes[0] {
                nest::<D, S>(
                    &sizes[1..],
                    &ds[1..],
                    &ss[1..],
                    dst,
                    src,
                    d0 + i * ds[0],
                    s0 + i * ss[0],
                );
            }
        }
    }
}

/// `n` elements with strides `dstep`, `sstep` (slots are words: both layouts are direct).
#[inline(always)]
fn line<D: Layout, S: Layout<Elem = D::Elem>>(
    n: usize,
    dstep: usize,
    sstep: usize,
    dst: &mut [D::Word],
    src: &[S::Word],
    d0: usize,
    s0: usize,
) {
    if dstep == 1 && sstep == 1 {
        let (d, s) = (&mut dst[d0..d0 + n], &src[s0..s0 + n]);
        for k in 0..n {
            D::store(d, k, S::load(s, k));
        }
    } else {
        for k in 0..n {
            D::store(dst, d0 + k * dstep, S::load(src, s0 + k * sstep));
        }
    }
}

/// The two innermost dims, with a fast path for pairs interleaved into (or out of) one
/// contiguous run, as `(2,1)` sub-tiles pack them.
#[inline(always)]
fn plane<D: Layout, S: Layout<Elem = D::Elem>>(
    sizes: &[usize],
    ds: &[usize],
    ss: &[usize],
    dst: &mut [D::Word],
    src: &[S::Word],
    d0: usize,
    s0: usize,
) {
    let (n0, n1) = (sizes[0], sizes[1]);
    if n1 == 2 && ds == [2, 1] && ss[0] == 1 {
        // dst holds pairs (a_k, b_k) contiguously; src holds the rows a and b.
        let d = &mut dst[d0..d0 + 2 * n0];
        let (a, b) = (&src[s0..s0 + n0], &src[s0 + ss[1]..s0 + ss[1] + n0]);
        for k in 0..n0 {
            D::store(d, 2 * k, S::load(a, k));
            D::store(d, 2 * k + 1, S::load(b, k));
        }
    } else if n1 == 2 && ss == [2, 1] && ds[0] == 1 {
        // The reverse: src holds the pairs, dst the two rows.
        let s = &src[s0..s0 + 2 * n0];
        let (a, rest) = dst[d0..].split_at_mut(ds[1]);
        let (a, b) = (&mut a[..n0], &mut rest[..n0]);
        for k in 0..n0 {
            D::store(a, k, S::load(s, 2 * k));
            D::store(b, k, S::load(s, 2 * k + 1));
        }
    } else {
        for i in 0..n0 {
            line::<D, S>(n1, ds[1], ss[1], dst, src, d0 + i * ds[0], s0 + i * ss[0]);
        }
    }
}

/// Copies every element of `src` (layout `S`) into `dst` (layout `D`).
pub(crate) fn copy<D: Layout, S: Layout<Elem = D::Elem>>(dst: &mut [D::Word], src: &[S::Word]) {
    if D::ELEMENTS == 0 {
        return;
    }
    let (dp, sp) = (D::plan(), S::plan());
    if !D::PACKED && !S::PACKED {
        if is_bitcast::<D, S>() {
            // Same offsets for every element: copy every slot, padding included.
            return line::<D, S>(dst.len(), 1, 1, dst, src, 0, 0);
        }
        if let Some(s) = strided(&dp, &sp) {
            return run::<D, S>(&s, dst, src, true);
        }
        if let Some(s) = strided(&sp, &dp) {
            return run::<D, S>(&s, dst, src, false);
        }
    }
    for (d, s) in dp.logical_offsets().zip(sp.logical_offsets()) {
        D::store(dst, d, S::load(src, s));
    }
}
