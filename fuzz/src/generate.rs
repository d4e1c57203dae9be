//! Inputs: shapes generated from the grammar with edge values, and byte mutations of real
//! shapes. Deterministic for a seed.

use xla_layout::PrimitiveType;

/// SplitMix64: small, fast and deterministic.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

/// Integers at the edges: 0, 1, small, powers of two and their neighbours, 2^31, 2^32, 2^61,
/// i64::MAX, negatives.
fn edge_int(rng: &mut Rng) -> i64 {
    match rng.below(12) {
        0 => 0,
        1 => 1,
        2..=5 => rng.below(9) as i64,
        6 => 1i64 << rng.below(63),
        7 => (1i64 << rng.below(63)) - 1 + rng.below(3) as i64,
        8 => [1 << 31, 1 << 32, 1 << 61, 1 << 62, i64::MAX, (1 << 40) + 1][rng.below(6)],
        9 => -(rng.below(3) as i64),
        10 => 128 * (1 + rng.below(8) as i64),
        _ => rng.below(300) as i64,
    }
}

/// A dimension size: mostly small, sometimes an edge value.
fn dim(rng: &mut Rng) -> String {
    let n = if rng.chance(6) {
        edge_int(rng)
    } else {
        rng.below(12) as i64
    };
    match rng.below(12) {
        0 => format!("<={n}"),
        1 => "?".into(),
        _ => format!("{n}"),
    }
}

fn list(items: impl Iterator<Item = String>) -> String {
    items.collect::<Vec<_>>().join(",")
}

/// A layout for `rank` dimensions: a permutation (sometimes broken), then attributes.
fn layout(rng: &mut Rng, rank: usize) -> String {
    let mut m2m: Vec<i64> = (0..rank as i64).collect();
    for i in (1..m2m.len()).rev() {
        m2m.swap(i, rng.below(i + 1));
    }
    if rng.chance(20) && !m2m.is_empty() {
        let i = rng.below(m2m.len());
        m2m[i] = edge_int(rng);
    }
    let mut s = format!("{{{}", list(m2m.iter().map(|d| d.to_string())));
    if rng.chance(3) {
        s.push(':');
        if rng.chance(2) {
            s.push('T');
            let tiles = if rng.chance(10) {
                rng.below(60)
            } else {
                1 + rng.below(3)
            };
            let repeated = rng.chance(8);
            let first = tile(rng, rank);
            for _ in 0..tiles {
                if repeated {
                    s.push_str(&first);
                } else {
                    s.push_str(&tile(rng, rank));
                }
            }
        }
        if rng.chance(5) {
            s.push_str(&format!("L({})", edge_int(rng)));
        }
        if rng.chance(5) {
            s.push_str(&format!("E({})", [0, 1, 2, 4, 6, 8, 16][rng.below(7)]));
        }
        if rng.chance(6) {
            s.push_str(&format!("S({})", rng.below(3)));
        }
        if rng.chance(6) {
            s.push_str(&format!(
                "SC({}:{})",
                rng.below(rank.max(1)),
                list((0..rng.below(3)).map(|_| edge_int(rng).to_string()))
            ));
        }
        if rng.chance(6) {
            s.push_str(&format!("M({})", edge_int(rng)));
        }
    }
    s.push('}');
    s
}

/// A tile: a few sizes, sometimes `*`, sometimes huge.
fn tile(rng: &mut Rng, rank: usize) -> String {
    let k = 1 + rng.below(rank.max(1) + 2);
    let dims: Vec<String> = (0..k)
        .map(|i| {
            if i + 1 < k && rng.chance(4) {
                "*".into()
            } else if rng.chance(5) {
                edge_int(rng).to_string()
            } else {
                [1, 2, 3, 4, 8, 128][rng.below(6)].to_string()
            }
        })
        .collect();
    format!("({})", dims.join(","))
}

/// An array shape from the grammar.
fn array(rng: &mut Rng) -> String {
    let t = PrimitiveType::ALL[rng.below(PrimitiveType::ALL.len())];
    let rank = if rng.chance(10) {
        rng.below(12)
    } else {
        rng.below(5)
    };
    let mut s = format!("{t}[{}]", list((0..rank).map(|_| dim(rng))));
    if rng.chance(4) || rank == 0 && rng.chance(2) {
        return s;
    }
    s.push_str(&layout(rng, rank));
    s
}

/// A shape: mostly arrays, sometimes tuples (deep or wide), buffers, token, opaque.
fn shape(rng: &mut Rng, depth: usize) -> String {
    match rng.below(24) {
        0 if depth < 4 => {
            let n = if rng.chance(10) {
                rng.below(300)
            } else {
                rng.below(4)
            };
            format!(
                "({})",
                (0..n)
                    .map(|_| shape(rng, depth + 1))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
        1 => format!("b({})", array(rng)),
        2 => "token[]".into(),
        3 => "opaque[]".into(),
        _ => array(rng),
    }
}

/// Changes a few bytes of `s`: flips, deletions, duplications, insertions of shape grammar
/// pieces.
fn mutate(rng: &mut Rng, s: &str) -> String {
    mutate_with(rng, s, &SHAPE_PIECES)
}

/// Pieces of the shape grammar that mutations insert.
const SHAPE_PIECES: [&str; 16] = [
    "*",
    ",",
    "(",
    ")",
    "{",
    "}",
    ":",
    "T(",
    "L(",
    "E(",
    "M(",
    "SC(",
    "<=",
    "?",
    "9223372036854775807",
    "2305843009213693952",
];

/// Pieces of the HLO grammar that mutations insert.
const HLO_PIECES: [&str; 20] = [
    "%",
    "=",
    "ROOT ",
    "ENTRY ",
    "\n",
    "{",
    "}",
    "(",
    ")",
    ",",
    "\"",
    "/*",
    "//",
    "tuple(",
    "get-tuple-element(",
    "), index=0",
    "f32[] ",
    "(f32[], s32[]) ",
    "calls=",
    "HloModule ",
];

/// [`mutate`] with the given pieces to insert.
fn mutate_with(rng: &mut Rng, s: &str, pieces: &[&str]) -> String {
    let mut b = s.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(b.len() + 1);
        match rng.below(5) {
            0 if at < b.len() => {
                b.remove(at);
            }
            1 if at < b.len() => b[at] = b"0123456789,*(){}:[]<=?-TLESCM"[rng.below(29)],
            2 => {
                let piece = pieces[rng.below(pieces.len())].as_bytes();
                b.splice(at..at, piece.iter().copied());
            }
            3 if at < b.len() => {
                let end = (at + rng.below(16)).min(b.len());
                let copy = b[at..end].to_vec();
                b.splice(at..at, copy);
            }
            _ => b.insert(at, rng.below(256) as u8),
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// Real HLO from the repository's modules (`tests/data/hlo/modules`): the small modules
/// whole, and the instruction lines of all of them.
pub(crate) struct Hlo {
    modules: Vec<String>,
    lines: Vec<String>,
}

impl Hlo {
    /// Reads the modules; no modules (an empty list) if the directory cannot be read.
    pub(crate) fn load() -> Hlo {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/hlo/modules");
        let mut paths: Vec<_> = std::fs::read_dir(dir)
            .map(|d| d.filter_map(|e| Some(e.ok()?.path())).collect())
            .unwrap_or_default();
        paths.sort();
        let mut hlo = Hlo {
            modules: Vec::new(),
            lines: Vec::new(),
        };
        for text in paths.iter().filter_map(|p| std::fs::read_to_string(p).ok()) {
            hlo.lines.extend(
                text.lines()
                    .filter(|l| l.contains(" = ") && l.len() < 2_000)
                    .map(str::to_string),
            );
            if text.len() <= 8_000 {
                hlo.modules.push(text);
            }
        }
        hlo
    }
}

/// A small module around generated shapes: a parameter and one instruction on it.
fn hlo_generated(rng: &mut Rng) -> String {
    let (param, result) = (shape(rng, 0), shape(rng, 0));
    let root = match rng.below(5) {
        0 => format!("{result} negate({param} p)"),
        1 => format!("{result} bitcast(p)"),
        2 => "tuple(p, p)".to_string(),
        3 => "get-tuple-element(p), index=0".to_string(),
        _ => format!("{result} fusion(p), kind=kLoop, calls=f"),
    };
    format!(
        "HloModule m\n\nf {{\n  x = {param} parameter(0)\n  ROOT y = {param} copy(x)\n}}\n\n\
         ENTRY e {{\n  p = {param} parameter(0)\n  ROOT r = {root}\n}}\n"
    )
}

/// One HLO input: a real module, mutated or not, real lines spliced into a module, or a
/// module around generated shapes.
fn hlo_input(rng: &mut Rng, hlo: &Hlo) -> String {
    if hlo.modules.is_empty() {
        return hlo_generated(rng);
    }
    let module = &hlo.modules[rng.below(hlo.modules.len())];
    match rng.below(6) {
        0 => module.clone(),
        1 | 2 => mutate_with(rng, module, &HLO_PIECES),
        3 => {
            let n = 1 + rng.below(8);
            let lines: Vec<&str> = (0..n)
                .map(|_| hlo.lines[rng.below(hlo.lines.len())].as_str())
                .collect();
            format!("HloModule m\n\nENTRY e {{\n{}\n}}\n", lines.join("\n"))
        }
        4 => {
            let generated = hlo_generated(rng);
            mutate_with(rng, &generated, &HLO_PIECES)
        }
        _ => hlo_generated(rng),
    }
}

/// One input.
pub(crate) fn input(rng: &mut Rng, seeds: &[&str], hlo: &Hlo) -> String {
    match rng.below(40) {
        // HLO modules.
        38 | 39 => hlo_input(rng, hlo),
        // Long inputs with many errors on one line.
        0 => {
            let n = 1 + rng.below(3000);
            format!(
                "({})",
                (0..n).map(|_| array(rng)).collect::<Vec<_>>().join(", ")
            )
        }
        // Deep nesting, near and past the limit.
        1 => {
            let d = 240 + rng.below(40);
            format!("{}{}{}", "(".repeat(d), array(rng), ")".repeat(d))
        }
        2..=14 => {
            let seed = seeds[rng.below(seeds.len())];
            mutate(rng, seed)
        }
        15..=17 => seeds[rng.below(seeds.len())].to_string(),
        _ => shape(rng, 0),
    }
}
