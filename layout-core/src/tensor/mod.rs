//! Typed tensor buffers over layout types: [`Tensor`] (owned, 64-byte aligned), and the
//! borrowed [`TensorRef`] and [`TensorMut`] over slices. All three are a [`TensorBase`] with
//! one layout type parameter, written `Tensor<Act>`.
//!
//! ```
//! use xla_layout::layout;
//! use xla_layout::tensor::Tensor;
//!
//! type Col = layout!(f32[2,3]{0,1});
//! let t = Tensor::<Col>::from_logical(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
//! assert_eq!(t.as_slice(), &[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]); // column-major: a d b e c f
//! assert_eq!(t[[1, 2]], 6.0);
//! assert_eq!(t.to_logical(), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
//! ```

mod aligned;
mod bits;
#[cfg(feature = "bytemuck")]
mod bytes;
mod cache;
mod digits;
mod kernels;
#[cfg(feature = "ndarray")]
mod ndarray;
mod nest;
mod relayout;
mod stream;
mod words;

use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

#[cfg(feature = "ndarray")]
pub use self::ndarray::NdarrayError;
pub use aligned::{AlignedBuf, BUFFER_ALIGN};
#[cfg(feature = "bytemuck")]
pub use bytes::BytesError;
pub use relayout::{CopyPlan, RelayoutError, Side, relayout};

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
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let t = Tensor::<layout!(f32[3,5]{1,0:T(2,2)})>::zeros();
    /// assert_eq!(t.as_slice().len(), 24); // 2x3 tiles of 2x2, padding included
    /// assert!(t.iter().all(|x| x == 0.0));
    /// ```
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
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// type Tiled = layout!(f32[3,5]{1,0:T(2,2)});
    /// let values: Vec<f32> = (0..15).map(|x| x as f32).collect();
    /// let t = Tensor::<Tiled>::from_logical(&values).unwrap();
    /// assert_eq!(t.as_slice()[17], 13.0); // [2,3] lives at offset 17 (XLA's tiled_layout.md)
    /// assert!(Tensor::<Tiled>::from_logical(&values[..14]).is_err());
    /// ```
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
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let t = Tensor::<layout!(s32[2,2]{0,1})>::from_storage(&[1, 3, 2, 4]).unwrap();
    /// assert_eq!(t.to_logical(), [1, 2, 3, 4]);
    /// ```
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
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// // Size-1 dims can move without moving any element: the same offsets, so a bitcast.
    /// let t = Tensor::<layout!(f32[1,4]{1,0})>::from_logical(&[1.0, 2.0, 3.0, 4.0]).unwrap();
    /// let u: Tensor<layout!(f32[1,4]{0,1})> = t.bitcast();
    /// assert_eq!(u[[0, 2]], 3.0);
    /// ```
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
    ///
    /// ```
    /// use xla_layout::{layout, tensor::TensorRef};
    /// let storage = [1.0f32, 3.0, 2.0, 4.0];
    /// let t = TensorRef::<layout!(f32[2,2]{0,1})>::from_slice(&storage).unwrap();
    /// assert_eq!(t[[0, 1]], 2.0);
    /// ```
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
    ///
    /// ```
    /// use xla_layout::{layout, tensor::TensorMut};
    /// let mut storage = [0.0f32; 4];
    /// let mut t = TensorMut::<layout!(f32[2,2]{0,1})>::from_slice_mut(&mut storage).unwrap();
    /// t[[0, 1]] = 5.0;
    /// assert_eq!(storage, [0.0, 0.0, 5.0, 0.0]);
    /// ```
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
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let t = Tensor::<layout!(s8[2,3]{0,1})>::from_logical(&[1, 2, 3, 4, 5, 6]).unwrap();
    /// assert_eq!(t.as_slice(), &[1, 4, 2, 5, 3, 6]);
    /// ```
    pub fn as_slice(&self) -> &[L::Word] {
        self.data.as_ref()
    }

    /// A borrowed view.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::{Tensor, TensorRef}};
    /// type L = layout!(f32[2]);
    /// fn total(t: TensorRef<'_, L>) -> f32 { t.iter().sum() }
    /// let t = Tensor::<L>::from_logical(&[1.5, 2.5]).unwrap();
    /// assert_eq!(total(t.view()), 4.0);
    /// ```
    pub fn view(&self) -> TensorRef<'_, L> {
        TensorBase {
            data: self.data.as_ref(),
            layout: PhantomData,
        }
    }

    /// The element at `index`, or `None` if out of bounds.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// use xla_layout::typed::I4;
    /// let values: Vec<I4> = (0..8).map(|v| I4::new(v).unwrap()).collect();
    /// let t = Tensor::<layout!(s4[2,4]{1,0:E(4)})>::from_logical(&values).unwrap();
    /// assert_eq!(t.as_slice().len(), 4); // packed two per byte
    /// assert_eq!(t.get([1, 2]).map(I4::get), Some(6));
    /// assert_eq!(t.get([2, 0]), None);
    /// ```
    pub fn get(&self, index: L::Index) -> Option<L::Elem> {
        L::checked_offset(index).map(|o| L::load(self.as_slice(), o))
    }

    /// The elements in logical row-major order.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let t = Tensor::<layout!(u8[2,2]{0,1})>::from_storage(&[1, 3, 2, 4]).unwrap();
    /// assert_eq!(t.to_logical(), [1, 2, 3, 4]);
    /// ```
    pub fn to_logical(&self) -> Vec<L::Elem> {
        self.iter().collect()
    }

    /// The elements in logical row-major order (the last dimension fastest), with no
    /// division per element.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let t = Tensor::<layout!(f32[2,3]{0,1})>::from_storage(&[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]).unwrap();
    /// assert_eq!(t.iter().collect::<Vec<_>>(), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = L::Elem> + '_ {
        let words = self.as_slice();
        logical_offsets::<L>().map(move |o| L::load(words, o))
    }

    /// The elements in memory order with their logical indices; padding slots are skipped.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let t = Tensor::<layout!(f32[2,2]{0,1})>::from_logical(&[1.0, 2.0, 3.0, 4.0]).unwrap();
    /// let order: Vec<_> = t.iter_physical().collect();
    /// assert_eq!(order, [([0, 0], 1.0), ([1, 0], 3.0), ([0, 1], 2.0), ([1, 1], 4.0)]);
    /// ```
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
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let mut t = Tensor::<layout!(f32[2,2]{0,1})>::zeros();
    /// t.as_mut_slice()[1] = 7.0; // the second slot in memory is [1, 0]
    /// assert_eq!(t[[1, 0]], 7.0);
    /// ```
    pub fn as_mut_slice(&mut self) -> &mut [L::Word] {
        self.data.as_mut()
    }

    /// A mutably borrowed view.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::{Tensor, TensorMut}};
    /// type L = layout!(f32[3]);
    /// fn double(mut t: TensorMut<'_, L>) { t.map_inplace(|x| 2.0 * x) }
    /// let mut t = Tensor::<L>::from_logical(&[1.0, 2.0, 3.0]).unwrap();
    /// double(t.view_mut());
    /// assert_eq!(t.to_logical(), [2.0, 4.0, 6.0]);
    /// ```
    pub fn view_mut(&mut self) -> TensorMut<'_, L> {
        TensorBase {
            data: self.data.as_mut(),
            layout: PhantomData,
        }
    }

    /// Writes the element at `index`; returns `false` (and writes nothing) if out of bounds.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let mut t = Tensor::<layout!(f32[3,5]{1,0:T(2,2)})>::zeros();
    /// assert!(t.set([2, 3], 1.0));
    /// assert_eq!(t.as_slice()[17], 1.0);
    /// assert!(!t.set([3, 0], 1.0)); // out of bounds: nothing written
    /// ```
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
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let mut t = Tensor::<layout!(f32[3]{0:T(2)})>::zeros();
    /// t.fill(1.0);
    /// assert_eq!(t.as_slice(), &[1.0, 1.0, 1.0, 0.0]); // the padding slot keeps its zero
    /// ```
    pub fn fill(&mut self, value: L::Elem) {
        self.map_inplace(|_| value);
    }

    /// Replaces every element `x` by `f(x)`, in memory order.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let mut t = Tensor::<layout!(s32[2,2]{0,1})>::from_logical(&[1, 2, 3, 4]).unwrap();
    /// t.map_inplace(|x| x * 10);
    /// assert_eq!(t.to_logical(), [10, 20, 30, 40]);
    /// ```
    pub fn map_inplace(&mut self, mut f: impl FnMut(L::Elem) -> L::Elem) {
        let words = self.as_mut_slice();
        for (offset, _) in memory_order::<L>() {
            let v = L::load(words, offset);
            L::store(words, offset, f(v));
        }
    }

    /// Replaces every element `x` by `f(x, y)`, with `y` the element at the same index of
    /// `other` (same layout, so the same slot).
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
        let theirs = other.as_slice();
        let words = self.as_mut_slice();
        for (offset, _) in memory_order::<L>() {
            let v = f(L::load(words, offset), L::load(theirs, offset));
            L::store(words, offset, v);
        }
    }

    /// Copies every element of `src` (same dimensions and element type, any layout) into
    /// this tensor's layout: one `memcpy` for layouts that put every element at the same
    /// offset, else the engine of [`CopyPlan`] (the runtime relayout), whose plan for the pair
    /// `(L, L2)` is built on the first call and kept, so later calls build nothing. It copies
    /// runs of slots, interleaves `(2,1)` `(4,1)` `(8,1)` pairs (or splits them back) and
    /// transposes small blocks in registers; copies of 16 MiB or more write whole cache lines
    /// with non-temporal stores on x86_64 (see BENCHMARKS.md). The source must have the same
    /// [`Layout::Dims`] and element type: a mismatch is a type error at the call.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// use xla_layout::half::bf16;
    /// let logical: Vec<bf16> = (0..16 * 256).map(|i| bf16::from_f32(i as f32)).collect();
    /// let rows = Tensor::<layout!(bf16[16,256])>::from_logical(&logical).unwrap();
    /// let mut tpu = Tensor::<layout!(bf16[16,256]{1,0:T(8,128)(2,1)})>::zeros();
    /// tpu.copy_from(&rows);
    /// assert_eq!(tpu.as_slice()[1], logical[256]); // (2,1) pairs: [1,0] sits next to [0,0]
    /// assert_eq!(tpu.to_logical(), logical);
    /// ```
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
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let t = Tensor::<layout!(f32[2]{0})>::from_logical(&[1.0, 2.0]).unwrap();
    /// assert_eq!(t.get_ref([1]), Some(&2.0));
    /// assert_eq!(t.get_ref([2]), None);
    /// ```
    pub fn get_ref(&self, index: L::Index) -> Option<&L::Elem> {
        L::checked_offset(index).map(|o| &self.data.as_ref()[o])
    }

    /// The element at `index` without a bounds check on the index.
    ///
    /// # Safety
    /// `index` must be in bounds: every entry below its dimension. Then its offset is below
    /// [`Layout::PHYSICAL_ELEMENTS`], the length of the storage.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let t = Tensor::<layout!(f32[2,2]{0,1})>::from_logical(&[1.0, 2.0, 3.0, 4.0]).unwrap();
    /// // SAFETY: [1, 0] is below the dims [2, 2].
    /// assert_eq!(unsafe { *t.get_unchecked([1, 0]) }, 3.0);
    /// ```
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
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let mut t = Tensor::<layout!(f32[2,2]{0,1})>::zeros();
    /// *t.get_mut([0, 1]).unwrap() = 2.0;
    /// assert_eq!(t.as_slice(), &[0.0, 0.0, 2.0, 0.0]);
    /// ```
    pub fn get_mut(&mut self, index: L::Index) -> Option<&mut L::Elem> {
        L::checked_offset(index).map(|o| &mut self.data.as_mut()[o])
    }

    /// Mutable references to the elements in logical row-major order. To stay free of
    /// `unsafe`, it first collects one reference per storage slot (a `Vec` as long as the
    /// storage), then hands them out in logical order.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let mut t = Tensor::<layout!(s32[2,2]{0,1})>::zeros();
    /// for (x, v) in t.iter_mut().zip(1..) {
    ///     *x = v; // logical order: [0,0], [0,1], [1,0], [1,1]
    /// }
    /// assert_eq!(t.as_slice(), &[1, 3, 2, 4]);
    /// ```
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

/// How many elements `Debug` shows before it elides the rest.
const DEBUG_PREVIEW: usize = 16;

/// The canonical layout and a bounded preview of the elements in logical order: at most
/// 16, then how many more there are, so printing a 64 MB tensor stays one short line.
///
/// ```
/// use xla_layout::{layout, tensor::Tensor};
/// let t = Tensor::<layout!(s32[2,2]{0,1})>::from_logical(&[1, 2, 3, 4]).unwrap();
/// assert_eq!(format!("{t:?}"), "Tensor<s32[2,2]{0,1}> [1, 2, 3, 4]");
///
/// let big = Tensor::<layout!(u8[1024,1024])>::zeros();
/// assert!(format!("{big:?}").ends_with("0, 0, ... 1048560 more]"));
/// ```
impl<D: AsRef<[L::Word]>, L: Layout> fmt::Debug for TensorBase<D, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tensor<{}> [", L::CANONICAL)?;
        for (i, x) in self.iter().take(DEBUG_PREVIEW).enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{x:?}")?;
        }
        if L::ELEMENTS > DEBUG_PREVIEW {
            write!(f, ", ... {} more", L::ELEMENTS - DEBUG_PREVIEW)?;
        }
        f.write_str("]")
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
