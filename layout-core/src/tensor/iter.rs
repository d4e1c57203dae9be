//! Iteration over a tensor's elements: in logical order, in memory order, and in place.
//!
//! Every traversal walks the plan's runs of evenly spaced slots (`index::runs`): the
//! bookkeeping happens once per run (a row of a tile, or a whole block of slots without
//! padding), and each run is a plain loop over a subslice, which `fold`, `for_each`, `sum`
//! and the in-place maps use directly, so that the compiler can unroll and vectorise it.

use core::marker::PhantomData;

use super::{TensorBase, cache};
use crate::index::runs::{LogicalRuns, MemoryRuns, Run};
use crate::typed::Layout;

/// A source of runs: the logical or the memory walk.
trait Runs {
    fn next_run(&mut self) -> Option<Run>;
}

impl Runs for LogicalRuns {
    #[inline]
    fn next_run(&mut self) -> Option<Run> {
        LogicalRuns::next_run(self)
    }
}

impl Runs for MemoryRuns {
    #[inline]
    fn next_run(&mut self) -> Option<Run> {
        MemoryRuns::next_run(self, None)
    }
}

/// The empty run, before the first.
const EMPTY: Run = Run {
    offset: 0,
    len: 0,
    stride: 1,
};

/// The subslice of `words` from the first slot of `run` to its last (for storage with one
/// element per slot; the run's elements are every `stride`-th word of it).
#[inline(always)]
fn span<W>(words: &[W], run: Run) -> &[W] {
    let end = run.offset + (run.len - 1) * run.stride + 1;
    &words[run.offset..end]
}

/// Folds `f` over the elements of `run`.
#[inline(always)]
fn fold_run<L: Layout, B>(
    words: &[L::Word],
    run: Run,
    mut acc: B,
    f: &mut impl FnMut(B, L::Elem) -> B,
) -> B {
    if run.len == 0 {
        return acc;
    }
    if !L::PACKED {
        // One element per slot: `load` of slot `k` of a subslice is its `k`-th word.
        let sub = span(words, run);
        if run.stride == 1 {
            for k in 0..sub.len() {
                acc = f(acc, L::load(sub, k));
            }
        } else {
            for k in (0..sub.len()).step_by(run.stride) {
                acc = f(acc, L::load(sub, k));
            }
        }
    } else {
        for k in 0..run.len {
            acc = f(acc, L::load(words, run.offset + k * run.stride));
        }
    }
    acc
}

/// The elements of a tensor, run by run.
struct Values<'a, L: Layout, R> {
    words: &'a [L::Word],
    runs: R,
    run: Run,
    remaining: usize,
}

impl<'a, L: Layout, R: Runs> Values<'a, L, R> {
    fn new(words: &'a [L::Word], runs: R, elements: usize) -> Self {
        Values {
            words,
            runs,
            run: EMPTY,
            remaining: elements,
        }
    }
}

impl<L: Layout, R: Runs> Iterator for Values<'_, L, R> {
    type Item = L::Elem;

    #[inline]
    fn next(&mut self) -> Option<L::Elem> {
        while self.run.len == 0 {
            self.run = self.runs.next_run()?;
        }
        let o = self.run.offset;
        self.run.offset += self.run.stride;
        self.run.len -= 1;
        self.remaining -= 1;
        Some(L::load(self.words, o))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }

    #[inline]
    fn fold<B, F: FnMut(B, L::Elem) -> B>(mut self, init: B, mut f: F) -> B {
        let mut acc = fold_run::<L, B>(self.words, self.run, init, &mut f);
        while let Some(run) = self.runs.next_run() {
            acc = fold_run::<L, B>(self.words, run, acc, &mut f);
        }
        acc
    }
}

impl<L: Layout, R: Runs> ExactSizeIterator for Values<'_, L, R> {}

/// The elements in memory order with their logical indices.
struct Physical<'a, L: Layout> {
    words: &'a [L::Word],
    runs: MemoryRuns,
    /// The logical dimension that moves along each run, and by how much per slot.
    step: Option<(usize, usize)>,
    run: Run,
    /// The logical index of the run's next element.
    index: L::Index,
    remaining: usize,
}

impl<L: Layout> Physical<'_, L> {
    /// Starts the next run; false at the end.
    #[inline]
    fn start_run(&mut self) -> bool {
        match self.runs.next_run(Some(self.index.as_mut())) {
            Some(run) => {
                self.run = run;
                true
            }
            None => false,
        }
    }
}

impl<L: Layout> Iterator for Physical<'_, L> {
    type Item = (L::Index, L::Elem);

    #[inline]
    fn next(&mut self) -> Option<(L::Index, L::Elem)> {
        while self.run.len == 0 {
            if !self.start_run() {
                return None;
            }
        }
        let item = (self.index, L::load(self.words, self.run.offset));
        self.run.offset += self.run.stride;
        self.run.len -= 1;
        self.remaining -= 1;
        if let Some((d, w)) = self.step {
            self.index.as_mut()[d] += w;
        }
        Some(item)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }

    #[inline]
    fn fold<B, F: FnMut(B, Self::Item) -> B>(mut self, init: B, mut f: F) -> B {
        let mut acc = init;
        loop {
            let (run, start) = (self.run, self.index);
            acc = match self.step {
                Some((d, w)) => {
                    // The moving coordinate in a register: no store and reload of the index
                    // from one element to the next.
                    let mut coord = start.as_ref().get(d).copied().unwrap_or(0);
                    fold_run::<L, B>(self.words, run, acc, &mut |acc, x| {
                        let mut idx = start;
                        if let Some(slot) = idx.as_mut().get_mut(d) {
                            *slot = coord;
                        }
                        coord += w;
                        f(acc, (idx, x))
                    })
                }
                None => fold_run::<L, B>(self.words, run, acc, &mut |acc, x| f(acc, (start, x))),
            };
            self.run = Run { len: 0, ..run };
            if !self.start_run() {
                return acc;
            }
        }
    }
}

impl<L: Layout> ExactSizeIterator for Physical<'_, L> {}

/// Mutable references to the elements in logical order.
struct IterMut<'a, T> {
    /// The start of the storage, borrowed mutably for `'a`.
    ptr: *mut T,
    /// The storage length.
    len: usize,
    runs: LogicalRuns,
    /// The rest of the current run of one slot apart, as a slice iterator: `next` is then a
    /// pointer bump (measured, `for x in iter_mut() { *x += 1.0 }` over 1024×1024 f32: 0.57 ->
    /// 0.37 ns an element row-major, 0.66 -> 0.41 in `T(8,128)`).
    slots: core::slice::IterMut<'a, T>,
    /// The rest of the current run of slots further apart, whose slots are all below `len`
    /// (checked when it is taken).
    run: Run,
    /// Elements in the runs after the current one.
    later: usize,
    borrow: PhantomData<&'a mut [T]>,
}

/// The next non-empty run of `runs`, checked to lie inside storage of `len` slots.
#[cold]
fn checked_run(runs: &mut LogicalRuns, len: usize) -> Option<Run> {
    while let Some(run) = runs.next_run() {
        if run.len > 0 {
            let last = run.offset + (run.len - 1) * run.stride;
            assert!(last < len, "an element offset is inside the storage");
            return Some(run);
        }
    }
    None
}

#[allow(unsafe_code)]
impl<'a, T> Iterator for IterMut<'a, T> {
    type Item = &'a mut T;

    #[inline]
    fn next(&mut self) -> Option<&'a mut T> {
        if let Some(x) = self.slots.next() {
            return Some(x);
        }
        if self.run.len == 0 {
            let run = checked_run(&mut self.runs, self.len)?;
            self.later -= run.len;
            if run.stride == 1 {
                // SAFETY: as in `fold`: the run's slots `offset..offset + len` are below
                // `len`, and the walk visits each element, hence each slot, once, so this
                // subslice overlaps no reference handed out before or after it.
                self.slots =
                    unsafe { core::slice::from_raw_parts_mut(self.ptr.add(run.offset), run.len) }
                        .iter_mut();
                return self.slots.next();
            }
            self.run = run;
        }
        let o = self.run.offset;
        self.run.offset += self.run.stride;
        self.run.len -= 1;
        // SAFETY: `ptr` and `len` come from a `&'a mut [T]` that this iterator holds (through
        // `borrow`) for all of `'a`, and `o < len` (every slot of the run was checked when it
        // was taken), so `ptr.add(o)` is in bounds and valid for reads and writes for `'a`.
        // The logical walk visits every element once, and distinct elements have distinct
        // slots (the offset map of a layout is injective on in-bounds indices), so no two
        // references handed out alias. Checked against the per-index offsets by the property
        // tests in tests/iterate_props.rs.
        Some(unsafe { &mut *self.ptr.add(o) })
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.later + self.slots.len() + self.run.len;
        (n, Some(n))
    }

    #[inline]
    fn fold<B, F: FnMut(B, &'a mut T) -> B>(mut self, init: B, mut f: F) -> B {
        let mut acc = init;
        for x in core::mem::take(&mut self.slots) {
            acc = f(acc, x);
        }
        let mut run = self.run;
        loop {
            if run.len > 0 {
                let last = run.offset + (run.len - 1) * run.stride;
                assert!(last < self.len, "an element offset is inside the storage");
                if run.stride == 1 {
                    // SAFETY: as in `next`: the run's slots `offset..=last` are below `len`,
                    // and the walk visits each element, hence each slot, once, so this
                    // subslice overlaps no reference handed out before or after it.
                    let sub = unsafe {
                        core::slice::from_raw_parts_mut(self.ptr.add(run.offset), run.len)
                    };
                    for x in sub {
                        acc = f(acc, x);
                    }
                } else {
                    for k in 0..run.len {
                        // SAFETY: as in `next`: every slot of the run is at most `last < len`,
                        // and the walk visits each element, hence each slot, once.
                        let x = unsafe { &mut *self.ptr.add(run.offset + k * run.stride) };
                        acc = f(acc, x);
                    }
                }
            }
            match self.runs.next_run() {
                Some(r) => run = r,
                None => return acc,
            }
        }
    }
}

impl<T> ExactSizeIterator for IterMut<'_, T> {}

// SAFETY: an `IterMut` is a `&'a mut [T]` cut into disjoint `&'a mut T` (see `next`), so it
// may move to or be shared with another thread exactly when such a borrow may, as for
// `core::slice::IterMut`: `Send` when `T: Send`, `Sync` when `T: Sync` (the iterator has no
// `&self` method that reaches the elements).
#[allow(unsafe_code)]
unsafe impl<T: Send> Send for IterMut<'_, T> {}
// SAFETY: as for `Send` above.
#[allow(unsafe_code)]
unsafe impl<T: Sync> Sync for IterMut<'_, T> {}

impl<D: AsRef<[L::Word]>, L: Layout> TensorBase<D, L> {
    /// The elements in logical row-major order (the last dimension fastest), with no
    /// division per element: each row is a few runs of evenly spaced slots (for `T(8,128)`,
    /// one run per tile the row crosses), and `fold`, `sum` and `for_each` loop over each run
    /// directly. See BENCHMARKS.md for its cost against a loop over the raw slice.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let t = Tensor::<layout!(f32[2,3]{0,1})>::from_storage(&[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]).unwrap();
    /// assert_eq!(t.iter().collect::<Vec<_>>(), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    /// assert_eq!(t.iter().len(), 6);
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = L::Elem> + '_ {
        let plan = cache::plan::<L>(&self.extents);
        Values::<L, _>::new(self.as_slice(), LogicalRuns::new(&plan), plan.elements())
    }

    /// The elements in memory order (padding slots skipped), without their indices: the
    /// cheapest way to visit every element when the order does not matter (sums, counts,
    /// comparisons). In a layout without padding this is one loop over the storage.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let t = Tensor::<layout!(f32[3]{0:T(2)})>::from_storage(&[1.0, 2.0, 3.0, 9.0]).unwrap();
    /// assert_eq!(t.values_physical().collect::<Vec<_>>(), [1.0, 2.0, 3.0]); // 9.0 is padding
    /// assert_eq!(t.values_physical().sum::<f32>(), 6.0);
    /// assert_eq!(t.values_physical().len(), 3);
    /// ```
    pub fn values_physical(&self) -> impl ExactSizeIterator<Item = L::Elem> + '_ {
        Values::<L, _>::new(
            self.as_slice(),
            self.memory_runs(),
            L::sizes(&self.extents).elements,
        )
    }

    /// The runs of the element slots in memory order, without indices: for a layout without
    /// padding (as many slots as elements), the one run of every slot, found from the sizes
    /// alone (the plan's lookup measured a third of `map_inplace` over one 4 KiB tile).
    fn memory_runs(&self) -> MemoryRuns {
        let sizes = L::sizes(&self.extents);
        if sizes.elements == sizes.physical_elements {
            return MemoryRuns::whole(sizes.elements);
        }
        MemoryRuns::new(&cache::plan::<L>(&self.extents), false)
    }

    /// The elements in memory order with their logical indices; padding slots are skipped.
    /// The index is updated by one addition per element along each run of slots.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let t = Tensor::<layout!(f32[2,2]{0,1})>::from_logical(&[1.0, 2.0, 3.0, 4.0]).unwrap();
    /// let order: Vec<_> = t.iter_physical().collect();
    /// assert_eq!(order, [([0, 0], 1.0), ([1, 0], 3.0), ([0, 1], 2.0), ([1, 1], 4.0)]);
    /// assert_eq!(t.iter_physical().len(), 4);
    /// ```
    pub fn iter_physical(&self) -> impl ExactSizeIterator<Item = (L::Index, L::Elem)> + '_ {
        let plan = cache::plan::<L>(&self.extents);
        let runs = MemoryRuns::new(&plan, true);
        Physical::<L> {
            words: self.as_slice(),
            step: runs.step(),
            runs,
            run: EMPTY,
            index: L::Index::default(),
            remaining: plan.elements(),
        }
    }
}

impl<D: AsRef<[L::Word]> + AsMut<[L::Word]>, L: Layout> TensorBase<D, L> {
    /// Replaces every element `x` by `f(x)`, in memory order, run by run (one loop over the
    /// storage for a layout without padding).
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let mut t = Tensor::<layout!(s32[2,2]{0,1})>::from_logical(&[1, 2, 3, 4]).unwrap();
    /// t.map_inplace(|x| x * 10);
    /// assert_eq!(t.to_logical(), [10, 20, 30, 40]);
    /// ```
    pub fn map_inplace(&mut self, mut f: impl FnMut(L::Elem) -> L::Elem) {
        let sizes = L::sizes(&self.extents);
        if !L::PACKED && sizes.elements == sizes.physical_elements {
            // Every slot an element: no runs to walk.
            return map_along::<L>(&mut self.as_mut_slice()[..sizes.elements], &mut f);
        }
        let mut runs = self.memory_runs();
        let words = self.as_mut_slice();
        while let Some(run) = runs.next_run(None) {
            if run.len == 0 {
                continue;
            }
            if !L::PACKED && run.stride == 1 {
                map_along::<L>(&mut words[run.offset..run.offset + run.len], &mut f);
            } else {
                for k in 0..run.len {
                    let o = run.offset + k * run.stride;
                    let v = f(L::load(words, o));
                    L::store(words, o, v);
                }
            }
        }
    }

    /// Replaces every element `x` by `f(x, y)`, with `y` the element at the same index of
    /// `other` (same layout, so the same slot), in memory order, run by run.
    ///
    /// # Panics
    /// If the two tensors of a dynamic layout have different dimensions.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// type L = layout!(f32[2,2]{0,1});
    /// let mut a = Tensor::<L>::from_logical(&[1.0, 2.0, 3.0, 4.0]).unwrap();
    /// let b = Tensor::<L>::from_logical(&[10.0, 20.0, 30.0, 40.0]).unwrap();
    /// a.zip_with(&b, |x, y| x + y);
    /// assert_eq!(a.to_logical(), [11.0, 22.0, 33.0, 44.0]);
    /// ```
    pub fn zip_with<D2: AsRef<[L::Word]>>(
        &mut self,
        other: &TensorBase<D2, L>,
        mut f: impl FnMut(L::Elem, L::Elem) -> L::Elem,
    ) {
        assert!(
            self.extents == other.extents,
            "zip_with needs equal dims: {:?} and {:?} of {}",
            self.dims(),
            other.dims(),
            L::CANONICAL
        );
        let mut runs = self.memory_runs();
        let theirs = other.as_slice();
        let words = self.as_mut_slice();
        while let Some(run) = runs.next_run(None) {
            if run.len == 0 {
                continue;
            }
            if !L::PACKED && run.stride == 1 {
                let range = run.offset..run.offset + run.len;
                let (sub, other) = (&mut words[range.clone()], &theirs[range]);
                for k in 0..sub.len().min(other.len()) {
                    let v = f(L::load(sub, k), L::load(other, k));
                    L::store(sub, k, v);
                }
            } else {
                for k in 0..run.len {
                    let o = run.offset + k * run.stride;
                    let v = f(L::load(words, o), L::load(theirs, o));
                    L::store(words, o, v);
                }
            }
        }
    }
}

impl<D: AsRef<[L::Elem]> + AsMut<[L::Elem]>, L: Layout<Word = <L as Layout>::Elem>>
    TensorBase<D, L>
{
    /// Mutable references to the elements in logical row-major order, with no allocation per
    /// element: the logical walk of [`iter`](TensorBase::iter) (whose tables, one entry per
    /// coordinate of each dimension, are allocated once) handing out one reference per element.
    /// `for_each` (and every adapter that folds) goes run by run, as fast as a loop over a
    /// slice; a `for` loop calls `next` per element, about 1 ns each (BENCHMARKS.md), so
    /// prefer `for_each` or [`map_inplace`](TensorBase::map_inplace) in hot loops.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let mut t = Tensor::<layout!(s32[2,2]{0,1})>::zeros();
    /// assert_eq!(t.iter_mut().len(), 4);
    /// for (x, v) in t.iter_mut().zip(1..) {
    ///     *x = v; // logical order: [0,0], [0,1], [1,0], [1,1]
    /// }
    /// assert_eq!(t.as_slice(), &[1, 3, 2, 4]);
    /// ```
    pub fn iter_mut(&mut self) -> impl ExactSizeIterator<Item = &mut L::Elem> + '_ {
        let plan = cache::plan::<L>(&self.extents);
        let words = self.data.as_mut();
        IterMut {
            ptr: words.as_mut_ptr(),
            len: words.len(),
            runs: LogicalRuns::new(&plan),
            slots: Default::default(),
            run: EMPTY,
            later: plan.elements(),
            borrow: PhantomData,
        }
    }
}

/// `f` over a run of slots one after the other (of a layout whose slots are its words), in
/// one loop the compiler vectorizes.
#[inline(always)]
fn map_along<L: Layout>(sub: &mut [L::Word], f: &mut impl FnMut(L::Elem) -> L::Elem) {
    for k in 0..sub.len() {
        let v = f(L::load(sub, k));
        L::store(sub, k, v);
    }
}
