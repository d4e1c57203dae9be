//! Byte counts the way XLA prints them (`tsl::strings::HumanReadableNumBytes`): binary units,
//! the value truncated to whole sub-units, one decimal for K and two above.
//!
//! XLA's TPU memory reports write the units without `iB` (`32.00G`); its GPU/CPU buffer
//! assignment reports write them with it (`6.00MiB`).
//!
//! ```
//! use xla_layout::xla::numbers::{human_readable_bytes, Units};
//! assert_eq!(human_readable_bytes(34_359_738_368, Units::Tpu), "32.00G");
//! assert_eq!(human_readable_bytes(6 << 20, Units::Gpu), "6.00MiB");
//! ```

use alloc::format;
use alloc::string::String;

/// How unit names are spelled.
///
/// ```
/// use xla_layout::xla::numbers::{human_readable_bytes, Units};
/// assert_eq!(human_readable_bytes(3 << 29, Units::Tpu), "1.50G");
/// assert_eq!(human_readable_bytes(3 << 29, Units::Gpu), "1.50GiB");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Units {
    /// `K`, `M`, `G`, ...: XLA:TPU's out-of-memory report.
    Tpu,
    /// `KiB`, `MiB`, `GiB`, ...: XLA's buffer assignment report (GPU, CPU).
    Gpu,
}

/// `bytes` as XLA prints it: below 1024 as `NB`; else divided by 1024 while it is at least
/// 1 MiB (integer division, so the value is truncated to whole sub-units), then printed as
/// that count / 1024.0 with one decimal for `K` and two for `M` and above.
///
/// ```
/// use xla_layout::xla::numbers::{human_readable_bytes, Units};
/// assert_eq!(human_readable_bytes(1023, Units::Tpu), "1023B");
/// assert_eq!(human_readable_bytes(384 << 10, Units::Gpu), "384.0KiB");
/// assert_eq!(human_readable_bytes(64_225_280, Units::Tpu), "61.25M");
/// assert_eq!(human_readable_bytes(1 << 30, Units::Tpu), "1.00G");
/// assert_eq!(human_readable_bytes(-2048, Units::Gpu), "-2.0KiB");
/// ```
pub fn human_readable_bytes(bytes: i64, units: Units) -> String {
    let sign = if bytes < 0 { "-" } else { "" };
    let mut n = bytes.unsigned_abs();
    if n < 1024 {
        return format!("{sign}{n}B");
    }
    let mut unit = 0;
    while n >= 1024 * 1024 {
        n /= 1024;
        unit += 1;
    }
    let letter = ["K", "M", "G", "T", "P", "E"][unit];
    let suffix = match units {
        Units::Tpu => "",
        Units::Gpu => "iB",
    };
    // n < 2^20 here, so the conversion to f64 is exact.
    let value = n as f64 / 1024.0;
    if unit == 0 {
        format!("{sign}{value:.1}{letter}{suffix}")
    } else {
        format!("{sign}{value:.2}{letter}{suffix}")
    }
}
