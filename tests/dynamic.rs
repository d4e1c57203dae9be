//! Layouts with dynamic dimensions (`?`, `<=N`): for random extents, every offset, size and
//! traversal agrees with layout-core's runtime `Plan` of the same shape with those extents
//! made static (an independent model: the plan runs the tiling steps, the type evaluates the
//! macro's closed form with run-time strides); relayout between dynamic layouts preserves
//! every element; bounds are checked when extents are given.

use proptest::prelude::*;
use xla_layout::tensor::{Tensor, TensorMut, TensorRef};
use xla_layout::typed::{DimsError, Layout, Rank};
use xla_layout::{Dim, Plan, layout, parse_array};

/// The runtime plan of `L`'s text with every dimension static at `dims`.
fn plan_at<L: Layout>(dims: &[usize]) -> Plan {
    let mut shape = parse_array(L::CANONICAL).unwrap();
    for (d, &n) in shape.dims.iter_mut().zip(dims) {
        *d = Dim::Static(n as i64);
    }
    Plan::new(&shape).unwrap()
}

fn index<L: Layout>(entries: &[usize]) -> L::Index {
    let mut i = L::Index::default();
    i.as_mut().copy_from_slice(entries);
    i
}

/// Every element's offset, the sizes and the logical order of `L` at `dims`, against the plan.
fn agrees<L: Layout>(dims: &[usize]) -> Result<(), TestCaseError> {
    let plan = plan_at::<L>(dims);
    let extents = L::extents(index::<L>(dims)).unwrap();
    let sizes = L::sizes(&extents);
    prop_assert_eq!(sizes.elements, plan.elements());
    prop_assert_eq!(sizes.physical_elements, plan.physical_elements());
    prop_assert_eq!(sizes.size_bytes, plan.size_bytes());
    prop_assert_eq!(L::size_bytes(index::<L>(dims)), Ok(plan.size_bytes()));
    for (k, offset) in plan.logical_offsets().enumerate() {
        let mut rest = k;
        let mut entries = vec![0; dims.len()];
        for d in (0..dims.len()).rev() {
            entries[d] = rest % dims[d];
            rest /= dims[d];
        }
        prop_assert_eq!(
            L::offset_in(&extents, index::<L>(&entries)),
            offset,
            "{:?}",
            entries
        );
    }
    Ok(())
}

macro_rules! dynamic_layouts {
    ($($name:ident: $lit:tt, $max:expr;)*) => {$(
        proptest! {
            #![proptest_config(ProptestConfig::with_cases(24))]
            #[test]
            fn $name(dims in $max) {
                agrees::<layout!$lit>(&dims)?;
            }
        }
    )*};
}

dynamic_layouts! {
    tpu_batch: (bf16[?,1280]{1,0:T(8,128)(2,1)}), (0usize..20).prop_map(|n| vec![n, 1280]);
    bounded_rows: (f32[<=4096,128]{1,0:T(8,128)}), (0usize..40).prop_map(|n| vec![n, 128]);
    dynamic_minor: (f32[16,?]{1,0:T(8,128)}), (0usize..300).prop_map(|n| vec![16, n]);
    two_dynamic: (f32[?,3,?]{2,1,0}), (0usize..6, 0usize..9).prop_map(|(a, b)| vec![a, 3, b]);
    column_major: (s8[?,<=33]{0,1:T(4,8)}), (0usize..10, 0usize..=33).prop_map(|(a, b)| vec![a, b]);
    odd_tiles: (f32[<=100,37]{0,1:T(6,10)(3,5)}), (0usize..=100).prop_map(|n| vec![n, 37]);
    packed: (s4[?,10]{1,0:T(2,4)E(4)}), (0usize..9).prop_map(|n| vec![n, 10]);
    static_combine: (f32[?,3,8]{2,1,0:T(2,*,4)}), (0usize..7).prop_map(|n| vec![n, 3, 8]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Relayout between dynamic layouts of one array keeps every element, for any extents.
    #[test]
    fn relayout_preserves_elements(rows in 0usize..40, cols in 1usize..300) {
        let src = Tensor::<layout!(f32[?,?])>::from_fn([rows, cols], |[i, j]| (i * 1000 + j) as f32).unwrap();
        let mut tiled = Tensor::<layout!(f32[?,?]{1,0:T(8,128)})>::zeros([rows, cols]).unwrap();
        tiled.copy_from(&src);
        let mut back = Tensor::<layout!(f32[?,?]{0,1})>::zeros([rows, cols]).unwrap();
        back.copy_from(&tiled);
        prop_assert_eq!(back.to_logical(), src.to_logical());
        for (idx, v) in tiled.iter_physical() {
            prop_assert_eq!(v, (idx[0] * 1000 + idx[1]) as f32);
        }
    }
}

#[test]
fn bounds_are_checked_when_extents_are_given() {
    type Rows = layout!(f32[<=4096,128]{1,0:T(8,128)});
    assert!(Tensor::<Rows>::zeros([4096, 128]).is_ok());
    let e = Tensor::<Rows>::zeros([4097, 128]).unwrap_err();
    assert_eq!(
        e,
        DimsError::PastBound {
            layout: Rows::CANONICAL,
            dim: 0,
            bound: 4096,
            found: 4097
        }
    );
    let e = Tensor::<Rows>::from_logical([2, 64], &[0.0; 128]).unwrap_err();
    assert!(
        matches!(
            e,
            DimsError::Static {
                dim: 1,
                size: 128,
                found: 64,
                ..
            }
        ),
        "{e}"
    );
    let e = Tensor::<Rows>::from_logical([2, 128], &[0.0; 5]).unwrap_err();
    assert!(matches!(e, DimsError::Length(_)), "{e}");
    // `?` accepts extents as long as the size fits.
    type Huge = layout!(f64[?,1024,1024]);
    assert!(Huge::extents([1 << 20, 1024, 1024]).is_ok());
    assert!(Huge::extents([1 << 44, 1024, 1024]).is_err());
}

#[test]
fn views_iteration_bitcast_and_traits() {
    type Batch = layout!(s32[?,4]{0,1});
    let storage: Vec<i32> = (0..12).collect();
    let view = TensorRef::<Batch>::from_slice([3, 4], &storage).unwrap();
    assert_eq!(view[[1, 0]], 1); // column-major: [1,0] is slot 1
    assert_eq!(view.iter().take(4).collect::<Vec<_>>(), [0, 3, 6, 9]);
    assert!(TensorRef::<Batch>::from_slice([4, 4], &storage).is_err());
    let mut words = storage.clone();
    let mut m = TensorMut::<Batch>::from_slice_mut([3, 4], &mut words).unwrap();
    m[[2, 3]] = -1;
    assert_eq!(words[11], -1);

    let owned = Tensor::<Batch>::from_storage([3, 4], &storage).unwrap();
    assert_eq!(owned, view);
    assert_eq!(owned.clone(), owned);
    // Column-major [3,4] is not the flat order: not a bitcast; row-major is.
    let owned = owned.try_bitcast::<layout!(s32[?])>([12]).unwrap_err();
    let rows = Tensor::<layout!(s32[?,4])>::from_logical([3, 4], &storage).unwrap();
    let flat = rows.try_bitcast::<layout!(s32[?])>([12]).unwrap();
    assert_eq!(flat.to_logical(), storage);
    assert!(owned.try_bitcast::<layout!(s32[?,4])>([3, 4]).is_err());

    fn corner<L: Rank<2>>(t: &Tensor<L>) -> L::Elem {
        t.get([0, 0]).unwrap()
    }
    let t = Tensor::<layout!(f32[?,2])>::from_logical([1, 2], &[4.0, 5.0]).unwrap();
    assert_eq!(corner(&t), 4.0);
    fn send_sync<T: Send + Sync>(_: &T) {}
    send_sync(&t);
}

#[test]
fn interop_with_bytes_and_ndarray() {
    type Batch = layout!(f32[?,3]{0,1});
    let a = ndarray::arr2(&[[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    let t = Tensor::<Batch>::from_array_view(a.view()).unwrap();
    assert_eq!(t.dims(), [2, 3]);
    assert_eq!(t.to_array(), a.into_dyn());
    let view = t.as_array_view().unwrap();
    assert_eq!(view[[1, 2]], 6.0);
    let bytes = t.as_bytes().to_vec();
    let u = Tensor::<Batch>::from_bytes_in(*t.extents(), &bytes).unwrap();
    assert_eq!(u, t);
}
