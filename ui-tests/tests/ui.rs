//! Compile-time behaviour of `layout!`: every error class is a compile error on the offending
//! tokens (`tests/ui/fail`, each with its reviewed `.stderr`), and valid literals build
//! (`tests/ui/pass`).

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
