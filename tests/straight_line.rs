//! `layout!` offsets compile to straight-line code.
//!
//! Builds the probe crate `tests/asm-probe` in release with `--emit asm` and checks every
//! `probe_*` function in the assembly: no jumps (`j*`), no calls, no divisions, no `loop`, no
//! traps, and a single `ret` as the last instruction. The TPU layout's probe must also take no
//! more instructions than `hand_tpu`, its closed form written by hand (spec §8.3).
//!
//! The probe crate is its own workspace, built with the cargo running this test into
//! `<target>/asm-probe` so that it never waits on the outer build's lock. Its `Cargo.lock` is
//! not committed: it is seeded from the workspace's lock so that the same dependency versions
//! are used, offline. x86_64 only; elsewhere the test prints a notice and passes.

#[cfg(not(target_arch = "x86_64"))]
#[test]
fn offsets_are_straight_line() {
    println!("notice: the straight-line check reads x86_64 assembly; skipped on this target");
}

#[cfg(target_arch = "x86_64")]
#[test]
fn offsets_are_straight_line() {
    let asm = x86::build_probe_asm();
    x86::check(&asm);
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::collections::{BTreeMap, BTreeSet};
    use std::fmt::Write as _;
    use std::fs;
    use std::path::{Path, PathBuf};
    use std::process::Command;

    /// Probes that must be in the assembly: one per kind of layout the test promises to cover.
    const REQUIRED: &[&str] = &[
        "probe_row_major",
        "probe_col_major",
        "probe_permuted",
        "probe_tpu",
        "probe_figure2",
        "probe_three_levels",
        "probe_combine",
        "probe_combine_minor",
        "probe_odd_tiles",
        "probe_odd_two_levels",
        "probe_tile_rank_up",
        "probe_scalar_tiled",
        "probe_rank8",
        "probe_s4_packed",
        "probe_u4_mixed",
        "probe_legacy_padded",
        "probe_dyn_batch",
        "probe_dyn_bounded",
        "probe_dyn_minor",
        "probe_dyn_two",
    ];

    /// Dynamic layouts: the exact number of multiplies by a run-time value (an `imul` with no
    /// immediate operand) in each probe, one per term whose stride depends on a dynamic
    /// extent, and the hand-written closed form it must not be longer than.
    const DYNAMIC: &[(&str, usize, Option<&str>)] = &[
        ("probe_dyn_batch", 0, None),
        ("probe_dyn_bounded", 0, None),
        ("probe_dyn_minor", 1, Some("hand_dyn_minor")),
        ("probe_dyn_two", 2, Some("hand_dyn_two")),
    ];

    /// Multiplies by a run-time value: `imul` without an immediate (`$`) operand.
    fn runtime_multiplies(body: &[String]) -> usize {
        body.iter()
            .filter(|i| i.starts_with("imul") && !i.contains('$'))
            .count()
    }

    /// Builds the probe crate and returns its assembly text.
    pub(super) fn build_probe_asm() -> String {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let probe = root.join("tests").join("asm-probe");
        let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .parent()
            .expect("CARGO_TARGET_TMPDIR is inside the target directory")
            .join("asm-probe");
        seed_lockfile(&root.join("Cargo.lock"), &probe.join("Cargo.lock"));

        let output = Command::new(env!("CARGO"))
            .current_dir(root)
            .args(["rustc", "--release", "--lib", "--manifest-path"])
            .arg(probe.join("Cargo.toml"))
            .args([
                "--message-format=json-render-diagnostics",
                "--",
                "--emit",
                "asm",
            ])
            .env("CARGO_TARGET_DIR", &target)
            // The check is about the default release codegen for the host.
            .env_remove("CARGO_BUILD_TARGET")
            .env_remove("RUSTFLAGS")
            .env_remove("CARGO_ENCODED_RUSTFLAGS")
            .env_remove("CARGO_BUILD_RUSTFLAGS")
            .output()
            .expect("cannot run cargo");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.success(),
            "building the asm probe failed ({}):\n{stderr}",
            output.status
        );

        let asm_path = asm_path(&stdout).unwrap_or_else(|| {
            panic!("no asm-probe library artifact in cargo's output:\n{stdout}\n{stderr}")
        });
        fs::read_to_string(&asm_path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}\n{stderr}", asm_path.display()))
    }

    /// Copies the workspace's lock over the probe's when the probe has none or an older one,
    /// so the probe resolves to the same versions without the registry. Written to a temporary
    /// file and renamed, so a concurrent run never reads half a file.
    fn seed_lockfile(workspace_lock: &Path, probe_lock: &Path) {
        let modified = |p: &Path| fs::metadata(p).and_then(|m| m.modified()).ok();
        let stale = match (modified(workspace_lock), modified(probe_lock)) {
            (Some(w), Some(p)) => p < w,
            (Some(_), None) => true,
            (None, _) => false,
        };
        if stale {
            let tmp = probe_lock.with_extension(format!("lock.{}", std::process::id()));
            fs::copy(workspace_lock, &tmp).expect("cannot copy Cargo.lock");
            fs::rename(&tmp, probe_lock).expect("cannot move Cargo.lock into place");
        }
    }

    /// The `.s` file that `--emit asm` writes beside the library's `deps/libasm_probe-HASH.*`
    /// artifacts: `deps/asm_probe-HASH.s`, for the HASH cargo reports.
    fn asm_path(cargo_json: &str) -> Option<PathBuf> {
        const ARTIFACT: &str = "libasm_probe-";
        cargo_json
            .lines()
            .filter(|l| l.contains(r#""reason":"compiler-artifact""#))
            .find_map(|line| {
                let at = line.find(ARTIFACT)?;
                let start = line[..at].rfind('"')? + 1;
                let deps = Path::new(&line[start..at]);
                let rest = &line[at + ARTIFACT.len()..];
                let hash = &rest[..rest.find(['.', '"'])?];
                Some(deps.join(format!("asm_probe-{hash}.s")))
            })
    }

    /// The instruction lines of every function in the assembly, by name: the lines between
    /// `name:` and the function's end, without directives, labels, comments or blank lines.
    /// Also returns each function's full text, labels included, for error messages.
    fn functions(asm: &str) -> BTreeMap<String, (Vec<String>, String)> {
        let names: BTreeSet<&str> = asm
            .lines()
            .filter_map(|l| {
                let rest = l.trim().strip_prefix(".type")?.trim();
                let (name, kind) = rest.split_once(',')?;
                (kind.trim() == "@function").then(|| name.trim())
            })
            .collect();
        let mut out = BTreeMap::new();
        let mut current: Option<(&str, Vec<String>, String)> = None;
        for line in asm.lines() {
            let t = line.trim();
            if let Some(name) = t.strip_suffix(':').filter(|n| names.contains(n)) {
                current = Some((name, Vec::new(), String::new()));
                continue;
            }
            let Some((_, body, text)) = current.as_mut() else {
                continue;
            };
            if t.starts_with(".Lfunc_end") || t.starts_with(".size") {
                if let Some((name, body, text)) = current.take() {
                    out.insert(name.to_string(), (body, text));
                }
                continue;
            }
            let _ = writeln!(text, "{line}");
            if !(t.is_empty() || t.starts_with('.') || t.starts_with('#') || t.ends_with(':')) {
                body.push(t.to_string());
            }
        }
        if let Some((name, body, text)) = current {
            out.insert(name.to_string(), (body, text));
        }
        out
    }

    /// Why an instruction breaks straight-line code, if it does.
    fn forbidden(instruction: &str) -> Option<&'static str> {
        let mnemonic = instruction.split_whitespace().next().unwrap_or("");
        if mnemonic.starts_with('j') {
            Some("a jump")
        } else if mnemonic.starts_with("call") {
            Some("a call")
        } else if mnemonic.starts_with("div") || mnemonic.starts_with("idiv") {
            Some("a division")
        } else if mnemonic.starts_with("loop") {
            Some("a loop")
        } else if mnemonic == "ud2" || mnemonic.starts_with("int") {
            Some("a trap")
        } else {
            None
        }
    }

    fn is_ret(instruction: &str) -> bool {
        matches!(
            instruction.split_whitespace().next(),
            Some("ret" | "retq" | "retl")
        )
    }

    /// Asserts every probe is straight-line and the TPU probe is no longer than `hand_tpu`.
    pub(super) fn check(asm: &str) {
        let functions = functions(asm);
        let probes: Vec<&String> = functions
            .keys()
            .filter(|n| n.starts_with("probe_"))
            .collect();
        let missing: Vec<&&str> = REQUIRED
            .iter()
            .filter(|r| !functions.contains_key(**r))
            .collect();
        assert!(
            missing.is_empty() && probes.len() >= 8,
            "probes missing from the assembly: {missing:?} (found {probes:?})"
        );

        let mut failures = String::new();
        println!("{:<24} instructions", "function");
        for name in probes {
            let (body, text) = &functions[name];
            println!("{name:<24} {}", body.len());
            let mut problems: Vec<String> = body
                .iter()
                .filter_map(|i| forbidden(i).map(|why| format!("{why}: `{i}`")))
                .collect();
            let rets = body.iter().filter(|i| is_ret(i)).count();
            if rets != 1 || !body.last().is_some_and(|i| is_ret(i)) {
                problems.push(format!(
                    "{rets} `ret`s, expected one as the last instruction"
                ));
            }
            if !problems.is_empty() {
                let _ = writeln!(
                    failures,
                    "{name} is not straight-line code:\n  {}\n{name}:\n{text}",
                    problems.join("\n  ")
                );
            }
        }
        assert!(failures.is_empty(), "{failures}");

        for &(probe, multiplies, hand) in DYNAMIC {
            let (body, text) = &functions[probe];
            assert_eq!(
                runtime_multiplies(body),
                multiplies,
                "{probe} should multiply by a run-time stride {multiplies} times:\n{text}"
            );
            if let Some(hand) = hand {
                let (hand_body, hand_text) = &functions[hand];
                println!("{hand:<24} {}", hand_body.len());
                assert_eq!(
                    runtime_multiplies(hand_body),
                    multiplies,
                    "{hand}:\n{hand_text}"
                );
                assert!(
                    body.len() <= hand_body.len() + 2,
                    "{probe} takes {} instructions, the hand-written closed form {} (plus two \
                     loads of the strides):\n{text}\n{hand}:\n{hand_text}",
                    body.len(),
                    hand_body.len()
                );
            }
        }

        let (hand, hand_text) = functions
            .get("hand_tpu")
            .expect("hand_tpu is missing from the assembly");
        let (tpu, tpu_text) = &functions["probe_tpu"];
        println!("{:<24} {}", "hand_tpu", hand.len());
        assert!(
            tpu.len() <= hand.len(),
            "probe_tpu takes {} instructions, the hand-written closed form {}:\n\
             probe_tpu:\n{tpu_text}\nhand_tpu:\n{hand_text}",
            tpu.len(),
            hand.len()
        );
    }

    #[test]
    fn parses_functions_and_flags_branches() {
        let asm = "\t.type\tprobe_a,@function\nprobe_a:\n\t.cfi_startproc\n\tleaq\t(%rdi,%rdi), %rax\n\
                   \tretq\n.Lfunc_end0:\n\t.size\tprobe_a, .Lfunc_end0-probe_a\n\
                   \t.type\tprobe_b,@function\nprobe_b:\n\ttestq\t%rdi, %rdi\n\tje\t.LBB1_2\n\
                   \tcallq\tfoo\n.LBB1_2:\n\tdivq\t%rsi\n\tretq\n.Lfunc_end1:\n";
        let f = functions(asm);
        assert_eq!(f["probe_a"].0, ["leaq\t(%rdi,%rdi), %rax", "retq"]);
        let b: Vec<_> = f["probe_b"].0.iter().filter_map(|i| forbidden(i)).collect();
        assert_eq!(b, ["a jump", "a call", "a division"]);
        assert!(f["probe_b"].1.contains(".LBB1_2:"));
    }
}
