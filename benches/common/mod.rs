//! What the benchmarks share: criterion settings sized for a small shared machine, and the
//! medians of the run that just finished, read back from criterion's estimates so that each
//! benchmark can print its ratios side by side.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use criterion::Criterion;

/// Criterion with few samples and short measurement windows (a few minutes for all benches
/// on 2 cores), then the command-line options (`--bench`, filters, `--sample-size`, ...).
pub(crate) fn criterion(measurement: Duration) -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(measurement)
        .configure_from_args()
}

/// Where criterion writes its results: `$CRITERION_HOME`, else `$CARGO_TARGET_DIR/criterion`,
/// else the workspace's `target/criterion` (cargo runs benches from the package root,
/// `benches/`).
fn criterion_home() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return home.into();
    }
    std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| PathBuf::from("../target"), PathBuf::from)
        .join("criterion")
}

/// The median time of one iteration of `group/id`, in nanoseconds, if that benchmark was
/// measured after `since` (so a filtered or test-mode run never reports stale numbers).
pub(crate) fn median_ns(group: &str, id: &str, since: SystemTime) -> Option<f64> {
    let path = criterion_home()
        .join(group)
        .join(id)
        .join("new")
        .join("estimates.json");
    let modified = std::fs::metadata(&path).ok()?.modified().ok()?;
    if modified < since {
        return None;
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    json["median"]["point_estimate"].as_f64()
}
