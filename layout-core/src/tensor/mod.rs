//! Typed tensor buffers over layout types: [`Tensor`] (owned, 64-byte aligned), and the
//! borrowed [`TensorRef`] and [`TensorMut`] over slices. All three are a [`TensorBase`] with
//! one layout type parameter, written `Tensor<Act>`.
//!
//! ```
//! use xla_layout::tensor::Tensor;
//! use xla_layout::typed::Layout;
//! # use xla_layout::typed::*;
//! # // `layout!(f32[2,3]{0,1})`, spelled out because this crate cannot use the macro.
//! # type Col = Array<elem::F32, 2, Direct, Cons<2, Cons<3, Nil>>, Cons<0, Cons<1, Nil>>, Nil,
//! #     Meta<32, 0, 6, 6, 24, 0, 6, 0>,
//! #     Text<13, Chunk<0x6633325b322c335d7b302c317d000000, Nil>>,
//! #     Term<Idx<1>, 2, Term<Idx<0>, 1, Nil>>,
//! #     Coords<Rem<Idx<0>, 2>, Coords<Div<Idx<0>, 2>, Nil>>,
//! #     Cons<2, Cons<1, Cons<3, Cons<2, Nil>>>>>;
//! let t = Tensor::<Col>::from_logical(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
//! assert_eq!(t.as_slice(), &[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]); // the seed's `a d b e c f`
//! assert_eq!(t[[1, 2]], 6.0);
//! assert_eq!(t.to_logical(), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
//! ```

mod aligned;
#[cfg(feature = "bytemuck")]
mod bytes;
#[cfg(feature = "ndarray")]
mod ndarray;
mod relayout;
mod stream;

use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

#[cfg(feature = "ndarray")]
pub use self::ndarray::NdarrayError;
pub use aligned::{AlignedBuf, BUFFER_ALIGN};
#[cfg(feature = "bytemuck")]
pub use bytes::BytesError;

use crate::index::{LogicalOffsets, MemoryOrder};
use crate::typed::Layout;

/// A tensor: storage `D` (owned or borrowed words) holding an array laid out as `L`.
///
/// Use the aliases [`Tensor`], [`TensorRef`] and [`TensorMut`].
pub struct TensorBase<D, L: Layout> {
    data: D,
    layout: PhantomData<fn() -> L>,
}

/// An owned tensor with 64-byte-aligned storage.
pub type Tensor<L> = TensorBase<AlignedBuf<<L as Layout>::Word>, L>;
/// A tensor borrowing its storage.
pub type TensorRef<'a, L> = TensorBase<&'a [<L as Layout>::Word], L>;
/// A tensor borrowing its storage mutably.
pub type TensorMut<'a, L> = TensorBase<&'a mut [<L as Layout>::Word], L>;

/// A slice or list whose length does not fit the layout.
///
/// ```
/// use xla_layout::tensor::LengthError;
/// let e = LengthError { expected: 24, found: 15, what: "physical storage" };
/// assert_eq!(e.to_string(), "physical storage has 15 entries, but the layout needs 24");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LengthError {
    /// The length the layout needs.
    pub expected: usize,
    /// The length given.
    pub found: usize,
    /// What was measured.
    pub what: &'static str,
}

impl fmt::Display for LengthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} has {} entries, but the layout needs {}",
            self.what, self.found, self.expected
        )
    }
}

impl core::error::Error for LengthError {}

fn check_len(expected: usize, found: usize, what: &'static str) -> Result<(), LengthError> {
    if expected == found {
        Ok(())
    } else {
        Err(LengthError {
            expected,
            found,
            what,
        })
    }
}

impl<L: Layout> TensorBase<AlignedBuf<L::Word>, L> {
    /// A tensor whose storage is all zero words (for `Direct` storage, `Elem::default()`).
    pub fn zeros() -> Self {
        TensorBase {
            data: AlignedBuf::filled(L::STORAGE_WORDS, L::Word::default()),
            layout: PhantomData,
        }
    }

    /// A tensor holding row-major logical data (the last dimension fastest); padding slots
    /// are zero.
    ///
    /// # Errors
    /// If `values.len()` is not the number of elements.
    pub fn from_logical(values: &[L::Elem]) -> Result<Self, LengthError> {
        check_len(L::ELEMENTS, values.len(), "logical data")?;
        let mut t = Self::zeros();
        let words = &mut *t.data;
        for (offset, &v) in logical_offsets::<L>().zip(values) {
            L::store(words, offset, v);
        }
        Ok(t)
    }

    /// A tensor owning a copy of physical storage.
    ///
    /// # Errors
    /// If `words.len()` is not [`Layout::STORAGE_WORDS`].
    pub fn from_storage(words: &[L::Word]) -> Result<Self, LengthError> {
        check_len(L::STORAGE_WORDS, words.len(), "physical storage")?;
        Ok(TensorBase {
            data: AlignedBuf::from_slice(words),
            layout: PhantomData,
        })
    }

    /// Reinterprets the storage under another layout that puts every element at the same
    /// offset (XLA's bitcast idea). Checked by the type system: the two layouts must have
    /// the same [`Layout::BitcastSignature`], so a call that is not a bitcast is a type error
    /// at the call.
    pub fn bitcast<L2>(self) -> Tensor<L2>
    where
        L2: Layout<Word = L::Word, Elem = L::Elem, BitcastSignature = L::BitcastSignature>,
    {
        TensorBase {
            data: self.data,
            layout: PhantomData,
        }
    }
}

impl<'a, L: Layout> TensorBase<&'a [L::Word], L> {
    /// A tensor over borrowed physical storage.
    ///
    /// # Errors
    /// If `words.len()` is not [`Layout::STORAGE_WORDS`].
    pub fn from_slice(words: &'a [L::Word]) -> Result<Self, LengthError> {
        check_len(L::STORAGE_WORDS, words.len(), "physical storage")?;
        Ok(TensorBase {
            data: words,
            layout: PhantomData,
        })
    }
}

impl<'a, L: Layout> TensorBase<&'a mut [L::Word], L> {
    /// A tensor over mutably borrowed physical storage.
    ///
    /// # Errors
    /// If `words.len()` is not [`Layout::STORAGE_WORDS`].
    pub fn from_slice_mut(words: &'a mut [L::Word]) -> Result<Self, LengthError> {
        check_len(L::STORAGE_WORDS, words.len(), "physical storage")?;
        Ok(TensorBase {
            data: words,
            layout: PhantomData,
        })
    }
}

/// Offsets of every element in logical order, computed once per traversal.
fn logical_offsets<L: Layout>() -> LogicalOffsets {
    L::plan().logical_offsets()
}

fn memory_order<L: Layout>() -> MemoryOrder {
    L::plan().memory_order()
}

impl<D: AsRef<[L::Word]>, L: Layout> TensorBase<D, L> {
    /// The physical storage (element slots, or bytes for packed layouts).
    pub fn as_slice(&self) -> &[L::Word] {
        self.data.as_ref()
    }

    /// A borrowed view.
    pub fn view(&self) -> TensorRef<'_, L> {
        TensorBase {
            data: self.data.as_ref(),
            layout: PhantomData,
        }
    }

    /// The element at `index`, or `None` if out of bounds.
    pub fn get(&self, index: L::Index) -> Option<L::Elem> {
        L::checked_offset(index).map(|o| L::load(self.as_slice(), o))
    }

    /// The elements in logical row-major order.
    pub fn to_logical(&self) -> Vec<L::Elem> {
        self.iter().collect()
    }

    /// The elements in logical row-major order (the last dimension fastest), with no
    /// division per element.
    pub fn iter(&self) -> impl Iterator<Item = L::Elem> + '_ {
        let words = self.as_slice();
        logical_offsets::<L>().map(move |o| L::load(words, o))
    }

    /// The elements in memory order with their logical indices; padding slots are skipped.
    pub fn iter_physical(&self) -> impl Iterator<Item = (L::Index, L::Elem)> + '_ {
        let words = self.as_slice();
        let mut order = memory_order::<L>();
        core::iter::from_fn(move || {
            let mut index = L::Index::default();
            let offset = order.next_with_index(index.as_mut())?;
            Some((index, L::load(words, offset)))
        })
    }
}

impl<D: AsRef<[L::Word]> + AsMut<[L::Word]>, L: Layout> TensorBase<D, L> {
    /// The physical storage, mutably.
    pub fn as_mut_slice(&mut self) -> &mut [L::Word] {
        self.data.as_mut()
    }

    /// A mutably borrowed view.
    pub fn view_mut(&mut self) -> TensorMut<'_, L> {
        TensorBase {
            data: self.data.as_mut(),
            layout: PhantomData,
        }
    }

    /// Writes the element at `index`; returns `false` (and writes nothing) if out of bounds.
    pub fn set(&mut self, index: L::Index, value: L::Elem) -> bool {
        match L::checked_offset(index) {
            Some(o) => {
                L::store(self.as_mut_slice(), o, value);
                true
            }
            None => false,
        }
    }

    /// Sets every element (not the padding slots) to `value`.
    pub fn fill(&mut self, value: L::Elem) {
        self.map_inplace(|_| value);
    }

    /// Replaces every element `x` by `f(x)`, in memory order.
    pub fn map_inplace(&mut self, mut f: impl FnMut(L::Elem) -> L::Elem) {
        let words = self.as_mut_slice();
        for (offset, _) in memory_order::<L>() {
            let v = L::load(words, offset);
            L::store(words, offset, f(v));
        }
    }

    /// Replaces every element `x` by `f(x, y)`, with `y` the element at the same index of
    /// `other` (same layout, so the same slot).
    pub fn zip_with<D2: AsRef<[L::Word]>>(
        &mut self,
        other: &TensorBase<D2, L>,
        mut f: impl FnMut(L::Elem, L::Elem) -> L::Elem,
    ) {
        let theirs = other.as_slice();
        let words = self.as_mut_slice();
        for (offset, _) in memory_order::<L>() {
            let v = f(L::load(words, offset), L::load(theirs, offset));
            L::store(words, offset, v);
        }
    }

    /// Copies every element of `src` (same dimensions and element type, any layout) into
    /// this tensor's layout: one `memcpy` for identical layouts, loops over the tiled side's
    /// tiles copying whole tile rows (and interleaving `(2,1)` pairs) between an untiled and a
    /// tiled layout, and a per-element copy otherwise. Copies of 16 MiB or more write those
    /// tile rows with non-temporal stores on x86_64 (see BENCHMARKS.md). The source must have
    /// the same [`Layout::Dims`] and element type: a mismatch is a type error at the call.
    ///
    /// Each call builds the runtime [`Plan`](crate::Plan) of both layouts (parsing their
    /// canonical text): a few microseconds, negligible for large tensors but not for many
    /// copies of tiny ones.
    pub fn copy_from<D2, L2>(&mut self, src: &TensorBase<D2, L2>)
    where
        D2: AsRef<[L2::Word]>,
        L2: Layout<Elem = L::Elem, Dims = L::Dims>,
    {
        relayout::copy::<L, L2>(self.as_mut_slice(), src.as_slice());
    }
}

/// Unit-stride access by reference, for layouts that store one element per slot.
impl<D: AsRef<[L::Elem]>, L: Layout<Word = <L as Layout>::Elem>> TensorBase<D, L> {
    /// A reference to the element at `index`, or `None` if out of bounds.
    pub fn get_ref(&self, index: L::Index) -> Option<&L::Elem> {
        L::checked_offset(index).map(|o| &self.data.as_ref()[o])
    }

    /// The element at `index` without a bounds check on the index.
    ///
    /// # Safety
    /// `index` must be in bounds: every entry below its dimension. Then its offset is below
    /// [`Layout::PHYSICAL_ELEMENTS`], the length of the storage.
    #[allow(unsafe_code)]
    pub unsafe fn get_unchecked(&self, index: L::Index) -> &L::Elem {
        let offset = L::offset(index);
        // SAFETY: by the caller's contract the index is in bounds, so `offset` is the slot of
        // an element, below the storage length checked when the tensor was made.
        unsafe { self.data.as_ref().get_unchecked(offset) }
    }
}

impl<D: AsRef<[L::Elem]> + AsMut<[L::Elem]>, L: Layout<Word = <L as Layout>::Elem>>
    TensorBase<D, L>
{
    /// A mutable reference to the element at `index`, or `None` if out of bounds.
    pub fn get_mut(&mut self, index: L::Index) -> Option<&mut L::Elem> {
        L::checked_offset(index).map(|o| &mut self.data.as_mut()[o])
    }

    /// Mutable references to the elements in logical row-major order. To stay free of
    /// `unsafe`, it first collects one reference per storage slot (a `Vec` as long as the
    /// storage), then hands them out in logical order.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut L::Elem> + '_ {
        let mut rest: Vec<Option<&mut L::Elem>> = self.data.as_mut().iter_mut().map(Some).collect();
        logical_offsets::<L>().filter_map(move |o| rest[o].take())
    }
}

fn out_of_bounds<L: Layout>(index: &L::Index) -> ! {
    panic!(
        "index {:?} is out of bounds for dims {:?} of {}",
        index.as_ref(),
        L::DIMS,
        L::CANONICAL
    )
}

/// `t[[i, j, ...]]`: bounds-checked; panics with the index and the dims when out of bounds.
impl<D: AsRef<[L::Elem]>, L: Layout<Word = <L as Layout>::Elem>> core::ops::Index<L::Index>
    for TensorBase<D, L>
{
    type Output = L::Elem;
    fn index(&self, index: L::Index) -> &L::Elem {
        match L::checked_offset(index) {
            Some(o) => &self.data.as_ref()[o],
            None => out_of_bounds::<L>(&index),
        }
    }
}

impl<D: AsRef<[L::Elem]> + AsMut<[L::Elem]>, L: Layout<Word = <L as Layout>::Elem>>
    core::ops::IndexMut<L::Index> for TensorBase<D, L>
{
    fn index_mut(&mut self, index: L::Index) -> &mut L::Elem {
        match L::checked_offset(index) {
            Some(o) => &mut self.data.as_mut()[o],
            None => out_of_bounds::<L>(&index),
        }
    }
}

impl<D: AsRef<[L::Word]>, L: Layout> fmt::Debug for TensorBase<D, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tensor")
            .field("layout", &L::CANONICAL)
            .field("logical", &self.to_logical())
            .finish()
    }
}

impl<D: Clone, L: Layout> Clone for TensorBase<D, L> {
    fn clone(&self) -> Self {
        TensorBase {
            data: self.data.clone(),
            layout: PhantomData,
        }
    }
}
