//! Compile-time behaviour of `layout!`: every error class is a compile error on the offending
//! tokens (`tests/ui/fail`, each with its reviewed `.stderr`). The programs that must build
//! and run (`tests/ui/pass`) are this package's other test targets.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*.rs");
}
