//! Runs each example's `main` under `cargo test`: the examples check their results with
//! `assert!`, so a wrong result fails here as well as in `cargo run --example NAME`.

#[path = "../examples/generic_kernels.rs"]
pub mod generic_kernels;
#[path = "../examples/matmul.rs"]
pub mod matmul;
#[path = "../examples/tpu_tiles.rs"]
pub mod tpu_tiles;
#[path = "../examples/transpose.rs"]
pub mod transpose;

#[test]
fn tpu_tiles_runs() {
    tpu_tiles::main();
}

#[test]
fn matmul_runs() {
    matmul::main();
}

#[test]
fn transpose_runs() {
    transpose::main();
}

#[test]
fn generic_kernels_runs() {
    generic_kernels::main();
}
