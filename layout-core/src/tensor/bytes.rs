//! The physical storage as bytes (feature `bytemuck`): the exact buffer a device or a file
//! holds, padding slots and packed bits included.
//!
//! Reading bytes out needs words without padding bytes ([`NoUninit`]); writing arbitrary bytes
//! in needs words for which every byte pattern is a value ([`Pod`]), or a check of each word
//! ([`CheckedBitPattern`]): `pred` accepts only 0 and 1, and the sub-byte types stored one per
//! byte (`s4` without `E(4)`, ...) only values in their range. Packed layouts store `u8`
//! words, so every byte pattern is accepted.
//!
//! ```
//! use xla_layout::tensor::{Tensor, TensorRef};
//! # use xla_layout::typed::*;
//! # // `layout!(f32[2,3]{0,1})`, spelled out because this crate cannot use the macro.
//! # type Col = Array<elem::F32, 2, Dims<2, 3>, MinorToMajor<0, 1>, Tiles, Bitcast<2, 1, 3, 2, 6>>;
//! let t = Tensor::<Col>::from_logical(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
//! let bytes = t.as_bytes();
//! assert_eq!(bytes.len(), 24);
//! assert_eq!(&bytes[4..8], &4.0f32.to_ne_bytes()); // slot 1 holds [1, 0]
//!
//! let copy = Tensor::<Col>::from_bytes(bytes).unwrap(); // any alignment
//! assert_eq!(copy[[1, 2]], 6.0);
//! let view = TensorRef::<Col>::from_bytes(bytes).unwrap(); // zero-copy, needs alignment
//! assert_eq!(view.to_logical(), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
//! ```

use core::fmt;

use bytemuck::checked::{self, CheckedCastError};
use bytemuck::{CheckedBitPattern, NoUninit, Pod};

use super::{AlignedBuf, LengthError, Tensor, TensorBase, TensorMut, TensorRef, check_len};
use crate::typed::{Layout, Static, StaticLayout};

/// Bytes that do not make a buffer of a layout.
///
/// ```
/// use xla_layout::tensor::{BytesError, LengthError};
/// let e = BytesError::Length(LengthError { expected: 24, found: 20, what: "bytes" });
/// assert_eq!(e.to_string(), "bytes has 20 entries, but the layout needs 24");
/// assert_eq!(
///     BytesError::Misaligned { align: 4 }.to_string(),
///     "the bytes do not start at a multiple of 4, the alignment of a storage word; \
///      copy them with `Tensor::from_bytes`"
/// );
/// assert_eq!(
///     BytesError::InvalidWord { word: 3 }.to_string(),
///     "storage word 3 is not a valid bit pattern of the element type"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BytesError {
    /// The byte count is not [`StaticLayout::STORAGE_WORDS`](crate::typed::StaticLayout::STORAGE_WORDS) × the word size.
    Length(LengthError),
    /// A zero-copy view needs the bytes aligned for the word type.
    Misaligned {
        /// The alignment of a word, in bytes.
        align: usize,
    },
    /// A word's bytes are not a value of the element type (a `pred` byte other than 0 or 1,
    /// an `s4` stored in a byte outside -8..=7, ...).
    InvalidWord {
        /// The index of the first invalid word in the storage.
        word: usize,
    },
}

impl fmt::Display for BytesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BytesError::Length(e) => e.fmt(f),
            BytesError::Misaligned { align } => write!(
                f,
                "the bytes do not start at a multiple of {align}, the alignment of a storage \
                 word; copy them with `Tensor::from_bytes`"
            ),
            BytesError::InvalidWord { word } => write!(
                f,
                "storage word {word} is not a valid bit pattern of the element type"
            ),
        }
    }
}

impl core::error::Error for BytesError {}

/// Checks that `bytes` is as long as the storage of `L` with these extents.
fn check_bytes<L: Layout>(extents: &L::Extents, bytes: &[u8]) -> Result<(), BytesError> {
    check_len(
        L::sizes(extents).storage_words * size_of::<L::Word>(),
        bytes.len(),
        "bytes",
    )
    .map_err(BytesError::Length)
}

/// The index of the first word of `bytes` that is not a valid `W` (0 if there is none).
fn first_invalid<W: CheckedBitPattern>(bytes: &[u8]) -> usize {
    bytes
        .chunks_exact(size_of::<W>())
        .position(|c| checked::try_pod_read_unaligned::<W>(c).is_err())
        .unwrap_or(0)
}

/// The error of a checked cast of bytes whose length was already checked.
fn cast_error<W: CheckedBitPattern>(bytes: &[u8], e: CheckedCastError) -> BytesError {
    match e {
        CheckedCastError::InvalidBitPattern => BytesError::InvalidWord {
            word: first_invalid::<W>(bytes),
        },
        CheckedCastError::PodCastError(_) => BytesError::Misaligned {
            align: align_of::<W>(),
        },
    }
}

impl<D: AsRef<[L::Word]>, L: Layout> TensorBase<D, L>
where
    L::Word: NoUninit,
{
    /// The physical storage as bytes, in native byte order: padding slots included, packed
    /// layouts as their packed bytes (with any `M(n)` prefix).
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let t = Tensor::<layout!(u16[2]{0})>::from_logical(&[0x0102, 0x0304]).unwrap();
    /// assert_eq!(t.as_bytes(), [0x0102u16, 0x0304].map(u16::to_ne_bytes).concat());
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        bytemuck::cast_slice(self.as_slice())
    }
}

impl<D: AsRef<[L::Word]> + AsMut<[L::Word]>, L: Layout> TensorBase<D, L>
where
    L::Word: Pod,
{
    /// The physical storage as mutable bytes; only for words that every byte pattern is a
    /// value of (not `pred`, not sub-byte types stored one per byte).
    ///
    /// ```
    /// use xla_layout::tensor::Tensor;
    /// # use xla_layout::typed::*;
    /// # // `layout!(f32[2,3]{0,1})`, spelled out because this crate cannot use the macro.
    /// # type Col = Array<elem::F32, 2, Dims<2, 3>, MinorToMajor<0, 1>, Tiles, Bitcast<2, 1, 3, 2, 6>>;
    /// let mut t = Tensor::<Col>::zeros();
    /// t.as_bytes_mut()[4..8].copy_from_slice(&7.0f32.to_ne_bytes()); // slot 1
    /// assert_eq!(t[[1, 0]], 7.0);
    /// ```
    pub fn as_bytes_mut(&mut self) -> &mut [u8] {
        bytemuck::cast_slice_mut(self.as_mut_slice())
    }
}

impl<L: StaticLayout> TensorBase<AlignedBuf<L::Word>, L>
where
    L::Word: CheckedBitPattern,
{
    /// A tensor owning a copy of physical storage given as bytes in native byte order, at
    /// any alignment.
    ///
    /// # Errors
    /// [`BytesError::Length`] if there are not [`StaticLayout::STORAGE_WORDS`] words of
    /// bytes, [`BytesError::InvalidWord`] if a word is not a value of the element type.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// type P = layout!(pred[3]);
    /// assert_eq!(Tensor::<P>::from_bytes(&[1, 0, 1]).unwrap().to_logical(), [true, false, true]);
    /// assert!(Tensor::<P>::from_bytes(&[1, 2, 1]).is_err()); // 2 is not a pred
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, BytesError> {
        Self::from_bytes_in(Static, bytes)
    }
}

impl<L: Layout> TensorBase<AlignedBuf<L::Word>, L>
where
    L::Word: CheckedBitPattern,
{
    /// [`from_bytes`](TensorBase::from_bytes) for any layout, with checked extents.
    ///
    /// # Errors
    /// As `from_bytes`.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor, typed::Layout};
    /// type Batch = layout!(u16[?,2]);
    /// let bytes: Vec<u8> = [1u16, 2, 3, 4].iter().flat_map(|w| w.to_ne_bytes()).collect();
    /// let t = Tensor::<Batch>::from_bytes_in(Batch::extents([2, 2]).unwrap(), &bytes).unwrap();
    /// assert_eq!(t[[1, 0]], 3);
    /// ```
    pub fn from_bytes_in(extents: L::Extents, bytes: &[u8]) -> Result<Self, BytesError> {
        check_bytes::<L>(&extents, bytes)?;
        let mut t = Tensor::<L>::zeros_in(extents);
        for (k, (slot, chunk)) in t
            .data
            .iter_mut()
            .zip(bytes.chunks_exact(size_of::<L::Word>()))
            .enumerate()
        {
            *slot = checked::try_pod_read_unaligned(chunk)
                .map_err(|_| BytesError::InvalidWord { word: k })?;
        }
        Ok(t)
    }
}

impl<'a, L: StaticLayout> TensorBase<&'a [L::Word], L>
where
    L::Word: CheckedBitPattern,
{
    /// A tensor borrowing physical storage given as bytes in native byte order, without a
    /// copy.
    ///
    /// # Errors
    /// [`BytesError::Length`] for a wrong byte count, [`BytesError::Misaligned`] if `bytes`
    /// is not aligned for the word type, [`BytesError::InvalidWord`] if a word is not a
    /// value of the element type.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::TensorRef};
    /// let bytes = [7u8, 8, 9, 10];
    /// let t = TensorRef::<layout!(u8[2,2]{0,1})>::from_bytes(&bytes).unwrap();
    /// assert_eq!(t[[0, 1]], 9);
    /// ```
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Self, BytesError> {
        check_bytes::<L>(&Static, bytes)?;
        let words = checked::try_cast_slice(bytes).map_err(|e| cast_error::<L::Word>(bytes, e))?;
        TensorRef::<L>::from_slice(words).map_err(BytesError::Length)
    }
}

impl<'a, L: StaticLayout> TensorBase<&'a mut [L::Word], L>
where
    L::Word: CheckedBitPattern + NoUninit,
{
    /// A tensor borrowing physical storage given as mutable bytes in native byte order,
    /// without a copy.
    ///
    /// # Errors
    /// As [`TensorRef::from_bytes`].
    ///
    /// ```
    /// use xla_layout::{layout, tensor::TensorMut};
    /// let mut bytes = [0u8; 4];
    /// TensorMut::<layout!(u8[2,2]{0,1})>::from_bytes_mut(&mut bytes).unwrap()[[1, 0]] = 5;
    /// assert_eq!(bytes, [0, 5, 0, 0]);
    /// ```
    pub fn from_bytes_mut(bytes: &'a mut [u8]) -> Result<Self, BytesError> {
        check_bytes::<L>(&Static, bytes)?;
        if let Err(e) = checked::try_cast_slice::<u8, L::Word>(bytes) {
            return Err(cast_error::<L::Word>(bytes, e));
        }
        // Checked above: the length, the alignment and every word.
        let words = checked::cast_slice_mut(bytes);
        TensorMut::<L>::from_slice_mut(words).map_err(BytesError::Length)
    }
}
