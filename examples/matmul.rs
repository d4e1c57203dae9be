//! A blocked matrix multiply `C = A·B` that reads its operands through layout types: `A`
//! row-major, `B` column-major (so both dot-product operands are contiguous runs), and `C`
//! in 8×128 tiles, filled one tile (one contiguous run of memory) at a time. Checked against
//! a naive triple loop on plain row-major slices.
//!
//! ```sh
//! cargo run --example matmul            # --release for meaningful timings
//! ```

use std::time::Instant;

use xla_layout::tensor::Tensor;
use xla_layout::{Layout, StaticLayout, layout};

type A = layout!(f32[96,128]{1,0});
type B = layout!(f32[128,256]{0,1});
type C = layout!(f32[96,256]{1,0:T(8,128)});

const M: usize = A::DIMS[0];
const K: usize = A::DIMS[1];
const N: usize = B::DIMS[1];
/// C's tile: the blocking of the multiply.
const TILE: [usize; 2] = [8, 128];

/// Small values with a pattern, exact in f32.
fn entry(r: usize, c: usize, salt: usize) -> f32 {
    ((r * 7 + c * 3 + salt) % 17) as f32 / 8.0 - 1.0
}

/// `c[i*n + j] = Σ_k a[i*k_len + k] * b[k*n + j]` on row-major slices.
fn naive(a: &[f32], b: &[f32], c: &mut [f32], (m, k_len, n): (usize, usize, usize)) {
    for i in 0..m {
        for j in 0..n {
            let mut sum = 0.0;
            for k in 0..k_len {
                sum += a[i * k_len + k] * b[k * n + j];
            }
            c[i * n + j] = sum;
        }
    }
}

/// C's tiles in memory order; within a tile, blocks of 2 rows × 4 columns of C, each the
/// dot products of 2 rows of A with 4 columns of B (8 independent sums per step of `k`,
/// added in the naive loop's order). The rows and columns are contiguous slices found
/// through the layouts' offsets.
fn blocked(a: &Tensor<A>, b: &Tensor<B>, c: &mut Tensor<C>) {
    // Rows of A and columns of B are contiguous: dim 1 of A and dim 0 of B are most minor.
    const { assert!(A::MINOR_TO_MAJOR[0] == 1 && B::MINOR_TO_MAJOR[0] == 0) };
    const { assert!(M.is_multiple_of(TILE[0]) && N.is_multiple_of(TILE[1])) };
    const { assert!(TILE[0].is_multiple_of(2) && TILE[1].is_multiple_of(4)) };
    let (a, b) = (a.as_slice(), b.as_slice());
    let row_of = |i: usize| &a[A::offset([i, 0])..][..K];
    let col_of = |j: usize| &b[B::offset([0, j])..][..K];
    for ti in (0..M).step_by(TILE[0]) {
        for tj in (0..N).step_by(TILE[1]) {
            for i in (ti..ti + TILE[0]).step_by(2) {
                let rows = [row_of(i), row_of(i + 1)];
                for j in (tj..tj + TILE[1]).step_by(4) {
                    let cols = [col_of(j), col_of(j + 1), col_of(j + 2), col_of(j + 3)];
                    let mut sums = [[0.0f32; 4]; 2];
                    for k in 0..K {
                        for (r, rsums) in rows.iter().zip(&mut sums) {
                            for (col, sum) in cols.iter().zip(rsums) {
                                *sum += r[k] * col[k];
                            }
                        }
                    }
                    for (di, rsums) in sums.iter().enumerate() {
                        for (dj, &sum) in rsums.iter().enumerate() {
                            c[[i + di, j + dj]] = sum;
                        }
                    }
                }
            }
        }
    }
}

/// Runs the example; panics if any check fails.
pub fn main() {
    let a_rows: Vec<f32> = (0..M * K).map(|x| entry(x / K, x % K, 1)).collect();
    let b_rows: Vec<f32> = (0..K * N).map(|x| entry(x / N, x % N, 5)).collect();
    let a = Tensor::<A>::from_logical(&a_rows).expect("M*K values");
    let b = Tensor::<B>::from_logical(&b_rows).expect("K*N values");

    let start = Instant::now();
    let mut expected = vec![0.0; M * N];
    naive(&a_rows, &b_rows, &mut expected, (M, K, N));
    let naive_time = start.elapsed();

    let start = Instant::now();
    let mut c = Tensor::<C>::zeros();
    blocked(&a, &b, &mut c);
    let blocked_time = start.elapsed();

    let got = c.to_logical();
    let max_error = got
        .iter()
        .zip(&expected)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0f32, f32::max);
    let scale = expected.iter().fold(0.0f32, |m, y| m.max(y.abs()));
    assert!(
        max_error <= 1e-5 * scale.max(1.0),
        "max error {max_error} against the naive product (largest entry {scale})"
    );
    // The tile layout's padding: none here, every slot is an element of C.
    assert_eq!(C::PHYSICAL_ELEMENTS, M * N);

    let flops = 2.0 * (M * N * K) as f64;
    println!("C[{M},{N}] = A[{M},{K}] · B[{K},{N}]");
    println!("  A {}  (rows contiguous)", A::CANONICAL);
    println!("  B {}  (columns contiguous)", B::CANONICAL);
    println!("  C {}  (filled tile by tile)", C::CANONICAL);
    for (name, time) in [("naive  ", naive_time), ("blocked", blocked_time)] {
        println!(
            "  {name} {:8.2} ms  {:6.3} GFLOP/s",
            time.as_secs_f64() * 1e3,
            flops / time.as_secs_f64().max(1e-9) / 1e9
        );
    }
    println!(
        "verified  all {} entries of C against the naive product: max error {max_error:e} \
         (largest entry {scale})",
        M * N
    );
}
