//! The `.npy` header, read strictly and written byte-for-byte as `numpy.save` writes it.
//!
//! A `.npy` file is the magic `\x93NUMPY`, a version (1.0, 2.0 or 3.0), the header's length
//! (2 bytes little-endian in 1.0, 4 in 2.0 and 3.0), the header (a Python dict literal with
//! exactly the keys `descr`, `fortran_order` and `shape`, padded with spaces and a newline so
//! that the data starts at a multiple of 64 bytes), then the data. Only what numpy writes for
//! plain arrays is read: `descr` a dtype string such as `'<f4'` (structured dtypes, lists,
//! are refused), `fortran_order` `True` or `False`, `shape` a tuple of integers.

use std::fmt::Write as _;
use std::io::{self, Read};

/// The magic bytes every `.npy` file starts with.
const MAGIC: &[u8; 6] = b"\x93NUMPY";
/// numpy's `ARRAY_ALIGN`: the data starts at a multiple of this many bytes.
const ALIGN: usize = 64;
/// numpy's `GROWTH_AXIS_MAX_DIGITS`: spaces numpy leaves in the header so that the growing
/// axis can be rewritten in place with up to this many digits.
const GROWTH_DIGITS: usize = 21;
/// The longest header read. numpy refuses headers above 10000 bytes by default
/// (`max_header_size`); a plain array's header is a few hundred bytes.
const MAX_HEADER: usize = 10_000;

/// What a `.npy` header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Header {
    /// The dtype string, such as `<f4`.
    pub(crate) descr: String,
    /// True when the data is in column-major (Fortran) order.
    pub(crate) fortran_order: bool,
    /// The array's shape.
    pub(crate) shape: Vec<u64>,
    /// Bytes before the data: magic, version, length and header.
    pub(crate) data_offset: u64,
}

/// Why a `.npy` header cannot be read.
#[derive(Debug)]
pub(crate) enum HeaderError {
    /// The bytes are not a `.npy` file at all (no magic).
    NotNpy,
    /// The file is a `.npy` file but its header is not one this reader accepts.
    Invalid(String),
    /// Reading failed.
    Io(io::Error),
}

/// Reads a header from the start of `r`, leaving `r` at the first data byte.
pub(crate) fn read_header(r: &mut impl Read) -> Result<Header, HeaderError> {
    let mut start = [0u8; 8];
    read_exact(r, &mut start)?;
    if &start[..6] != MAGIC {
        return Err(HeaderError::NotNpy);
    }
    let (major, minor) = (start[6], start[7]);
    let len_bytes = match (major, minor) {
        (1, 0) => 2,
        (2 | 3, 0) => 4,
        _ => {
            return Err(HeaderError::Invalid(format!(
                "format version {major}.{minor} is not one numpy writes (1.0, 2.0 or 3.0)"
            )));
        }
    };
    let mut len = [0u8; 4];
    read_exact(r, &mut len[..len_bytes])?;
    let len = u32::from_le_bytes(len) as usize;
    if len > MAX_HEADER {
        return Err(HeaderError::Invalid(format!(
            "the header has {len} bytes; numpy refuses headers above {MAX_HEADER} bytes \
             and a plain array's needs a few hundred"
        )));
    }
    let mut text = vec![0u8; len];
    read_exact(r, &mut text)?;
    // Versions 1.0 and 2.0 are latin-1, 3.0 UTF-8; a plain array's header is ASCII in both.
    let text = std::str::from_utf8(&text)
        .ok()
        .filter(|t| t.is_ascii())
        .ok_or_else(|| HeaderError::Invalid("the header is not ASCII text".to_string()))?;
    let mut header = parse_dict(text).map_err(HeaderError::Invalid)?;
    header.data_offset = (8 + len_bytes + len) as u64;
    Ok(header)
}

fn read_exact(r: &mut impl Read, buf: &mut [u8]) -> Result<(), HeaderError> {
    r.read_exact(buf).map_err(|e| match e.kind() {
        io::ErrorKind::UnexpectedEof => {
            HeaderError::Invalid("the file ends inside its header".to_string())
        }
        _ => HeaderError::Io(e),
    })
}

/// A cursor over the header's dict literal.
struct Cursor<'t> {
    text: &'t str,
    pos: usize,
}

impl Cursor<'_> {
    fn skip_space(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    /// Consumes `token` (after whitespace) if it is next.
    fn eat(&mut self, token: &str) -> bool {
        self.skip_space();
        let found = self.text[self.pos..].starts_with(token);
        if found {
            self.pos += token.len();
        }
        found
    }

    fn expect(&mut self, token: &str, what: &str) -> Result<(), String> {
        if self.eat(token) {
            Ok(())
        } else {
            Err(format!("expected `{token}` {what} at byte {}", self.pos))
        }
    }

    /// A quoted string without escapes.
    fn string(&mut self) -> Result<&str, String> {
        self.skip_space();
        let rest = &self.text[self.pos..];
        let quote = match rest.chars().next() {
            Some(q @ ('\'' | '"')) => q,
            _ => return Err(format!("expected a quoted string at byte {}", self.pos)),
        };
        let end = rest[1..]
            .find(quote)
            .ok_or_else(|| format!("unterminated string at byte {}", self.pos))?;
        let s = &rest[1..1 + end];
        if s.contains('\\') {
            return Err(format!(
                "escapes in strings are not read (at byte {})",
                self.pos
            ));
        }
        self.pos += end + 2;
        Ok(s)
    }

    /// A non-negative decimal integer.
    fn integer(&mut self) -> Result<u64, String> {
        self.skip_space();
        let rest = &self.text[self.pos..];
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let n = rest[..digits]
            .parse::<u64>()
            .map_err(|_| format!("expected a dimension size at byte {}", self.pos))?;
        self.pos += digits;
        Ok(n)
    }
}

/// Parses `{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }` (any key order).
fn parse_dict(text: &str) -> Result<Header, String> {
    let mut c = Cursor { text, pos: 0 };
    let (mut descr, mut fortran_order, mut shape) = (None, None, None);
    c.expect("{", "to open the header's dict")?;
    while !c.eat("}") {
        let key_at = c.pos;
        let key = c.string()?.to_string();
        c.expect(":", "after a key")?;
        let repeated = match key.as_str() {
            "descr" => {
                if c.eat("[") {
                    return Err(
                        "the dtype is structured (a list of fields); only plain dtypes are read"
                            .to_string(),
                    );
                }
                descr.replace(c.string()?.to_string()).is_some()
            }
            "fortran_order" => {
                let v = if c.eat("True") {
                    true
                } else if c.eat("False") {
                    false
                } else {
                    return Err(format!(
                        "expected True or False for fortran_order at byte {}",
                        c.pos
                    ));
                };
                fortran_order.replace(v).is_some()
            }
            "shape" => shape.replace(tuple(&mut c)?).is_some(),
            _ => {
                return Err(format!(
                    "unexpected key '{key}' at byte {key_at}; a header has exactly descr, \
                     fortran_order and shape"
                ));
            }
        };
        if repeated {
            return Err(format!("the key '{key}' is given twice"));
        }
        if !c.eat(",") {
            c.expect("}", "or `,` after a value")?;
            break;
        }
    }
    c.skip_space();
    if c.pos != text.len() {
        return Err(format!(
            "unexpected text after the header's dict at byte {}",
            c.pos
        ));
    }
    let missing = |k: &str| format!("the header has no '{k}'");
    Ok(Header {
        descr: descr.ok_or_else(|| missing("descr"))?,
        fortran_order: fortran_order.ok_or_else(|| missing("fortran_order"))?,
        shape: shape.ok_or_else(|| missing("shape"))?,
        data_offset: 0,
    })
}

/// `()`, `(5,)`, `(2, 3)` or `(2, 3,)`.
fn tuple(c: &mut Cursor<'_>) -> Result<Vec<u64>, String> {
    c.expect("(", "to open the shape")?;
    let mut dims = Vec::new();
    if c.eat(")") {
        return Ok(dims);
    }
    loop {
        dims.push(c.integer()?);
        let comma = c.eat(",");
        if c.eat(")") {
            if dims.len() == 1 && !comma {
                return Err("the shape `(n)` is not a tuple; numpy writes `(n,)`".to_string());
            }
            return Ok(dims);
        }
        if !comma {
            return Err(format!(
                "expected `,` or `)` in the shape at byte {}",
                c.pos
            ));
        }
    }
}

/// The header numpy's `np.save` writes for an array (format 1.0, or 2.0 when the header
/// does not fit 1.0's 16-bit length): the dict, the spaces numpy leaves for a growing axis,
/// and padding so that the data starts at a multiple of 64 bytes.
pub(crate) fn header_bytes(descr: &str, fortran_order: bool, shape: &[u64]) -> Vec<u8> {
    let mut dict = format!(
        "{{'descr': '{descr}', 'fortran_order': {}, 'shape': (",
        if fortran_order { "True" } else { "False" }
    );
    for (k, d) in shape.iter().enumerate() {
        if k > 0 {
            dict.push_str(", ");
        }
        let _ = write!(dict, "{d}");
    }
    if shape.len() == 1 {
        dict.push(',');
    }
    dict.push_str("), }");
    // numpy: GROWTH_AXIS_MAX_DIGITS - len(repr(shape[-1 if fortran_order else 0])).
    let growing = if fortran_order {
        shape.last()
    } else {
        shape.first()
    };
    if let Some(d) = growing {
        let digits = d.to_string().len();
        dict.push_str(&" ".repeat(GROWTH_DIGITS.saturating_sub(digits)));
    }
    // numpy's _wrap_header: ALIGN - ((8 + len_bytes + len(dict) + 1) % ALIGN) spaces (a
    // whole ALIGN when the sum is already aligned), then the newline; format 1.0 when that
    // fits its 16-bit length.
    let padded = |len_bytes: usize| {
        let unpadded = dict.len() + 1;
        unpadded + ALIGN - (8 + len_bytes + unpadded) % ALIGN
    };
    let (version, len_bytes) = if padded(2) <= usize::from(u16::MAX) {
        (1u8, 2)
    } else {
        (2u8, 4)
    };
    let padding = padded(len_bytes) - dict.len() - 1;
    dict.push_str(&" ".repeat(padding));
    dict.push('\n');
    let mut out = Vec::with_capacity(8 + len_bytes + dict.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[version, 0]);
    let len = dict.len() as u32;
    out.extend_from_slice(&len.to_le_bytes()[..len_bytes]);
    out.extend_from_slice(dict.as_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn read(bytes: &[u8]) -> Result<Header, String> {
        read_header(&mut &bytes[..]).map_err(|e| match e {
            HeaderError::NotNpy => "not npy".to_string(),
            HeaderError::Invalid(m) => m,
            HeaderError::Io(e) => e.to_string(),
        })
    }

    fn file(dict: &str) -> Vec<u8> {
        let mut b = b"\x93NUMPY\x01\x00".to_vec();
        b.extend_from_slice(&(dict.len() as u16).to_le_bytes());
        b.extend_from_slice(dict.as_bytes());
        b
    }

    #[test]
    fn headers_read_back_what_they_write() {
        for (descr, fortran, shape) in [
            ("<f4", false, vec![2, 3]),
            ("|b1", true, vec![9, 17, 1]),
            ("<V2", false, vec![5]),
            ("<i8", false, vec![]),
            ("<c16", true, vec![0, u64::MAX]),
        ] {
            let bytes = header_bytes(descr, fortran, &shape);
            assert_eq!(bytes.len() % ALIGN, 0);
            let h = read(&bytes).unwrap();
            assert_eq!(
                (h.descr.as_str(), h.fortran_order, h.shape, h.data_offset),
                (descr, fortran, shape, bytes.len() as u64)
            );
        }
    }

    #[test]
    fn a_header_as_numpy_writes_it() {
        // np.save of np.zeros((2, 3), np.float32): numpy 2.4's bytes.
        let mut expected = b"\x93NUMPY\x01\x00v\x00{'descr': '<f4', 'fortran_order': False, \
                             'shape': (2, 3), }"
            .to_vec();
        expected.resize(127, b' ');
        expected.push(b'\n');
        assert_eq!(header_bytes("<f4", false, &[2, 3]), expected);
    }

    #[test]
    fn other_writers_spellings_are_read() {
        let h = read(&file(
            "{\"shape\": (4,), \"fortran_order\": False, \"descr\": \"<u2\"}\n",
        ))
        .unwrap();
        assert_eq!((h.descr.as_str(), h.shape), ("<u2", vec![4]));
        assert_eq!(
            read(&file("{'descr':'<f4','fortran_order':True,'shape':(2,3,)}"))
                .unwrap()
                .shape,
            [2, 3]
        );
    }

    #[test]
    fn malformed_headers_say_what_is_wrong() {
        for (dict, message) in [
            (
                "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }",
                "structured",
            ),
            ("{'descr': '<f4', 'fortran_order': False, }", "no 'shape'"),
            (
                "{'descr': '<f4', 'fortran_order': 0, 'shape': (2,), }",
                "True or False",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (2), }",
                "not a tuple",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }",
                "dimension size",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }",
                "dimension size",
            ),
            (
                "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,), }",
                "twice",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}",
                "unexpected key 'x'",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} extra",
                "after the header",
            ),
            ("{'descr': '<f4", "unterminated"),
        ] {
            let e = read(&file(dict)).unwrap_err();
            assert!(e.contains(message), "{dict}: {e}");
        }
        assert_eq!(read(b"PK\x03\x04 a zip file").unwrap_err(), "not npy");
        assert!(
            read(b"\x93NUMPY\x04\x00")
                .unwrap_err()
                .contains("version 4.0")
        );
        assert!(
            read(b"\x93NUMPY\x01\x00\xff\x00{")
                .unwrap_err()
                .contains("ends inside")
        );
        assert!(
            read(b"\x93NUMPY\x02\x00\xff\xff\xff\x00")
                .unwrap_err()
                .contains("refuses")
        );
    }

    proptest! {
        #[test]
        fn any_header_reads_back_what_it_wrote(
            descr in prop::sample::select(vec!["<f4", "|b1", "<V2", "<c16", "|u1"]),
            fortran_order: bool,
            shape in prop::collection::vec(any::<u64>(), 0..12),
        ) {
            let bytes = header_bytes(descr, fortran_order, &shape);
            prop_assert_eq!(bytes.len() % ALIGN, 0);
            let h = read(&bytes).unwrap();
            prop_assert_eq!(
                (h.descr.as_str(), h.fortran_order, h.shape, h.data_offset),
                (descr, fortran_order, shape, bytes.len() as u64)
            );
        }

        #[test]
        fn any_bytes_after_the_magic_are_read_or_refused(tail in prop::collection::vec(any::<u8>(), 0..200)) {
            let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
            bytes.extend_from_slice(&(tail.len() as u16).to_le_bytes());
            bytes.extend_from_slice(&tail);
            let _ = read(&bytes);
        }

        #[test]
        fn any_dict_like_text_is_read_or_refused(text in "[{}()'\":, a-z_<0-9TrueFals]{0,80}") {
            let _ = read(&file(&text));
        }
    }
}
