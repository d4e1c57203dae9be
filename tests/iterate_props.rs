//! Property tests of the tensor iterators against per-index references: `iter` and `iter_mut`
//! against `get` of each logical index in row-major order (the typed closed-form offset),
//! (`next` and `fold`), `values_physical` and `iter_physical` against every slot of the storage read back with
//! `Plan::index_of`, `map_inplace` and `zip_with` against `get` before and after, padding
//! untouched; `len()` exact at every step, and `next` and `fold` (what `sum`, `collect` and
//! `for_each` use) agreeing however the two are mixed. On layouts with padding, non-power-of-two
//! tiles, `*`, `(2,1)` sub-tiles, `L`, packed `E(4)`, rank 0, and dynamic extents.

use half::bf16;
use proptest::prelude::*;
use xla_layout::layout;
use xla_layout::tensor::Tensor;
use xla_layout::typed::{I4, Layout};

/// Element values made from a number, and changed by a map.
trait Value: Copy + PartialEq + std::fmt::Debug {
    fn make(k: usize) -> Self;
    fn bump(self, by: Self) -> Self;
}

impl Value for f32 {
    fn make(k: usize) -> f32 {
        k as f32 + 1.0
    }
    fn bump(self, by: f32) -> f32 {
        self * 2.0 + by
    }
}

impl Value for bf16 {
    fn make(k: usize) -> bf16 {
        bf16::from_f32((k % 200) as f32 + 1.0)
    }
    fn bump(self, by: bf16) -> bf16 {
        bf16::from_f32(self.to_f32() + by.to_f32())
    }
}

impl Value for u8 {
    fn make(k: usize) -> u8 {
        (k % 250) as u8 + 1
    }
    fn bump(self, by: u8) -> u8 {
        self.wrapping_mul(3).wrapping_add(by)
    }
}

impl Value for I4 {
    fn make(k: usize) -> I4 {
        I4::new((k % 15) as i8 - 7).unwrap()
    }
    fn bump(self, by: I4) -> I4 {
        I4::new((self.get() + by.get()).rem_euclid(16) - 8).unwrap()
    }
}

/// The row-major multi-index of a linear index.
fn unravel<const R: usize>(mut linear: usize, dims: [usize; R]) -> [usize; R] {
    let mut index = [0; R];
    for k in (0..R).rev() {
        index[k] = linear % dims[k];
        linear /= dims[k];
    }
    index
}

/// Every iterator of `t` against the per-index references.
fn check<L, const R: usize>(mut t: Tensor<L>, salt: usize) -> Result<(), TestCaseError>
where
    L: Layout<Index = [usize; R]>,
    L::Elem: Value,
{
    let dims = t.dims();
    let n = t.sizes().elements;
    let logical: Vec<L::Elem> = (0..n).map(|l| t.get(unravel(l, dims)).unwrap()).collect();
    let plan = L::plan_in(t.extents());
    let in_memory: Vec<([usize; R], L::Elem)> = (0..plan.tiled_elements())
        .filter_map(|slot| {
            let index: [usize; R] = plan.index_of(slot)?.try_into().unwrap();
            Some((index, t.get(index).unwrap()))
        })
        .collect();
    prop_assert_eq!(in_memory.len(), n);

    // `fold` through `collect`, `next` one by one, and `next` then `fold`.
    prop_assert_eq!(t.iter().collect::<Vec<_>>(), logical.clone());
    let mut it = t.iter();
    for (k, x) in logical.iter().enumerate() {
        prop_assert_eq!(it.len(), n - k);
        prop_assert_eq!(it.next(), Some(*x));
    }
    prop_assert_eq!(it.len(), 0);
    prop_assert_eq!(it.next(), None);
    drop(it);
    let split = salt % (n + 1);
    let mut it = t.iter();
    let head: Vec<_> = it.by_ref().take(split).collect();
    prop_assert_eq!(it.len(), n - split);
    let mut tail = Vec::new();
    it.for_each(|x| tail.push(x));
    prop_assert_eq!([head, tail].concat(), logical.clone());

    let values: Vec<L::Elem> = in_memory.iter().map(|&(_, x)| x).collect();
    prop_assert_eq!(t.values_physical().collect::<Vec<_>>(), values.clone());
    let mut it = t.values_physical();
    let head: Vec<_> = it.by_ref().take(split).collect();
    prop_assert_eq!(it.len(), n - split);
    let stepped: Vec<_> = head.into_iter().chain(it).collect();
    prop_assert_eq!(stepped, values.clone());

    prop_assert_eq!(t.iter_physical().collect::<Vec<_>>(), in_memory.clone());
    let mut it = t.iter_physical();
    let mut stepped = Vec::new();
    for k in 0..split {
        prop_assert_eq!(it.len(), n - k);
        stepped.push(it.next().unwrap());
    }
    it.for_each(|item| stepped.push(item));
    prop_assert_eq!(stepped, in_memory.clone());

    // In place: padding slots keep their words.
    let storage = t.as_slice().to_vec();
    let by = L::Elem::make(salt);
    t.map_inplace(|x| x.bump(by));
    let mapped: Vec<_> = logical.iter().map(|x| x.bump(by)).collect();
    prop_assert_eq!(t.iter().collect::<Vec<_>>(), mapped.clone());
    let other = t.clone();
    t.zip_with(&other, |x, y| x.bump(y));
    let zipped: Vec<_> = mapped.iter().map(|&x| x.bump(x)).collect();
    prop_assert_eq!(t.iter().collect::<Vec<_>>(), zipped);
    if !L::PACKED {
        let padding: Vec<usize> = (0..plan.physical_elements())
            .filter(|&s| plan.index_of(s).is_none())
            .collect();
        let now = t.as_slice();
        for s in padding {
            prop_assert_eq!(now[s], storage[s], "padding slot {} changed", s);
        }
    }
    Ok(())
}

/// `iter_mut` hands out every element once, in logical order.
fn check_mut<L, const R: usize>(mut t: Tensor<L>) -> Result<(), TestCaseError>
where
    L: Layout<Index = [usize; R], Word = <L as Layout>::Elem>,
    L::Elem: Value,
{
    let dims = t.dims();
    let n = t.sizes().elements;
    let mut it = t.iter_mut();
    prop_assert_eq!(it.len(), n);
    let mut k = 0;
    while let Some(x) = it.next() {
        *x = L::Elem::make(k + 1000);
        k += 1;
        prop_assert_eq!(it.len(), n - k);
    }
    prop_assert_eq!(k, n);
    drop(it);
    for l in 0..n {
        prop_assert_eq!(t.get(unravel(l, dims)), Some(L::Elem::make(l + 1000)));
    }
    // `next` for a few, then `fold` (`for_each`) for the rest.
    let mut it = t.iter_mut();
    let mut k = 0;
    for x in it.by_ref().take(n / 3) {
        *x = L::Elem::make(k + 2000);
        k += 1;
    }
    prop_assert_eq!(it.len(), n - k);
    it.for_each(|x| {
        *x = L::Elem::make(k + 2000);
        k += 1;
    });
    prop_assert_eq!(k, n);
    for l in 0..n {
        prop_assert_eq!(t.get(unravel(l, dims)), Some(L::Elem::make(l + 2000)));
    }
    Ok(())
}

macro_rules! static_cases {
    ($($name:ident: $layout:ty,)*) => {
        proptest! {
            #![proptest_config(ProptestConfig::with_cases(12))]
            $(
                #[test]
                fn $name(salt in 0usize..10_000) {
                    let t = Tensor::<$layout>::from_fn(|i| {
                        let dims = <$layout as xla_layout::StaticLayout>::DIMS;
                        let l = i.iter().zip(dims).fold(0, |acc, (&x, &d)| acc * d + x);
                        Value::make(l + salt)
                    });
                    check(t.clone(), salt)?;
                    check_mut(t)?;
                }
            )*
        }
    };
}

static_cases! {
    rows: layout!(f32[5,7]),
    column_major: layout!(f32[5,7]{0,1}),
    padded_tiles: layout!(f32[5,7]{1,0:T(2,4)}),
    odd_tiles_transposed: layout!(f32[7,5]{0,1:T(3,2)}),
    pairs: layout!(bf16[16,256]{1,0:T(8,128)(2,1)}),
    padded_pairs: layout!(bf16[13,130]{1,0:T(8,128)(2,1)}),
    combine: layout!(f32[4,6,5]{2,1,0:T(3,*,4)(*,2)}),
    higher_rank_tile: layout!(u8[3,5]{1,0:T(2,2,4)}),
    tail_padding: layout!(f32[3,5,2]{0,2,1:T(2,2)L(7)}),
    scalar: layout!(f32[]),
    empty: layout!(f32[0,3]{1,0:T(2,2)}),
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn packed_nibbles(salt in 0usize..10_000) {
        type L = layout!(s4[6,10]{1,0:T(4,8)E(4)});
        let t = Tensor::<L>::from_fn(|[i, j]| Value::make(i * 10 + j + salt));
        check(t, salt)?;
    }

    #[test]
    fn dynamic_rows(rows in 0usize..20, salt in 0usize..10_000) {
        type L = layout!(f32[?,130]{1,0:T(8,128)});
        let t = Tensor::<L>::from_fn([rows, 130], |[i, j]| Value::make(i * 130 + j + salt)).unwrap();
        check(t.clone(), salt)?;
        check_mut(t)?;
    }

    #[test]
    fn dynamic_bounded(rows in 0usize..=9, cols in 1usize..12, salt in 0usize..10_000) {
        type L = layout!(u8[<=9,?]{0,1:T(4,3)});
        let t = Tensor::<L>::from_fn([rows, cols], |[i, j]| Value::make(i * cols + j + salt)).unwrap();
        check(t.clone(), salt)?;
        check_mut(t)?;
    }
}

/// `iter_mut` can hand its elements to another thread, as `slice::iter_mut` can: each thread
/// of a scope gets half of the references and writes them, and every element is written once.
#[test]
fn iter_mut_is_send() {
    type L = layout!(f32[16,256]{1,0:T(8,128)});
    let mut t = Tensor::<L>::zeros();
    let mut it = t.iter_mut();
    let first: Vec<&mut f32> = it.by_ref().take(2048).collect();
    std::thread::scope(|s| {
        s.spawn(move || first.into_iter().for_each(|x| *x += 1.0));
        s.spawn(move || it.for_each(|x| *x += 2.0));
    });
    // Logical row-major order: rows 0..8 went to the first thread, rows 8..16 to the second.
    for i in 0..16 {
        for j in 0..256 {
            assert_eq!(t[[i, j]], if i < 8 { 1.0 } else { 2.0 });
        }
    }
}
