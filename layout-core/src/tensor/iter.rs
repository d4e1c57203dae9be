//! Iteration over a tensor's elements: in logical order, in memory order, and in place.

use alloc::vec::Vec;

use super::{TensorBase, logical_offsets, memory_order};
use crate::typed::Layout;

impl<D: AsRef<[L::Word]>, L: Layout> TensorBase<D, L> {
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
        logical_offsets::<L>(&self.extents).map(move |o| L::load(words, o))
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
        let mut order = memory_order::<L>(&self.extents);
        core::iter::from_fn(move || {
            let mut index = L::Index::default();
            let offset = order.next_with_index(index.as_mut())?;
            Some((index, L::load(words, offset)))
        })
    }
}

impl<D: AsRef<[L::Word]> + AsMut<[L::Word]>, L: Layout> TensorBase<D, L> {
    /// Replaces every element `x` by `f(x)`, in memory order.
    ///
    /// ```
    /// use xla_layout::{layout, tensor::Tensor};
    /// let mut t = Tensor::<layout!(s32[2,2]{0,1})>::from_logical(&[1, 2, 3, 4]).unwrap();
    /// t.map_inplace(|x| x * 10);
    /// assert_eq!(t.to_logical(), [10, 20, 30, 40]);
    /// ```
    pub fn map_inplace(&mut self, mut f: impl FnMut(L::Elem) -> L::Elem) {
        let order = memory_order::<L>(&self.extents);
        let words = self.as_mut_slice();
        for (offset, _) in order {
            let v = L::load(words, offset);
            L::store(words, offset, f(v));
        }
    }

    /// Replaces every element `x` by `f(x, y)`, with `y` the element at the same index of
    /// `other` (same layout, so the same slot).
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
        let order = memory_order::<L>(&self.extents);
        let theirs = other.as_slice();
        let words = self.as_mut_slice();
        for (offset, _) in order {
            let v = f(L::load(words, offset), L::load(theirs, offset));
            L::store(words, offset, v);
        }
    }
}

impl<D: AsRef<[L::Elem]> + AsMut<[L::Elem]>, L: Layout<Word = <L as Layout>::Elem>>
    TensorBase<D, L>
{
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
        let offsets = logical_offsets::<L>(&self.extents);
        let mut rest: Vec<Option<&mut L::Elem>> = self.data.as_mut().iter_mut().map(Some).collect();
        offsets.filter_map(move |o| rest[o].take())
    }
}
