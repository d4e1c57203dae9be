//! ndarray interop (feature `ndarray`): zero-copy strided views of layouts whose offset is
//! `Σ index·stride`, copies of any layout to and from ndarray arrays.
//!
//! A directly stored layout is a strided view when its closed-form offset
//! ([`Plan::offset_expr`](crate::Plan::offset_expr)) has no division or remainder: every
//! untiled layout, with any `minor_to_major`, legacy padding or `L(n)` tail padding, and tiled
//! layouts whose tiles split no dimension (`f32[2,3]{1,0:T(8,128)}` is rows 128 apart).
//! Layouts whose tiles split a dimension and packed layouts (`E(n)`, `M(n)`) are not;
//! [`to_array`](TensorBase::to_array) copies any layout.
//!
//! ```
//! use xla_layout::tensor::Tensor;
//! # use xla_layout::typed::*;
//! # // `layout!(f32[2,3]{0,1})`, spelled out because this crate cannot use the macro.
//! # type Col = Array<elem::F32, 2, Dims<2, 3>, MinorToMajor<0, 1>, Tiles, Bitcast<2, 1, 3, 2, 6>>;
//! use ndarray::{Ix2, array};
//!
//! let a = array![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
//! let mut t = Tensor::<Col>::from_array_view(a.view()).unwrap();
//! assert_eq!(t.as_slice(), &[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]); // column-major
//!
//! let v = t.as_array_view().unwrap().into_dimensionality::<Ix2>().unwrap();
//! assert_eq!(v.strides(), &[1, 2]);
//! assert_eq!(v, a);
//! t.as_array_view_mut().unwrap()[[1, 2]] = 60.0;
//! assert_eq!(t[[1, 2]], 60.0);
//! ```

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use ::ndarray::{ArrayD, ArrayView, ArrayViewD, ArrayViewMutD, Dimension, IxDyn, ShapeBuilder};

use super::{Tensor, TensorBase, logical_offsets};
use crate::index::Expr;
use crate::typed::Layout;

/// Why a tensor and an ndarray array do not fit each other.
///
/// ```
/// use xla_layout::tensor::NdarrayError;
/// let e = NdarrayError::Dims { layout: "f32[2,3]{1,0}", expected: &[2, 3], found: vec![3, 2] };
/// assert_eq!(
///     e.to_string(),
///     "an array of shape [3, 2] does not fit `f32[2,3]{1,0}`, whose dims are [2, 3]"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NdarrayError {
    /// The layout packs its elements as bits in bytes (`E(n)`, or an `M(n)` metadata prefix
    /// before the data), so a slot is not one element.
    Packed {
        /// The layout's canonical text.
        layout: &'static str,
    },
    /// The layout's tiles split a dimension, so its offset divides the index and no strides
    /// give it.
    Tiled {
        /// The layout's canonical text.
        layout: &'static str,
        /// The offset in closed form.
        offset: String,
    },
    /// The array's shape is not the layout's dims.
    Dims {
        /// The layout's canonical text.
        layout: &'static str,
        /// The layout's dims.
        expected: &'static [usize],
        /// The array's shape.
        found: Vec<usize>,
    },
}

impl fmt::Display for NdarrayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NdarrayError::Packed { layout } => write!(
                f,
                "`{layout}` packs its elements as bits in bytes, so its storage is not one \
                 element per slot; copy it to an unpacked layout with `copy_from`, or to an \
                 ndarray array with `to_array`"
            ),
            NdarrayError::Tiled { layout, offset } => write!(
                f,
                "`{layout}` is tiled: its offset `{offset}` divides the index, so no strides \
                 describe it; copy it to an untiled layout with `copy_from`, or to an ndarray \
                 array with `to_array`"
            ),
            NdarrayError::Dims {
                layout,
                expected,
                found,
            } => write!(
                f,
                "an array of shape {found:?} does not fit `{layout}`, whose dims are {expected:?}"
            ),
        }
    }
}

impl core::error::Error for NdarrayError {}

/// Adds `scale` times the linear form of `e` to `strides`; false if `e` divides or takes a
/// remainder.
fn add_linear(e: &Expr, scale: usize, strides: &mut [usize]) -> bool {
    match e {
        Expr::Zero => true,
        Expr::Index(d) => {
            strides[*d] += scale;
            true
        }
        Expr::MulAdd(a, m, b) => add_linear(a, scale * m, strides) && add_linear(b, scale, strides),
        Expr::Sum(terms) => terms.iter().all(|(t, s)| add_linear(t, scale * s, strides)),
        Expr::Div(..) | Expr::Rem(..) => false,
    }
}

/// The shape and element strides of `L`'s storage (with these extents) as a strided array.
fn strided_shape<L: Layout>(extents: &L::Extents) -> Result<(IxDyn, IxDyn), NdarrayError> {
    let layout = L::CANONICAL;
    if L::PACKED {
        return Err(NdarrayError::Packed { layout });
    }
    let offset = super::cache::plan::<L>(extents).offset_expr();
    let mut strides = alloc::vec![0; L::RANK];
    if !add_linear(&offset, 1, &mut strides) {
        return Err(NdarrayError::Tiled {
            layout,
            offset: offset.to_string(),
        });
    }
    Ok((IxDyn(L::dims(extents).as_ref()), IxDyn(&strides)))
}

/// Why ndarray accepts the strides of a layout: the offsets are `Σ index·stride` and distinct,
/// the largest is below the storage length, and they nest (each stride is past the span of
/// the smaller ones), as the plan builds them.
const STRIDES_FIT: &str = "a layout's strides index its storage without overlap";

impl<D: AsRef<[L::Elem]>, L: Layout<Word = <L as Layout>::Elem>> TensorBase<D, L> {
    /// The storage as an ndarray view with the layout's strides, without a copy. Convert to
    /// a fixed rank with `into_dimensionality::<Ix2>()` and the like.
    ///
    /// Builds the layout's plan to find the strides: make the view once, not per element.
    ///
    /// # Errors
    /// [`NdarrayError::Tiled`] if the tiles split a dimension, [`NdarrayError::Packed`] for a
    /// packed layout (`u8` with an `M(n)` prefix; other packed layouts store bytes, not
    /// elements, and have no such method).
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let t = Tensor::<layout!(f32[2,3]{0,1})>::from_logical(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let v = t.as_array_view().unwrap();
    /// assert_eq!((v[[1, 2]], v.strides()), (6.0, &[1, 2][..]));
    /// ```
    pub fn as_array_view(&self) -> Result<ArrayViewD<'_, L::Elem>, NdarrayError> {
        let (dims, strides) = strided_shape::<L>(&self.extents)?;
        Ok(ArrayView::from_shape(dims.strides(strides), self.data.as_ref()).expect(STRIDES_FIT))
    }

    /// The storage as a mutable ndarray view with the layout's strides, without a copy.
    ///
    /// # Errors
    /// As [`as_array_view`](Self::as_array_view).
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let mut t = Tensor::<layout!(f32[2,2]{0,1})>::zeros();
    /// t.as_array_view_mut().unwrap()[[0, 1]] = 3.0;
    /// assert_eq!(t.as_slice(), &[0.0, 0.0, 3.0, 0.0]);
    /// ```
    pub fn as_array_view_mut(&mut self) -> Result<ArrayViewMutD<'_, L::Elem>, NdarrayError>
    where
        D: AsMut<[L::Elem]>,
    {
        let (dims, strides) = strided_shape::<L>(&self.extents)?;
        Ok(
            ArrayViewMutD::from_shape(dims.strides(strides), self.data.as_mut())
                .expect(STRIDES_FIT),
        )
    }
}

impl<D: AsRef<[L::Word]>, L: Layout> TensorBase<D, L> {
    /// A standard-layout (row-major) ndarray array holding a copy of the elements; works
    /// for every layout, tiled and packed ones included.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let t = Tensor::<layout!(f32[3,5]{1,0:T(2,2)})>::from_fn(|[i, j]| (5 * i + j) as f32);
    /// assert_eq!(t.to_array()[[2, 3].as_slice()], 13.0);
    /// ```
    pub fn to_array(&self) -> ArrayD<L::Elem> {
        ArrayD::from_shape_vec(IxDyn(self.dims().as_ref()), self.to_logical())
            .expect("the logical data has one element per index")
    }
}

impl<L: Layout> Tensor<L> {
    /// A tensor holding a copy of an ndarray array, with any strides; padding slots are
    /// zero. The array's shape gives the dims, which must fit the layout (a dynamic
    /// layout takes its extents from it).
    ///
    /// # Errors
    /// [`NdarrayError::Dims`] if the array's shape does not fit the layout (the expected
    /// dims are [`Layout::BOUNDS`]: the sizes, and the bounds of dynamic dimensions).
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let a = ndarray::arr2(&[[1.0f32, 2.0], [3.0, 4.0], [5.0, 6.0]]);
    /// let t = Tensor::<layout!(f32[<=8,2]{0,1})>::from_array_view(a.view()).unwrap();
    /// assert_eq!(t.dims(), [3, 2]);
    /// assert_eq!(t.as_slice(), &[1.0, 3.0, 5.0, 2.0, 4.0, 6.0]);
    /// ```
    pub fn from_array_view<S: Dimension>(
        array: ArrayView<'_, L::Elem, S>,
    ) -> Result<Self, NdarrayError> {
        let mismatch = || NdarrayError::Dims {
            layout: L::CANONICAL,
            expected: L::BOUNDS,
            found: array.shape().to_vec(),
        };
        let mut dims = L::Index::default();
        if array.shape().len() != L::RANK {
            return Err(mismatch());
        }
        dims.as_mut().copy_from_slice(array.shape());
        let extents = L::extents(dims).map_err(|_| mismatch())?;
        let mut t = Self::zeros_in(extents);
        let offsets = logical_offsets::<L>(&extents);
        let words = &mut *t.data;
        for (offset, &v) in offsets.zip(array.iter()) {
            L::store(words, offset, v);
        }
        Ok(t)
    }
}
