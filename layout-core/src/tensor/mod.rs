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
#[cfg(target_arch = "x86_64")]
mod avx2;
mod bits;
#[cfg(feature = "bytemuck")]
mod bytes;
mod cache;
mod carry;
mod digits;
mod iter;
mod kernels;
mod lanes;
#[cfg(feature = "ndarray")]
mod ndarray;
mod nest;
mod relayout;
mod schedule;
mod stream;
mod words;

use alloc::vec::Vec;
use core::fmt;

#[cfg(feature = "ndarray")]
pub use self::ndarray::NdarrayError;
pub use crate::typed::LengthError;
pub use aligned::{AlignedBuf, BUFFER_ALIGN};
#[cfg(feature = "bytemuck")]
pub use bytes::BytesError;
pub use relayout::{CopyPlan, RelayoutError, Side, relayout};

#[cfg(feature = "ndarray")]
use crate::index::LogicalOffsets;
use crate::typed::{
    DimsError, DynArray, DynExtents, ElementType, Layout, SameArrayAs, Sizes, Static, StaticLayout,
    StorageKind,
};

/// Runs `f` with the AVX2 kernels off if `!avx2` (their 16-byte paths, on a CPU that has
/// AVX2), then turns them on again.
#[cfg(test)]
pub(crate) fn with_avx2<R>(avx2: bool, f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    avx2::OFF.store(!avx2, core::sync::atomic::Ordering::Relaxed);
    #[cfg(not(target_arch = "x86_64"))]
    let _ = avx2;
    let out = f();
    #[cfg(target_arch = "x86_64")]
    avx2::OFF.store(false, core::sync::atomic::Ordering::Relaxed);
    out
}

/// A tensor: storage `D` (owned or borrowed words) holding an array laid out as `L`, with
/// the extents of `L`'s dynamic dimensions ([`Static`], no data, for static layouts).
///
/// Use the aliases [`Tensor`], [`TensorRef`] and [`TensorMut`].
///
/// ```
/// use xla_layout::{layout, tensor::{Tensor, TensorBase}};
/// type L = layout!(f32[2,2]{0,1});
/// let t: TensorBase<_, L> = Tensor::<L>::zeros();
/// assert_eq!(t.as_slice(), &[0.0; 4]);
/// ```
pub struct TensorBase<D, L: Layout> {
    data: D,
    extents: L::Extents,
}

/// An owned tensor with 64-byte-aligned storage.
///
/// ```
/// use xla_layout::{layout, tensor::Tensor};
/// let t = Tensor::<layout!(bf16[16,256]{1,0:T(8,128)(2,1)})>::zeros();
/// assert_eq!(t.as_slice().len(), 16 * 256);
/// ```
pub type Tensor<L> = TensorBase<AlignedBuf<<L as Layout>::Word>, L>;
/// A tensor borrowing its storage.
///
/// ```
/// use xla_layout::{layout, tensor::TensorRef};
/// let words = [1u32, 2, 3, 4, 5, 6];
/// let t = TensorRef::<layout!(u32[2,3]{0,1})>::from_slice(&words).unwrap();
/// assert_eq!(t[[0, 1]], 3);
/// ```
pub type TensorRef<'a, L> = TensorBase<&'a [<L as Layout>::Word], L>;
/// A tensor borrowing its storage mutably.
///
/// ```
/// use xla_layout::{layout, tensor::TensorMut};
/// let mut words = [0u32; 6];
/// let mut t = TensorMut::<layout!(u32[2,3]{0,1})>::from_slice_mut(&mut words).unwrap();
/// t.fill(9);
/// assert_eq!(words, [9; 6]);
/// ```
pub type TensorMut<'a, L> = TensorBase<&'a mut [<L as Layout>::Word], L>;

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

/// Constructors for any layout, from its checked extents ([`Layout::extents`]). Static and
/// dynamic layouts also have shorter forms: `zeros()` and `zeros(dims)`, and so on.
impl<L: Layout> TensorBase<AlignedBuf<L::Word>, L> {
    /// A tensor whose storage is all zero words (for `Direct` storage, `Elem::default()`).
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor, typed::Layout};
    /// type Batch = layout!(f32[?,128]{1,0:T(8,128)});
    /// let t = Tensor::<Batch>::zeros_in(Batch::extents([3, 128]).unwrap());
    /// assert_eq!(t.as_slice().len(), 1024); // one 8x128 tile
    /// ```
    pub fn zeros_in(extents: L::Extents) -> Self {
        TensorBase {
            data: AlignedBuf::filled(L::sizes(&extents).storage_words, L::Word::default()),
            extents,
        }
    }

    /// A tensor holding row-major logical data (the last dimension fastest); padding slots
    /// are zero.
    ///
    /// # Errors
    /// If `values.len()` is not the number of elements.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor, typed::Layout};
    /// type Batch = layout!(s32[?,2]{0,1});
    /// let e = Batch::extents([3, 2]).unwrap();
    /// let t = Tensor::<Batch>::from_logical_in(e, &[1, 2, 3, 4, 5, 6]).unwrap();
    /// assert_eq!(t.as_slice(), &[1, 3, 5, 2, 4, 6]);
    /// ```
    pub fn from_logical_in(extents: L::Extents, values: &[L::Elem]) -> Result<Self, LengthError> {
        check_len(L::sizes(&extents).elements, values.len(), "logical data")?;
        let mut t = Self::zeros_in(extents);
        let offsets = cache::plan::<L>(&extents).logical_offsets();
        let words = &mut *t.data;
        for (offset, &v) in offsets.zip(values) {
            L::store(words, offset, v);
        }
        Ok(t)
    }

    /// A tensor owning a copy of physical storage.
    ///
    /// # Errors
    /// If `words.len()` is not the storage length ([`Sizes::storage_words`]).
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor, typed::Layout};
    /// type Batch = layout!(u8[?,2]{0,1});
    /// let t = Tensor::<Batch>::from_storage_in(Batch::extents([2, 2]).unwrap(), &[1, 3, 2, 4]);
    /// assert_eq!(t.unwrap().to_logical(), [1, 2, 3, 4]);
    /// ```
    pub fn from_storage_in(extents: L::Extents, words: &[L::Word]) -> Result<Self, LengthError> {
        check_len(
            L::sizes(&extents).storage_words,
            words.len(),
            "physical storage",
        )?;
        Ok(TensorBase {
            data: AlignedBuf::from_slice(words),
            extents,
        })
    }

    /// A tensor whose element at each index is `f(index)`, called in memory order; padding
    /// slots are zero.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor, typed::Layout};
    /// type Batch = layout!(u32[?,3]);
    /// let t = Tensor::<Batch>::from_fn_in(Batch::extents([2, 3]).unwrap(), |[i, j]| (10 * i + j) as u32);
    /// assert_eq!(t.to_logical(), [0, 1, 2, 10, 11, 12]);
    /// ```
    pub fn from_fn_in(extents: L::Extents, mut f: impl FnMut(L::Index) -> L::Elem) -> Self {
        let mut t = Self::zeros_in(extents);
        let mut order = cache::plan::<L>(&extents).memory_order();
        let words = &mut *t.data;
        loop {
            let mut index = L::Index::default();
            let Some(offset) = order.next_with_index(index.as_mut()) else {
                break;
            };
            L::store(words, offset, f(index));
        }
        t
    }
}

/// `Ok`, for the dynamic constructors that cannot fail once the extents are checked.
impl<L: Layout> TensorBase<AlignedBuf<L::Word>, L> {
    fn zeros_ok(extents: L::Extents) -> Result<Self, LengthError> {
        Ok(Self::zeros_in(extents))
    }

    fn from_fn_ok(
        extents: L::Extents,
        f: impl FnMut(L::Index) -> L::Elem,
    ) -> Result<Self, LengthError> {
        Ok(Self::from_fn_in(extents, f))
    }
}

/// The constructors of static layouts, which need no extents.
impl<L: StaticLayout> TensorBase<AlignedBuf<L::Word>, L> {
    /// A tensor whose storage is all zero words (for `Direct` storage, `Elem::default()`).
    ///
    /// Dynamic layouts have a `zeros(dims)` of their own, so name the layout
    /// (`Tensor::<L>::zeros()`) or use `Tensor::default()` where it is only inferred: rustc
    /// cannot choose between the two `zeros` before it knows the layout (E0034).
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let inferred: Tensor<layout!(f32[2,2])> = Tensor::default();
    /// assert_eq!(inferred.to_logical(), [0.0; 4]);
    /// let t = Tensor::<layout!(f32[3,5]{1,0:T(2,2)})>::zeros();
    /// assert_eq!(t.as_slice().len(), 24); // 2x3 tiles of 2x2, padding included
    /// assert!(t.iter().all(|x| x == 0.0));
    /// ```
    pub fn zeros() -> Self {
        Self::zeros_in(Static)
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
        Self::from_logical_in(Static, values)
    }

    /// A tensor owning a copy of physical storage.
    ///
    /// # Errors
    /// If `words.len()` is not [`StaticLayout::STORAGE_WORDS`].
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let t = Tensor::<layout!(s32[2,2]{0,1})>::from_storage(&[1, 3, 2, 4]).unwrap();
    /// assert_eq!(t.to_logical(), [1, 2, 3, 4]);
    /// ```
    pub fn from_storage(words: &[L::Word]) -> Result<Self, LengthError> {
        Self::from_storage_in(Static, words)
    }

    /// A tensor whose element at each index is `f(index)`, called in memory order; padding
    /// slots are zero.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let t = Tensor::<layout!(u32[2,3]{0,1})>::from_fn(|[i, j]| (10 * i + j) as u32);
    /// assert_eq!(t.as_slice(), &[0, 10, 1, 11, 2, 12]);
    /// ```
    pub fn from_fn(f: impl FnMut(L::Index) -> L::Elem) -> Self {
        Self::from_fn_in(Static, f)
    }

    /// Reinterprets the storage under another layout that puts every element at the same
    /// offset (XLA's bitcast idea). Checked by the type system: `L2` must be
    /// [`BitcastCompatibleWith`](crate::typed::BitcastCompatibleWith) `L` (same element
    /// type, same offsets, same storage size), so a call that is not a bitcast is a compile
    /// error at the call naming both layouts.
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
        L: crate::typed::BitcastCompatibleWith<L2>,
        L2: StaticLayout<Word = L::Word>,
    {
        TensorBase {
            data: self.data,
            extents: Static,
        }
    }
}

impl<L: StaticLayout> Default for TensorBase<AlignedBuf<L::Word>, L> {
    /// [`zeros`](TensorBase::zeros).
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let t: Tensor<layout!(f32[2,2])> = Default::default();
    /// assert_eq!(t.to_logical(), [0.0; 4]);
    /// ```
    fn default() -> Self {
        Self::zeros()
    }
}

impl<L: Layout> TensorBase<AlignedBuf<L::Word>, L> {
    /// Reinterprets the storage under another layout, checked at run time: `L2` at `dims`
    /// must have the same element type and put every element at the same offset of storage
    /// of the same length. Works for static and dynamic layouts (a dynamic batch can be
    /// flattened, for example); for two static layouts [`bitcast`](TensorBase::bitcast)
    /// checks the same at compile time.
    ///
    /// # Errors
    /// The tensor back if `dims` do not fit `L2` or the layouts differ somewhere.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let t = Tensor::<layout!(f32[?,4])>::from_logical([2, 4], &[0.0; 8]).unwrap();
    /// let flat = t.try_bitcast::<layout!(f32[?])>([8]).unwrap();
    /// assert_eq!(flat.dims(), [8]);
    /// assert!(flat.try_bitcast::<layout!(f32[?,4]{0,1})>([2, 4]).is_err());
    /// ```
    pub fn try_bitcast<L2>(self, dims: L2::Index) -> Result<Tensor<L2>, Self>
    where
        L2: Layout<Word = L::Word, Elem = L::Elem>,
    {
        let Ok(extents) = L2::extents(dims) else {
            return Err(self);
        };
        let same = L2::sizes(&extents).storage_words == self.data.len()
            && L::ELEMENT_BITS == L2::ELEMENT_BITS
            && cache::plan::<L2>(&extents).bitcast_signature()
                == cache::plan::<L>(&self.extents).bitcast_signature();
        if same {
            Ok(TensorBase {
                data: self.data,
                extents,
            })
        } else {
            Err(self)
        }
    }
}

impl<'a, L: Layout> TensorBase<&'a [L::Word], L> {
    /// A tensor over borrowed physical storage, with checked extents.
    ///
    /// # Errors
    /// If `words.len()` is not the storage length.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::TensorRef, typed::Layout};
    /// type Batch = layout!(f32[?,2]{0,1});
    /// let storage = [1.0f32, 3.0, 2.0, 4.0];
    /// let t = TensorRef::<Batch>::from_slice_in(Batch::extents([2, 2]).unwrap(), &storage).unwrap();
    /// assert_eq!(t.get([0, 1]), Some(2.0));
    /// ```
    pub fn from_slice_in(extents: L::Extents, words: &'a [L::Word]) -> Result<Self, LengthError> {
        check_len(
            L::sizes(&extents).storage_words,
            words.len(),
            "physical storage",
        )?;
        Ok(TensorBase {
            data: words,
            extents,
        })
    }
}

impl<'a, L: StaticLayout> TensorBase<&'a [L::Word], L> {
    /// A tensor over borrowed physical storage.
    ///
    /// # Errors
    /// If `words.len()` is not [`StaticLayout::STORAGE_WORDS`].
    ///
    /// ```
    /// use xla_layout::{layout, tensor::TensorRef};
    /// let storage = [1.0f32, 3.0, 2.0, 4.0];
    /// let t = TensorRef::<layout!(f32[2,2]{0,1})>::from_slice(&storage).unwrap();
    /// assert_eq!(t[[0, 1]], 2.0);
    /// ```
    pub fn from_slice(words: &'a [L::Word]) -> Result<Self, LengthError> {
        Self::from_slice_in(Static, words)
    }
}

impl<'a, L: Layout> TensorBase<&'a mut [L::Word], L> {
    /// A tensor over mutably borrowed physical storage, with checked extents.
    ///
    /// # Errors
    /// If `words.len()` is not the storage length.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::TensorMut, typed::Layout};
    /// type Batch = layout!(f32[?,2]{0,1});
    /// let mut storage = [0.0f32; 4];
    /// let e = Batch::extents([2, 2]).unwrap();
    /// let mut t = TensorMut::<Batch>::from_slice_mut_in(e, &mut storage).unwrap();
    /// t[[0, 1]] = 5.0;
    /// assert_eq!(storage, [0.0, 0.0, 5.0, 0.0]);
    /// ```
    pub fn from_slice_mut_in(
        extents: L::Extents,
        words: &'a mut [L::Word],
    ) -> Result<Self, LengthError> {
        check_len(
            L::sizes(&extents).storage_words,
            words.len(),
            "physical storage",
        )?;
        Ok(TensorBase {
            data: words,
            extents,
        })
    }
}

impl<'a, L: StaticLayout> TensorBase<&'a mut [L::Word], L> {
    /// A tensor over mutably borrowed physical storage.
    ///
    /// # Errors
    /// If `words.len()` is not [`StaticLayout::STORAGE_WORDS`].
    ///
    /// ```
    /// use xla_layout::{layout, tensor::TensorMut};
    /// let mut storage = [0.0f32; 4];
    /// let mut t = TensorMut::<layout!(f32[2,2]{0,1})>::from_slice_mut(&mut storage).unwrap();
    /// t[[0, 1]] = 5.0;
    /// assert_eq!(storage, [0.0, 0.0, 5.0, 0.0]);
    /// ```
    pub fn from_slice_mut(words: &'a mut [L::Word]) -> Result<Self, LengthError> {
        Self::from_slice_mut_in(Static, words)
    }
}

/// The constructors of dynamic layouts (`?`, `<=N`), from the full dimensions: static
/// entries must equal the layout's sizes, dynamic ones be at most their bound.
macro_rules! dynamic_constructors {
    ($($storage:ty => $( #[$doc:meta] )* fn $name:ident($($arg:ident: $ty:ty),*) -> $inner:ident;)*) => {$(
        impl<'a, E, const RANK: usize, Dims, M2m, Tiles, A, S>
            TensorBase<$storage, DynArray<E, RANK, Dims, M2m, Tiles, A, S>>
        where
            DynArray<E, RANK, Dims, M2m, Tiles, A, S>:
                Layout<Index = [usize; RANK], Extents = DynExtents<RANK>, Elem = E::Elem, Word = S::Word>,
            E: ElementType,
            S: StorageKind<E::Elem>,
        {
            $( #[$doc] )*
            pub fn $name(dims: [usize; RANK], $($arg: $ty),*) -> Result<Self, DimsError> {
                let extents =
                    <DynArray<E, RANK, Dims, M2m, Tiles, A, S> as Layout>::extents(dims)?;
                Ok(Self::$inner(extents, $($arg),*)?)
            }
        }
    )*};
}

dynamic_constructors! {
    AlignedBuf<S::Word> =>
    /// A tensor of dimensions `dims` whose storage is all zero words.
    ///
    /// # Errors
    /// If `dims` do not fit the layout ([`DimsError`]).
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// type Act = layout!(bf16[?,1280]{1,0:T(8,128)(2,1)});
    /// let t = Tensor::<Act>::zeros([3, 1280]).unwrap();
    /// assert_eq!(t.dims(), [3, 1280]);
    /// assert_eq!(t.as_slice().len(), 8 * 1280); // rows pad to the 8-row tile
    /// assert!(Tensor::<layout!(f32[<=4096,128]{1,0:T(8,128)})>::zeros([5000, 128]).is_err());
    /// ```
    fn zeros() -> zeros_ok;
    AlignedBuf<S::Word> =>
    /// A tensor of dimensions `dims` holding row-major logical data.
    ///
    /// # Errors
    /// If `dims` do not fit the layout, or `values.len()` is not the number of elements.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let t = Tensor::<layout!(s32[?,2]{0,1})>::from_logical([3, 2], &[1, 2, 3, 4, 5, 6]).unwrap();
    /// assert_eq!(t.as_slice(), &[1, 3, 5, 2, 4, 6]);
    /// ```
    fn from_logical(values: &[E::Elem]) -> from_logical_in;
    AlignedBuf<S::Word> =>
    /// A tensor of dimensions `dims` owning a copy of physical storage.
    ///
    /// # Errors
    /// If `dims` do not fit the layout, or `words.len()` is not the storage length.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let t = Tensor::<layout!(u8[?,2]{0,1})>::from_storage([2, 2], &[1, 3, 2, 4]).unwrap();
    /// assert_eq!(t.to_logical(), [1, 2, 3, 4]);
    /// ```
    fn from_storage(words: &[S::Word]) -> from_storage_in;
    AlignedBuf<S::Word> =>
    /// A tensor of dimensions `dims` whose element at each index is `f(index)`.
    ///
    /// # Errors
    /// If `dims` do not fit the layout.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let t = Tensor::<layout!(u32[<=4,3])>::from_fn([2, 3], |[i, j]| (10 * i + j) as u32).unwrap();
    /// assert_eq!(t.to_logical(), [0, 1, 2, 10, 11, 12]);
    /// ```
    fn from_fn(f: impl FnMut([usize; RANK]) -> E::Elem) -> from_fn_ok;
    &'a [S::Word] =>
    /// A tensor of dimensions `dims` over borrowed physical storage.
    ///
    /// # Errors
    /// If `dims` do not fit the layout, or `words.len()` is not the storage length.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::TensorRef};
    /// let storage = [1.0f32, 3.0, 2.0, 4.0];
    /// let t = TensorRef::<layout!(f32[?,2]{0,1})>::from_slice([2, 2], &storage).unwrap();
    /// assert_eq!(t[[0, 1]], 2.0);
    /// ```
    fn from_slice(words: &'a [S::Word]) -> from_slice_in;
    &'a mut [S::Word] =>
    /// A tensor of dimensions `dims` over mutably borrowed physical storage.
    ///
    /// # Errors
    /// If `dims` do not fit the layout, or `words.len()` is not the storage length.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::TensorMut};
    /// let mut storage = [0.0f32; 4];
    /// let mut t = TensorMut::<layout!(f32[?,2]{0,1})>::from_slice_mut([2, 2], &mut storage).unwrap();
    /// t[[0, 1]] = 5.0;
    /// assert_eq!(storage, [0.0, 0.0, 5.0, 0.0]);
    /// ```
    fn from_slice_mut(words: &'a mut [S::Word]) -> from_slice_mut_in;
}

/// Offsets of every element in logical order, computed once per traversal.
#[cfg(feature = "ndarray")]
fn logical_offsets<L: Layout>(extents: &L::Extents) -> LogicalOffsets {
    cache::plan::<L>(extents).logical_offsets()
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
            extents: self.extents,
        }
    }

    /// The dimensions (for a static layout, its dims).
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let t = Tensor::<layout!(f32[?,1280]{1,0:T(8,128)})>::zeros([3, 1280]).unwrap();
    /// assert_eq!(t.dims(), [3, 1280]);
    /// ```
    pub fn dims(&self) -> L::Index {
        L::dims(&self.extents)
    }

    /// The extents: [`Static`] for a static layout, the checked extents of a dynamic one.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let t = Tensor::<layout!(f32[16,?]{1,0:T(8,128)})>::zeros([16, 300]).unwrap();
    /// assert_eq!(t.extents().strides(), &[3 * 1024]);
    /// ```
    pub fn extents(&self) -> &L::Extents {
        &self.extents
    }

    /// The sizes of this tensor's array in its layout.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let t = Tensor::<layout!(f32[<=4096,128]{1,0:T(8,128)})>::zeros([9, 128]).unwrap();
    /// assert_eq!(t.sizes().size_bytes, 16 * 128 * 4); // two 8x128 tiles
    /// assert_eq!(t.sizes().elements, 9 * 128);
    /// ```
    pub fn sizes(&self) -> Sizes {
        L::sizes(&self.extents)
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
        L::checked_offset_in(&self.extents, index).map(|o| L::load(self.as_slice(), o))
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
            extents: self.extents,
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
        match L::checked_offset_in(&self.extents, index) {
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

    /// Copies every element of `src` (same dimensions and element type, any layout) into
    /// this tensor's layout: one `memcpy` for layouts that put every element at the same
    /// offset, else the engine of [`CopyPlan`] (the runtime relayout). For two static layouts
    /// the plan of the pair `(L, L2)` is built on the first call and kept, so later calls build
    /// nothing; dynamic layouts compile a plan for their extents on each call. The engine copies
    /// runs of slots, interleaves `(2,1)` `(4,1)` `(8,1)` pairs (or splits them back) and
    /// transposes small blocks in registers; copies of 16 MiB or more write whole cache lines
    /// with non-temporal stores on x86_64 (see BENCHMARKS.md). The source must be
    /// [`SameArrayAs`] this layout (same element type and dims): a mismatch is a compile
    /// error at the call naming both layouts.
    ///
    /// # Panics
    /// If the layouts are dynamic and the two tensors' dimensions differ (see
    /// [`try_copy_from`](TensorBase::try_copy_from)).
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
        L2: SameArrayAs<L>,
    {
        if let Err(e) = self.try_copy_from(src) {
            panic!("{e}");
        }
    }

    /// [`copy_from`](TensorBase::copy_from), or an error if the dimensions differ (possible
    /// only for dynamic layouts).
    ///
    /// # Errors
    /// A [`DimsError`] naming this tensor's layout and the first dimension that differs.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let src = Tensor::<layout!(f32[?,128])>::from_fn([3, 128], |[i, j]| (i * 128 + j) as f32).unwrap();
    /// let mut dst = Tensor::<layout!(f32[?,128]{1,0:T(8,128)})>::zeros([3, 128]).unwrap();
    /// dst.try_copy_from(&src).unwrap();
    /// assert_eq!(dst.to_logical(), src.to_logical());
    /// let mut other = Tensor::<layout!(f32[?,128]{0,1})>::zeros([4, 128]).unwrap();
    /// assert!(other.try_copy_from(&src).is_err());
    /// ```
    pub fn try_copy_from<D2, L2>(&mut self, src: &TensorBase<D2, L2>) -> Result<(), DimsError>
    where
        D2: AsRef<[L2::Word]>,
        L2: SameArrayAs<L>,
    {
        let (ours, theirs) = (self.dims(), src.dims());
        if let Some(dim) = (0..L::RANK).find(|&d| ours.as_ref()[d] != theirs.as_ref()[d]) {
            return Err(DimsError::Static {
                layout: L::CANONICAL,
                dim,
                size: ours.as_ref()[dim],
                found: theirs.as_ref()[dim],
            });
        }
        let (de, se) = (self.extents, src.extents);
        let plans = || (L::shape_and_plan_in(&de), L2::shape_and_plan_in(&se));
        cache::copy::<L, L2>(self.as_mut_slice(), src.as_slice(), plans);
        Ok(())
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
        L::checked_offset_in(&self.extents, index).map(|o| &self.data.as_ref()[o])
    }

    /// The element at `index` without a bounds check on the index.
    ///
    /// # Safety
    /// `index` must be in bounds: every entry below its dimension. Then its offset is below
    /// the number of element slots, the length of the storage.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let t = Tensor::<layout!(f32[2,2]{0,1})>::from_logical(&[1.0, 2.0, 3.0, 4.0]).unwrap();
    /// // SAFETY: [1, 0] is below the dims [2, 2].
    /// assert_eq!(unsafe { *t.get_unchecked([1, 0]) }, 3.0);
    /// ```
    #[allow(unsafe_code)]
    pub unsafe fn get_unchecked(&self, index: L::Index) -> &L::Elem {
        let offset = L::offset_in(&self.extents, index);
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
        L::checked_offset_in(&self.extents, index).map(|o| &mut self.data.as_mut()[o])
    }
}

fn out_of_bounds<L: Layout>(index: &L::Index, extents: &L::Extents) -> ! {
    panic!(
        "index {:?} is out of bounds for dims {:?} of {}",
        index.as_ref(),
        L::dims(extents).as_ref(),
        L::CANONICAL
    )
}

/// `t[[i, j, ...]]`: bounds-checked; panics with the index and the dims when out of bounds.
impl<D: AsRef<[L::Elem]>, L: Layout<Word = <L as Layout>::Elem>> core::ops::Index<L::Index>
    for TensorBase<D, L>
{
    type Output = L::Elem;
    fn index(&self, index: L::Index) -> &L::Elem {
        match L::checked_offset_in(&self.extents, index) {
            Some(o) => &self.data.as_ref()[o],
            None => out_of_bounds::<L>(&index, &self.extents),
        }
    }
}

impl<D: AsRef<[L::Elem]> + AsMut<[L::Elem]>, L: Layout<Word = <L as Layout>::Elem>>
    core::ops::IndexMut<L::Index> for TensorBase<D, L>
{
    fn index_mut(&mut self, index: L::Index) -> &mut L::Elem {
        match L::checked_offset_in(&self.extents, index) {
            Some(o) => &mut self.data.as_mut()[o],
            None => out_of_bounds::<L>(&index, &self.extents),
        }
    }
}

/// How many elements `Debug` shows before it elides the rest.
const DEBUG_PREVIEW: usize = 16;

/// The canonical layout (with the dims, for a dynamic layout) and a bounded preview of the
/// elements in logical order: at most 16, then how many more there are, so printing a 64 MB
/// tensor stays one short line.
///
/// ```
/// use xla_layout::{layout, tensor::Tensor};
/// let t = Tensor::<layout!(s32[2,2]{0,1})>::from_logical(&[1, 2, 3, 4]).unwrap();
/// assert_eq!(format!("{t:?}"), "Tensor<s32[2,2]{0,1}> [1, 2, 3, 4]");
///
/// let big = Tensor::<layout!(u8[1024,1024])>::zeros();
/// assert!(format!("{big:?}").ends_with("0, 0, ... 1048560 more]"));
///
/// let batch = Tensor::<layout!(s8[?,2])>::zeros([1, 2]).unwrap();
/// assert_eq!(format!("{batch:?}"), "Tensor<s8[?,2]{1,0}> dims [1, 2] [0, 0]");
/// ```
impl<D: AsRef<[L::Word]>, L: Layout> fmt::Debug for TensorBase<D, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tensor<{}>", L::CANONICAL)?;
        if core::any::TypeId::of::<L::Extents>() != core::any::TypeId::of::<Static>() {
            write!(f, " dims {:?}", self.dims().as_ref())?;
        }
        f.write_str(" [")?;
        for (i, x) in self.iter().take(DEBUG_PREVIEW).enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{x:?}")?;
        }
        let elements = self.sizes().elements;
        if elements > DEBUG_PREVIEW {
            write!(f, ", ... {} more", elements - DEBUG_PREVIEW)?;
        }
        f.write_str("]")
    }
}

impl<D: Clone, L: Layout> Clone for TensorBase<D, L> {
    fn clone(&self) -> Self {
        TensorBase {
            data: self.data.clone(),
            extents: self.extents,
        }
    }
}

/// Two tensors of one layout are equal when they have the same dims and the same elements
/// (padding slots are not compared).
///
/// ```
/// use xla_layout::{layout, tensor::{Tensor, TensorRef}};
/// type L = layout!(f32[3]{0:T(2)});
/// let a = Tensor::<L>::from_logical(&[1.0, 2.0, 3.0]).unwrap();
/// let b = TensorRef::<L>::from_slice(&[1.0, 2.0, 3.0, 9.0]).unwrap(); // other padding
/// assert_eq!(a, b);
/// assert_ne!(a, Tensor::<L>::zeros());
/// ```
impl<D, D2, L> PartialEq<TensorBase<D2, L>> for TensorBase<D, L>
where
    D: AsRef<[L::Word]>,
    D2: AsRef<[L::Word]>,
    L: Layout,
{
    fn eq(&self, other: &TensorBase<D2, L>) -> bool {
        self.extents == other.extents && self.iter().eq(other.iter())
    }
}

/// Equality is an equivalence for elements that are `Eq` (integers, not floats).
impl<D: AsRef<[L::Word]>, L: Layout> Eq for TensorBase<D, L> where L::Elem: Eq {}
