//! numpy dtypes and XLA element types: which `.npy` `descr` holds which element type.
//!
//! Each element type that numpy has is one little-endian dtype (`|` for one byte, where
//! byte order means nothing): `pred` is `|b1`, `s8`..`s64` are `|i1`..`<i8`, `u8`..`u64`
//! are `|u1`..`<u8`, `f16`/`f32`/`f64` are `<f2`/`<f4`/`<f8`, `c64`/`c128` are
//! `<c8`/`<c16`. numpy has no `bf16`: `ml_dtypes.bfloat16` arrays are saved as the raw
//! 2-byte dtype `<V2`, which is read (and written) as `bf16`. The other types (`s4`, the
//! `f8` kinds...) are saved by `ml_dtypes` as `<V1`, which cannot say which one it is:
//! those go through raw bytes and `--from`.

use xla_layout_core::PrimitiveType;

/// The `descr` of each element type numpy can hold, as `np.save` writes it.
const DTYPES: [(PrimitiveType, &str); 15] = [
    (PrimitiveType::Pred, "|b1"),
    (PrimitiveType::S8, "|i1"),
    (PrimitiveType::S16, "<i2"),
    (PrimitiveType::S32, "<i4"),
    (PrimitiveType::S64, "<i8"),
    (PrimitiveType::U8, "|u1"),
    (PrimitiveType::U16, "<u2"),
    (PrimitiveType::U32, "<u4"),
    (PrimitiveType::U64, "<u8"),
    (PrimitiveType::F16, "<f2"),
    (PrimitiveType::Bf16, "<V2"),
    (PrimitiveType::F32, "<f4"),
    (PrimitiveType::F64, "<f8"),
    (PrimitiveType::C64, "<c8"),
    (PrimitiveType::C128, "<c16"),
];

/// The list of supported dtypes for error messages.
const SUPPORTED: &str = "b1 (pred), i1..i8 (s8..s64), u1..u8 (u8..u64), f2 (f16), f4 (f32), \
                         f8 (f64), c8 (c64), c16 (c128), and V2 (bf16, as ml_dtypes saves it)";

/// The `descr` `np.save` writes for `t`, or `None` when numpy has no such dtype.
pub(crate) fn descr(t: PrimitiveType) -> Option<&'static str> {
    DTYPES.iter().find(|(p, _)| *p == t).map(|(_, d)| *d)
}

/// The element type a `.npy` file's `descr` holds, or why there is none.
pub(crate) fn element_type(descr: &str) -> Result<PrimitiveType, String> {
    let (order, kind) = match descr.chars().next() {
        Some(c @ ('<' | '>' | '|' | '=')) => (c, &descr[1..]),
        _ => ('=', descr),
    };
    let found = DTYPES
        .iter()
        .find(|(_, d)| &d[1..] == kind)
        .map(|(t, _)| *t);
    // Byte order means nothing for one byte; numpy writes a plain 2-byte void as `|V2`.
    let any_order = matches!(kind, "b1" | "i1" | "u1");
    match (found, order) {
        (Some(t), _) if any_order => Ok(t),
        (Some(t), '<') => Ok(t),
        (Some(t), '|') if kind == "V2" => Ok(t),
        (Some(t), '>') => Err(format!(
            "the dtype `{descr}` is big-endian, but XLA's buffers are little-endian; save \
             the array as `{}` (`a.astype(a.dtype.newbyteorder('<'))`) to convert it as {t}",
            descr_or(t)
        )),
        (Some(t), _) => Err(format!(
            "the dtype `{descr}` has no byte order (numpy writes `<` or `>`); expected `{}` \
             for {t}",
            descr_or(t)
        )),
        (None, _) if kind == "V1" => Err(format!(
            "unsupported dtype `{descr}`: ml_dtypes saves every 1-byte type (int4, the \
             float8 kinds...) as `V1`, so the file does not say which; convert its data as \
             raw bytes with `--from`, naming the element type"
        )),
        (None, _) => Err(format!(
            "unsupported dtype `{descr}`: it has no XLA element type; supported: {SUPPORTED}"
        )),
    }
}

fn descr_or(t: PrimitiveType) -> &'static str {
    descr(t).unwrap_or("?")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_supported_dtype_reads_back_its_element_type() {
        for (t, d) in DTYPES {
            assert_eq!(element_type(d), Ok(t), "{d}");
            assert_eq!(descr(t), Some(d));
        }
        // One-byte types in any byte order; numpy's own `|V2` for a plain 2-byte void.
        for (d, t) in [
            ("<i1", PrimitiveType::S8),
            ("=u1", PrimitiveType::U8),
            (">b1", PrimitiveType::Pred),
            ("|V2", PrimitiveType::Bf16),
        ] {
            assert_eq!(element_type(d), Ok(t), "{d}");
        }
        assert_eq!(descr(PrimitiveType::S4), None);
        assert_eq!(descr(PrimitiveType::F8e4m3fn), None);
    }

    #[test]
    fn other_dtypes_are_refused_with_their_name() {
        for (d, message) in [
            (">f4", "big-endian"),
            (">V2", "big-endian"),
            ("=i4", "no byte order"),
            ("|i4", "no byte order"),
            ("<V1", "ml_dtypes saves every 1-byte type"),
            ("<U2", "unsupported dtype `<U2`"),
            ("<f16", "unsupported dtype `<f16`"),
            ("|O", "unsupported dtype `|O`"),
            ("<M8[ns]", "unsupported dtype `<M8[ns]`"),
            ("<c32", "unsupported dtype"),
            ("<i11", "unsupported dtype"),
        ] {
            let e = element_type(d).unwrap_err();
            assert!(e.contains(message), "{d}: {e}");
        }
    }
}
