//! Where an HLO module's memory goes: the buffers its instructions own, each with unpadded
//! against occupied bytes and the padding behind the difference, summed by category, memory
//! space and element type, every buffer counted once.
//!
//! Which instructions own buffers follows XLA's dataflow analysis
//! (`InitializeInstructionValueSets`): instructions of the entry and of the computations it
//! runs in sequence (while conditions and bodies, `call` targets, conditional branches, async
//! wrapped computations) own buffers; fusion bodies, reducers and comparators do not (the
//! fusion or reduce owns the result). `bitcast`, `get-tuple-element`, `while`, `call`,
//! `conditional` and parameters of called computations own nothing: they alias their operand.
//! A `tuple` owns only its pointer table (8 bytes per element), a `copy` the top level of its
//! shape; the real asynchronous start/done pairs own only their new parts.
//!
//! ```
//! use xla_layout::hlo::{memory::{analyze, Category}, parse_module};
//!
//! let text = "HloModule m\n\
//!             ENTRY e {\n  \
//!               p = f32[1024,245,64]{1,2,0:T(8,128)} parameter(0)\n  \
//!               b = f32[1024,245,64]{1,2,0:T(8,128)} bitcast(p)\n  \
//!               ROOT n = f32[1024,245,64]{1,2,0:T(8,128)} negate(b)\n}";
//! let module = parse_module(text).unwrap();
//! let memory = analyze(&module);
//! // Two buffers: the argument `p` and the output `n`; the bitcast owns nothing.
//! assert_eq!(memory.buffers.len(), 2);
//! assert_eq!(memory.buffers[0].category, Category::Argument);
//! assert_eq!(memory.buffers[1].category, Category::Output);
//! // 245 -> 256 by T(8,128): 61.25M unpadded in 64.00M, twice.
//! assert_eq!(memory.totals.all.unpadded_bytes, 2 * 64_225_280);
//! assert_eq!(memory.totals.all.bytes, 2 * 67_108_864);
//! let worst = &memory.largest_padding(1, None)[0];
//! assert_eq!(worst.padding.as_ref().unwrap().causes[0].to_string(),
//!            "dim 1: 245 padded to 256 by T(8,128)");
//! ```

use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;
use core::cell::{OnceCell, RefCell};
use core::ops::Range;

use crate::hlo::attribute::split_names;
use crate::hlo::module::{Computation, Instruction, Module};
use crate::hlo::operand::Operand;
use crate::model::{ArrayShape, PrimitiveType, Shape};
use crate::xla::padding::{Padding, padding};

/// Bytes of one entry of a tuple's pointer table (XLA's tuple tables hold 64-bit pointers).
///
/// ```
/// assert_eq!(xla_layout::hlo::memory::TUPLE_POINTER_BYTES, 8);
/// ```
pub const TUPLE_POINTER_BYTES: u64 = 8;

/// The most aliasing steps followed to find the buffer behind an output (a bound against
/// pathological chains; real modules need a few).
const MAX_ALIAS_STEPS: usize = 100_000;

/// What a computation is, from the first instruction that calls it.
///
/// ```
/// use xla_layout::hlo::{memory::{analyze, Role}, parse_module};
/// let text = "f {\n  ROOT p = f32[] parameter(0)\n}\n\
///             ENTRY e {\n  p = f32[] parameter(0)\n  ROOT r = f32[] fusion(p), kind=kLoop, calls=f\n}";
/// let module = parse_module(text).unwrap();
/// let memory = analyze(&module);
/// assert_eq!(memory.computations[0].role, Role::Fused);
/// assert!(!memory.computations[0].owns_buffers);
/// assert_eq!(memory.computations[1].role, Role::Entry);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// The entry computation.
    Entry,
    /// The `condition=` of a `while`.
    WhileCondition,
    /// The `body=` of a `while`.
    WhileBody,
    /// The `to_apply=` of a `call`.
    Called,
    /// A branch of a `conditional`.
    Branch,
    /// The `calls=` of an `async-start`.
    Async,
    /// The `calls=` of a `fusion` (or of async sugar such as `fusion-start`).
    Fused,
    /// A reducer, comparator, scatter/select function or custom-call computation.
    Applied,
    /// Called by no instruction.
    Unreferenced,
}

impl Role {
    /// Whether instructions of such a computation own buffers (when its caller does): the
    /// entry and the computations run in sequence.
    ///
    /// ```
    /// use xla_layout::hlo::memory::Role;
    /// assert!(Role::WhileBody.runs_in_sequence());
    /// assert!(!Role::Fused.runs_in_sequence());
    /// ```
    pub fn runs_in_sequence(self) -> bool {
        matches!(
            self,
            Role::Entry
                | Role::WhileCondition
                | Role::WhileBody
                | Role::Called
                | Role::Branch
                | Role::Async
        )
    }

    /// A short name: `entry`, `while condition`, `while body`, `call`, `branch`, `async`,
    /// `fusion`, `applied`, `unreferenced`.
    ///
    /// ```
    /// assert_eq!(xla_layout::hlo::memory::Role::WhileBody.name(), "while body");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Role::Entry => "entry",
            Role::WhileCondition => "while condition",
            Role::WhileBody => "while body",
            Role::Called => "call",
            Role::Branch => "branch",
            Role::Async => "async",
            Role::Fused => "fusion",
            Role::Applied => "applied",
            Role::Unreferenced => "unreferenced",
        }
    }
}

/// What a buffer holds, in the terms of XLA's memory reports.
///
/// ```
/// use xla_layout::hlo::memory::Category;
/// assert_eq!(Category::Temporary.name(), "temporaries");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    /// An entry parameter (or part of one).
    Argument,
    /// A `constant`.
    Constant,
    /// Part of the entry's result, not placed in an argument by `input_output_alias`.
    Output,
    /// Anything else: XLA's "HLO temp".
    Temporary,
}

impl Category {
    /// Every category, in report order.
    ///
    /// ```
    /// assert_eq!(xla_layout::hlo::memory::Category::ALL.len(), 4);
    /// ```
    pub const ALL: [Category; 4] = [
        Category::Argument,
        Category::Constant,
        Category::Output,
        Category::Temporary,
    ];

    /// The plural name: `arguments`, `constants`, `outputs`, `temporaries`.
    ///
    /// ```
    /// assert_eq!(xla_layout::hlo::memory::Category::Argument.name(), "arguments");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Category::Argument => "arguments",
            Category::Constant => "constants",
            Category::Output => "outputs",
            Category::Temporary => "temporaries",
        }
    }
}

/// What a buffer is: an array (a leaf of its instruction's shape) or a tuple's pointer table.
///
/// ```
/// use xla_layout::hlo::{memory::{analyze, Contents}, parse_module};
/// let text = "ENTRY e {\n  a = f32[2]{0} parameter(0)\n  ROOT t = (f32[2]{0}, f32[2]{0}) tuple(a, a)\n}";
/// let module = parse_module(text).unwrap();
/// let memory = analyze(&module);
/// assert!(matches!(memory.buffers[1].contents, Contents::TupleTable { arity: 2 }));
/// assert_eq!(memory.buffers[1].padding.as_ref().unwrap().bytes, 16);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contents<'m> {
    /// An array leaf (or a `b(...)` buffer).
    Array(&'m ArrayShape),
    /// The pointer table of a tuple with `arity` elements: `8 × arity` bytes.
    TupleTable {
        /// The number of elements.
        arity: usize,
    },
}

/// One buffer: a part of an instruction's result that the instruction defines.
///
/// ```
/// use xla_layout::hlo::{memory::analyze, parse_module};
/// let text = "ENTRY e {\n  ROOT c = s32[8388608,8,4]{2,1,0:T(8,128)} constant({...})\n}";
/// let module = parse_module(text).unwrap();
/// let memory = analyze(&module);
/// let b = &memory.buffers[0];
/// assert_eq!(b.instruction.name, "c");
/// assert!(b.index.is_empty());
/// let p = b.padding.as_ref().unwrap();
/// assert_eq!((p.unpadded_bytes, p.bytes), (1 << 30, 32 << 30));
/// ```
#[derive(Clone, Debug)]
pub struct Buffer<'m, 'a> {
    /// The index of its computation in [`Module::computations`].
    pub computation: usize,
    /// The instruction that defines it (a nested operand instruction has an empty name).
    pub instruction: &'m Instruction<'a>,
    /// The index into the instruction's shape (`[]` for the whole result).
    pub index: Vec<usize>,
    /// An array or a tuple table.
    pub contents: Contents<'m>,
    /// What it holds.
    pub category: Category,
    /// `S(n)` of the array; 0 (device memory) for tuple tables.
    pub memory_space: i64,
    /// The element type; `None` for a tuple table.
    pub element_type: Option<PrimitiveType>,
    /// Unpadded and occupied bytes with the causes of padding; `None` for an array without a
    /// static size (a `?` dimension).
    pub padding: Option<Padding>,
    /// A `dynamic-update-slice` or an instruction with `output_to_operand_aliasing`: XLA
    /// usually writes it into its operand's buffer in place, so it is counted as an upper
    /// bound.
    pub in_place: bool,
    /// `input_output_alias` places this output in entry parameter `.0` at index `.1`: it is
    /// that argument's memory and is not counted again.
    pub shares_argument: Option<(i64, Vec<i64>)>,
}

impl Buffer<'_, '_> {
    /// Whether the buffer is in the totals: it has a static size and is not an output placed
    /// in an argument's buffer.
    ///
    /// ```
    /// let text = "HloModule m, input_output_alias={ {}: (0, {}, may-alias) }\n\
    ///             ENTRY e {\n  p = f32[4]{0} parameter(0)\n  ROOT n = f32[4]{0} negate(p)\n}";
    /// let module = xla_layout::hlo::parse_module(text).unwrap();
    /// let memory = xla_layout::hlo::memory::analyze(&module);
    /// assert!(memory.buffers[0].is_counted());
    /// assert!(!memory.buffers[1].is_counted()); // n lives in p's buffer
    /// ```
    pub fn is_counted(&self) -> bool {
        self.padding.is_some() && self.shares_argument.is_none()
    }

    /// Occupied minus unpadded bytes (0 without a static size).
    ///
    /// ```
    /// let text = "ENTRY e {\n  ROOT p = u32[12582912,1]{1,0:T(8,128)} parameter(0)\n}";
    /// let module = xla_layout::hlo::parse_module(text).unwrap();
    /// let memory = xla_layout::hlo::memory::analyze(&module);
    /// assert_eq!(memory.buffers[0].extra_bytes(), (6u64 << 30) - (48 << 20));
    /// ```
    pub fn extra_bytes(&self) -> u64 {
        self.padding.as_ref().map_or(0, Padding::extra_bytes)
    }
}

/// A count of buffers with their unpadded and occupied bytes (`u128`: no sum can overflow).
///
/// ```
/// let s = xla_layout::hlo::memory::Sum::default();
/// assert_eq!((s.buffers, s.unpadded_bytes, s.bytes), (0, 0, 0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sum {
    /// How many buffers.
    pub buffers: u64,
    /// Their unpadded bytes.
    pub unpadded_bytes: u128,
    /// Their occupied bytes.
    pub bytes: u128,
}

impl Sum {
    /// Occupied minus unpadded bytes.
    ///
    /// ```
    /// let s = xla_layout::hlo::memory::Sum { buffers: 1, unpadded_bytes: 3, bytes: 8 };
    /// assert_eq!(s.extra_bytes(), 5);
    /// ```
    pub fn extra_bytes(&self) -> u128 {
        self.bytes.saturating_sub(self.unpadded_bytes)
    }

    fn add(&mut self, p: &Padding) {
        self.buffers += 1;
        self.unpadded_bytes += u128::from(p.unpadded_bytes);
        self.bytes += u128::from(p.bytes);
    }
}

/// Sums over a set of buffers, each counted once.
///
/// ```
/// let text = "ENTRY e {\n  a = f32[8]{0:S(1)} parameter(0)\n  ROOT c = bf16[8]{0} convert(a)\n}";
/// let module = xla_layout::hlo::parse_module(text).unwrap();
/// let t = xla_layout::hlo::memory::analyze(&module).totals;
/// assert_eq!(t.all.bytes, 48);
/// assert_eq!(t.by_memory_space[&1].bytes, 32);
/// assert_eq!(t.by_element_type[&Some(xla_layout::PrimitiveType::Bf16)].bytes, 16);
/// assert_eq!(t.category(xla_layout::hlo::memory::Category::Output).bytes, 16);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Every counted buffer (see [`Buffer::is_counted`]).
    pub all: Sum,
    /// Counted buffers per [`Category`], in [`Category::ALL`] order.
    pub by_category: [Sum; 4],
    /// Counted buffers per `S(n)` memory space (0 = device HBM, 1 = alternate/fast memory,
    /// 5 = host).
    pub by_memory_space: BTreeMap<i64, Sum>,
    /// Counted buffers per element type; `None` holds the tuple tables.
    pub by_element_type: BTreeMap<Option<PrimitiveType>, Sum>,
    /// Outputs placed in argument buffers by `input_output_alias` (not in `all`).
    pub shared_with_arguments: Sum,
    /// Counted buffers that XLA usually computes in place in an operand's buffer
    /// ([`Buffer::in_place`]).
    pub in_place: Sum,
    /// Buffers with no static size (`?` dimensions): in no sum.
    pub dynamic_buffers: u64,
}

impl Totals {
    /// The sum of one category.
    ///
    /// ```
    /// use xla_layout::hlo::memory::{Category, Totals};
    /// assert_eq!(Totals::default().category(Category::Constant).buffers, 0);
    /// ```
    pub fn category(&self, category: Category) -> &Sum {
        &self.by_category[category as usize]
    }

    fn add(&mut self, b: &Buffer<'_, '_>) {
        let Some(p) = &b.padding else {
            self.dynamic_buffers += 1;
            return;
        };
        if b.shares_argument.is_some() {
            self.shared_with_arguments.add(p);
            return;
        }
        self.all.add(p);
        self.by_category[b.category as usize].add(p);
        self.by_memory_space
            .entry(b.memory_space)
            .or_default()
            .add(p);
        self.by_element_type
            .entry(b.element_type)
            .or_default()
            .add(p);
        if b.in_place {
            self.in_place.add(p);
        }
    }
}

/// One computation's part of the analysis.
///
/// ```
/// let text = "ENTRY e {\n  p = f32[2]{0} parameter(0)\n  ROOT n = f32[2]{0} negate(p)\n}";
/// let module = xla_layout::hlo::parse_module(text).unwrap();
/// let memory = xla_layout::hlo::memory::analyze(&module);
/// let c = &memory.computations[0];
/// assert_eq!((c.instructions, c.buffers.clone(), c.totals.all.bytes), (2, 0..2, 16));
/// ```
#[derive(Clone, Debug)]
pub struct ComputationMemory<'a> {
    /// What the computation is.
    pub role: Role,
    /// The name of the first instruction that calls it.
    pub caller: Option<&'a str>,
    /// Whether its instructions own buffers.
    pub owns_buffers: bool,
    /// Its instructions, nested operand instructions included.
    pub instructions: usize,
    /// Its buffers: a range of [`Memory::buffers`].
    pub buffers: Range<usize>,
    /// For each of its instructions (in text order), its buffers (those of nested operand
    /// instructions included): a range of [`Memory::buffers`].
    pub instruction_buffers: Vec<Range<usize>>,
    /// Sums over its buffers.
    pub totals: Totals,
    /// The most bytes of its temporaries and outputs live at once, per memory space, with
    /// the peaks of the computations it runs (while, call, conditional, async) included.
    pub peaks: BTreeMap<i64, Peak>,
}

/// The most bytes live at once in one memory space, and where.
///
/// Live ranges follow the instruction order (the schedule when the module `is_scheduled`,
/// else the text order, a post-order): a buffer is live from its instruction to its last use
/// (through bitcasts, tuples and get-tuple-elements), outputs to the end. Arguments and
/// constants live throughout and are not included; a computation run by an instruction adds
/// its own peak at that instruction. XLA's buffer assignment can do better (other orders,
/// sharing in place) or worse (fragmentation); this is the figure of the order as written.
///
/// ```
/// let text = "HloModule m, is_scheduled=true\nENTRY e {\n  p = f32[256]{0} parameter(0)\n  \
///             a = f32[256]{0} negate(p)\n  b = f32[256]{0} abs(a)\n  c = f32[256]{0} exponential(b)\n  \
///             ROOT d = f32[256]{0} sqrt(c)\n}";
/// let module = xla_layout::hlo::parse_module(text).unwrap();
/// let memory = xla_layout::hlo::memory::analyze(&module);
/// // Of the four 1 KiB results, at most two are live at once: each dies at its one use.
/// let peak = &memory.peaks[&0];
/// assert_eq!(peak.bytes, 2048);
/// assert_eq!(module.computations()[peak.computation].instructions[peak.instruction].name, "b");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Peak {
    /// The bytes live at the peak.
    pub bytes: u128,
    /// The computation of the instruction at the peak (an index of [`Module::computations`]).
    pub computation: usize,
    /// The instruction at the peak (an index of its computation's instructions).
    pub instruction: usize,
}

/// The memory of a whole module: see the [module documentation](self).
///
/// ```
/// use xla_layout::hlo::{memory::analyze, parse_module};
/// let m = parse_module("e {\n  p = f32[1024,245,64]{1,2,0:T(8,128)} parameter(0)\n  ROOT n = f32[1024,245,64]{1,2,0:T(8,128)} negate(p)\n}").unwrap();
/// let memory = analyze(&m);
/// // Each buffer: 245 padded to 256 by T(8,128), 64,225,280 -> 67,108,864 bytes.
/// assert_eq!(memory.totals.all.bytes, 2 * 67_108_864);
/// assert_eq!(memory.buffers.len(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct Memory<'m, 'a> {
    /// One entry per computation, in [`Module::computations`] order.
    pub computations: Vec<ComputationMemory<'a>>,
    /// Every buffer, by computation and instruction in text order.
    pub buffers: Vec<Buffer<'m, 'a>>,
    /// Sums over every buffer.
    pub totals: Totals,
    /// The entry's peaks (see [`Peak`]): per memory space, the most bytes of temporaries and
    /// outputs live at once.
    pub peaks: BTreeMap<i64, Peak>,
}

impl<'m, 'a> Memory<'m, 'a> {
    /// The `n` counted buffers with the most padding (largest extra bytes first, text order
    /// among equals), optionally only those of computation `computation`.
    ///
    /// ```
    /// let text = "ENTRY e {\n  a = f32[8,128]{1,0:T(8,128)} parameter(0)\n  \
    ///             b = f32[1,128]{1,0:T(8,128)} parameter(1)\n  ROOT t = (f32[8,128], f32[1,128]) tuple(a, b)\n}";
    /// let module = xla_layout::hlo::parse_module(text).unwrap();
    /// let memory = xla_layout::hlo::memory::analyze(&module);
    /// let top = memory.largest_padding(10, None);
    /// assert_eq!(top.len(), 1); // a and the table have none
    /// assert_eq!(top[0].instruction.name, "b");
    /// ```
    pub fn largest_padding(&self, n: usize, computation: Option<usize>) -> Vec<&Buffer<'m, 'a>> {
        let mut padded: Vec<&Buffer<'m, 'a>> = self
            .buffers
            .iter()
            .filter(|b| b.is_counted() && b.extra_bytes() > 0)
            .filter(|b| computation.is_none_or(|c| b.computation == c))
            .collect();
        padded.sort_by_key(|b| core::cmp::Reverse(b.extra_bytes()));
        padded.truncate(n);
        padded
    }
}

/// The size of a shape: unpadded and occupied bytes summed over its array leaves (tuple
/// tables, tokens and opaque values add nothing); `None` when a leaf has no static size.
///
/// ```
/// use xla_layout::{hlo::memory::shape_bytes, parse};
/// let s = parse("(f32[2,3]{1,0:T(2,2)}, token[], s8[5])").unwrap();
/// assert_eq!(shape_bytes(&s), Some((24 + 5, 32 + 5)));
/// assert_eq!(shape_bytes(&parse("f32[?]").unwrap()), None);
/// ```
pub fn shape_bytes(shape: &Shape) -> Option<(u128, u128)> {
    let (mut unpadded, mut bytes) = (0u128, 0u128);
    for (_, node) in nodes(shape) {
        if let Some(a) = array_of(node) {
            let p = padding(a)?;
            unpadded += u128::from(p.unpadded_bytes);
            bytes += u128::from(p.bytes);
        }
    }
    Some((unpadded, bytes))
}

/// Analyzes a module: its computations' roles, every buffer with its size and category,
/// and the totals. Linear in the module's instructions (plus a logarithmic name lookup per
/// aliasing step behind the entry's outputs); never fails: shapes without a static size are
/// counted in [`Totals::dynamic_buffers`].
///
/// ```
/// use xla_layout::hlo::{memory::{analyze, Category}, parse_module};
/// let text = "HloModule m\n\
///             body {\n  p = (s32[], f32[8]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n  \
///               x = f32[8] get-tuple-element(p), index=1\n  y = f32[8] negate(x)\n  \
///               ROOT t = (s32[], f32[8]) tuple(i, y)\n}\n\
///             cond {\n  p = (s32[], f32[8]) parameter(0)\n  ROOT c = pred[] constant(true)\n}\n\
///             ENTRY e {\n  a = f32[8] parameter(0)\n  z = s32[] constant(0)\n  \
///               t = (s32[], f32[8]) tuple(z, a)\n  w = (s32[], f32[8]) while(t), condition=cond, body=body\n  \
///               ROOT r = f32[8] get-tuple-element(w), index=1\n}";
/// let module = parse_module(text).unwrap();
/// let memory = analyze(&module);
/// // body: y (32 B) and t's table (16 B); cond: c (1 B); entry: a, z, t's table.
/// assert_eq!(memory.totals.all.buffers, 6);
/// assert_eq!(memory.totals.all.bytes, 32 + 16 + 1 + 32 + 4 + 16);
/// assert_eq!(memory.totals.category(Category::Argument).bytes, 32);
/// assert_eq!(memory.totals.category(Category::Constant).bytes, 5);
/// ```
pub fn analyze<'m, 'a>(module: &'m Module<'a>) -> Memory<'m, 'a> {
    let comps = module.computations();
    let mut by_name: BTreeMap<&'a str, usize> = BTreeMap::new();
    for (i, c) in comps.iter().enumerate() {
        by_name.entry(c.name).or_insert(i);
    }
    let (roles, owning, callers) = roles(module, &by_name);

    let mut buffers = Vec::new();
    // The buffers of nested operand instructions (rare); top-level ones are found through
    // `instruction_buffers`.
    let mut nested: BTreeMap<*const Instruction<'a>, Range<usize>> = BTreeMap::new();
    let mut computations = Vec::with_capacity(comps.len());
    for (ci, c) in comps.iter().enumerate() {
        let start = buffers.len();
        let mut instruction_buffers = Vec::new();
        let mut count = 0;
        // The nested instructions are ordered by where they end, each after its operands:
        // those of `ins` are the next ones that end inside it, in the order they run.
        let mut next_nested = c.nested.iter().peekable();
        for ins in &c.instructions {
            let first = buffers.len();
            while let Some(n) = next_nested.next_if(|n| n.span.end <= ins.span.end) {
                count += 1;
                if owning[ci] {
                    let b = buffers.len();
                    define(module, ci, c.is_entry, n, &mut buffers);
                    nested.insert(n as *const _, b..buffers.len());
                }
            }
            count += 1;
            if owning[ci] {
                define(module, ci, c.is_entry, ins, &mut buffers);
            }
            instruction_buffers.push(first..buffers.len());
        }
        computations.push(ComputationMemory {
            role: roles[ci],
            caller: callers[ci].map(|(cc, ii)| comps[cc].instructions[ii].name),
            owns_buffers: owning[ci],
            instructions: count,
            buffers: start..buffers.len(),
            instruction_buffers,
            totals: Totals::default(),
            peaks: BTreeMap::new(),
        });
    }

    let resolver = Resolver {
        comps,
        computations: &computations,
        by_name: &by_name,
        names: (0..comps.len()).map(|_| OnceCell::new()).collect(),
        callers: &callers,
        owning: &owning,
        nested: &nested,
        buffers: &buffers,
        memo: RefCell::new(BTreeMap::new()),
    };
    let entry = module.entry;
    let root = comps[entry].root();
    let outputs: Vec<usize> = nodes(&root.shape)
        .into_iter()
        .filter_map(|(index, _)| resolver.resolve(entry, root, index))
        .collect();
    let mut shared: Vec<(usize, (i64, Vec<i64>))> = Vec::new();
    for alias in module.input_output_alias() {
        let Some(at) = alias
            .output_index
            .iter()
            .map(|&i| usize::try_from(i).ok())
            .collect::<Option<Vec<usize>>>()
        else {
            continue;
        };
        let Some(sub) = subshape(&root.shape, &at) else {
            continue;
        };
        for (rest, _) in nodes(sub) {
            let mut index = at.clone();
            index.extend(rest);
            if let Some(b) = resolver.resolve(entry, root, index) {
                shared.push((b, (alias.parameter_number, alias.parameter_index.clone())));
            }
        }
    }
    let last_use = last_uses(&resolver);
    drop(resolver);
    for b in outputs {
        if buffers[b].category == Category::Temporary {
            buffers[b].category = Category::Output;
        }
    }
    for (b, at) in shared {
        if buffers[b].category != Category::Argument {
            buffers[b].shares_argument = Some(at);
        }
    }

    let mut totals = Totals::default();
    for b in &buffers {
        totals.add(b);
        computations[b.computation].totals.add(b);
    }
    for ci in 0..comps.len() {
        if owning[ci] {
            let peaks = peaks(module, &by_name, &computations, &buffers, &last_use, ci);
            computations[ci].peaks = peaks;
        }
    }
    let peaks = computations[entry].peaks.clone();
    Memory {
        computations,
        buffers,
        totals,
        peaks,
    }
}

/// Each buffer's last use: the position (in its computation's instructions) of the last
/// instruction that reads it, through aliases; the end for what the root returns.
fn last_uses(r: &Resolver<'_, '_, '_>) -> Vec<usize> {
    let mut end = vec![0; r.buffers.len()];
    for (ci, m) in r.computations.iter().enumerate() {
        for (j, range) in m.instruction_buffers.iter().enumerate() {
            for b in range.clone() {
                end[b] = j;
            }
        }
        if !r.owning[ci] {
            continue;
        }
        let instructions = &r.comps[ci].instructions;
        let mut mark = |b: Option<usize>, at: usize| {
            if let Some(b) = b
                && r.buffers[b].computation == ci
            {
                end[b] = end[b].max(at);
            }
        };
        for (j, ins) in instructions.iter().enumerate() {
            match ins.opcode {
                // Aliases read no data: their users are followed through them.
                "bitcast" | "tuple" | "domain" | "opt-barrier" | "add-dependency" => {}
                "get-tuple-element" => {
                    if let Some(o) = r.operand(ci, ins, 0) {
                        mark(r.resolve(ci, o, Vec::new()), j);
                    }
                }
                _ => {
                    for operand in &ins.operands {
                        let Some(o) = r.instruction_of(ci, &operand) else {
                            continue;
                        };
                        for (index, _) in nodes(&o.shape) {
                            mark(r.resolve(ci, o, index), j);
                        }
                    }
                }
            }
        }
        let last = instructions.len().saturating_sub(1);
        let root = r.comps[ci].root();
        for (index, _) in nodes(&root.shape) {
            mark(r.resolve(ci, root, index), last);
        }
    }
    end
}

/// A computation's peaks per memory space (see [`Peak`]); callees' peaks must be known.
fn peaks(
    module: &Module<'_>,
    by_name: &BTreeMap<&str, usize>,
    computations: &[ComputationMemory<'_>],
    buffers: &[Buffer<'_, '_>],
    last_use: &[usize],
    ci: usize,
) -> BTreeMap<i64, Peak> {
    let m = &computations[ci];
    let n = m.instruction_buffers.len();
    let mut deltas: BTreeMap<i64, Vec<i128>> = BTreeMap::new();
    for (j, range) in m.instruction_buffers.iter().enumerate() {
        for b in range.clone() {
            let buffer = &buffers[b];
            let Some(p) = &buffer.padding else { continue };
            if !buffer.is_counted()
                || matches!(buffer.category, Category::Argument | Category::Constant)
            {
                continue;
            }
            let d = deltas
                .entry(buffer.memory_space)
                .or_insert_with(|| vec![0; n + 1]);
            let bytes = i128::from(p.bytes);
            d[j] += bytes;
            d[last_use[b].max(j) + 1] -= bytes;
        }
    }
    // The callees' peaks, added at the instruction that runs them.
    let mut inner: Vec<(usize, &BTreeMap<i64, Peak>)> = Vec::new();
    for (j, ins) in module.computations()[ci].instructions.iter().enumerate() {
        for callee in ins.called_computations() {
            if let Some(&k) = by_name.get(callee)
                && k != ci
                && computations[k].owns_buffers
            {
                inner.push((j, &computations[k].peaks));
                for &space in computations[k].peaks.keys() {
                    deltas.entry(space).or_insert_with(|| vec![0; n + 1]);
                }
            }
        }
    }
    let mut out = BTreeMap::new();
    for (space, d) in deltas {
        let mut live: i128 = 0;
        let mut best: Option<Peak> = None;
        let mut callees = inner.iter().peekable();
        for (j, delta) in d.iter().take(n).enumerate() {
            live += delta;
            let mut here = Peak {
                bytes: u128::try_from(live).unwrap_or(0),
                computation: ci,
                instruction: j,
            };
            while let Some((_, peaks)) = callees.next_if(|(at, _)| *at == j) {
                // The callees of one instruction run one at a time: the largest counts.
                let base = u128::try_from(live).unwrap_or(0);
                if let Some(p) = peaks.get(&space)
                    && base + p.bytes > here.bytes
                {
                    here = Peak {
                        bytes: base + p.bytes,
                        ..*p
                    };
                }
            }
            if best.is_none_or(|b| here.bytes > b.bytes) {
                best = Some(here);
            }
        }
        if let Some(best) = best {
            out.insert(space, best);
        }
    }
    out
}

/// Each computation's role, whether it owns buffers, and its first (owning, if any) caller.
#[allow(clippy::type_complexity)]
fn roles(
    module: &Module<'_>,
    by_name: &BTreeMap<&str, usize>,
) -> (Vec<Role>, Vec<bool>, Vec<Option<(usize, usize)>>) {
    let comps = module.computations();
    let n = comps.len();
    let mut roles: Vec<Option<Role>> = vec![None; n];
    let mut owning = vec![false; n];
    let mut callers: Vec<Option<(usize, usize)>> = vec![None; n];
    roles[module.entry] = Some(Role::Entry);
    owning[module.entry] = true;
    // Callers come after their callees in the text, so a reverse sweep sees every caller of a
    // computation before the computation itself.
    for ci in (0..n).rev() {
        for (ii, ins) in comps[ci].instructions.iter().enumerate() {
            for attr in &ins.attributes {
                let role = match attr.name {
                    "condition" => Role::WhileCondition,
                    "body" => Role::WhileBody,
                    "true_computation" | "false_computation" | "branch_computations" => {
                        Role::Branch
                    }
                    "to_apply" if ins.opcode == "call" => Role::Called,
                    "calls" if ins.opcode == "async-start" => Role::Async,
                    "calls" => Role::Fused,
                    "to_apply" | "select" | "scatter" | "called_computations" => Role::Applied,
                    _ => continue,
                };
                for callee in split_names(attr.value) {
                    let Some(&k) = by_name.get(callee) else {
                        continue;
                    };
                    if k == ci {
                        continue;
                    }
                    let owns = owning[ci] && role.runs_in_sequence();
                    if roles[k].is_none() || (owns && !owning[k]) {
                        roles[k] = Some(role);
                        callers[k] = Some((ci, ii));
                    }
                    owning[k] |= owns;
                }
            }
        }
    }
    let roles = roles
        .into_iter()
        .map(|r| r.unwrap_or(Role::Unreferenced))
        .collect();
    (roles, owning, callers)
}

/// The kind of an asynchronous opcode: the generic `async-*` ones and the sugar (`fusion-start`,
/// `custom-call-done`), but not the real start/done opcodes of collectives and copies.
#[derive(Clone, Copy, PartialEq, Eq)]
enum AsyncKind {
    Start,
    Update,
    Done,
}

fn async_kind(opcode: &str) -> Option<AsyncKind> {
    const REAL: [&str; 8] = [
        "all-reduce-start",
        "all-gather-start",
        "collective-permute-start",
        "copy-start",
        "all-reduce-done",
        "all-gather-done",
        "collective-permute-done",
        "copy-done",
    ];
    if REAL.contains(&opcode) {
        None
    } else if opcode.ends_with("-start") {
        Some(AsyncKind::Start)
    } else if opcode.ends_with("-update") {
        Some(AsyncKind::Update)
    } else if opcode.ends_with("-done") && opcode != "send-done" && opcode != "recv-done" {
        Some(AsyncKind::Done)
    } else {
        None
    }
}

/// Whether an instruction defines the value at `index` of its shape (spec: XLA's
/// `InitializeInstructionValueSets`).
fn defines(opcode: &str, entry_parameter: bool, index: &[usize], node: &Shape) -> bool {
    let is_tuple = matches!(node, Shape::Tuple(_));
    match opcode {
        "bitcast" | "get-tuple-element" | "while" | "call" | "conditional" | "domain"
        | "opt-barrier" | "add-dependency" | "copy-done" | "all-reduce-done" => false,
        "parameter" => entry_parameter,
        "tuple" | "copy" => index.is_empty(),
        "copy-start" => index.first() != Some(&1),
        "all-gather-start" | "collective-permute-start" => is_tuple || index.first() != Some(&0),
        "send" | "recv-done" => index.first() != Some(&0),
        "all-gather-done" | "collective-permute-done" => index.is_empty() && is_tuple,
        _ => match async_kind(opcode) {
            Some(AsyncKind::Start) => is_tuple || index.first().is_some_and(|&i| i >= 2),
            Some(AsyncKind::Update | AsyncKind::Done) => is_tuple,
            None => true,
        },
    }
}

/// The shape an entry parameter occupies: its `entry_computation_layout` shape (which has the
/// full layout) when that has the same dimensions, else the `parameter` line's shape.
///
/// ```
/// use xla_layout::hlo::{memory::entry_parameter_shape, parse_module};
/// let text = "HloModule m, entry_computation_layout={(f32[8,3]{1,0:T(8,128)})->f32[8,3]{1,0:T(8,128)}}\n\
///             ENTRY e {\n  ROOT p = f32[8,3]{1,0} parameter(0)\n}";
/// let module = parse_module(text).unwrap();
/// let p = module.entry().root();
/// assert_eq!(entry_parameter_shape(&module, p).to_string(), "f32[8,3]{1,0:T(8,128)}");
/// ```
pub fn entry_parameter_shape<'m>(
    module: &'m Module<'_>,
    parameter: &'m Instruction<'_>,
) -> &'m Shape {
    module
        .entry_computation_layout()
        .and_then(|layout| {
            let n = usize::try_from(parameter.parameter_number?).ok()?;
            layout.parameters.get(n)
        })
        .filter(|p| same_dims(p, &parameter.shape))
        .unwrap_or(&parameter.shape)
}

/// The shape of the entry's result: the `entry_computation_layout` result when it has the
/// same dimensions as the root's shape, else the root's shape.
///
/// ```
/// use xla_layout::hlo::{memory::entry_result_shape, parse_module};
/// let text = "ENTRY e {\n  ROOT c = bf16[2]{0} constant({1, 2})\n}";
/// let module = parse_module(text).unwrap();
/// assert_eq!(entry_result_shape(&module).to_string(), "bf16[2]{0}");
/// ```
pub fn entry_result_shape<'m>(module: &'m Module<'_>) -> &'m Shape {
    let root = &module.entry().root().shape;
    module
        .entry_computation_layout()
        .map(|layout| &layout.result)
        .filter(|r| same_dims(r, root))
        .unwrap_or(root)
}

/// Pushes the buffers an instruction defines.
fn define<'m, 'a>(
    module: &'m Module<'a>,
    computation: usize,
    in_entry: bool,
    ins: &'m Instruction<'a>,
    buffers: &mut Vec<Buffer<'m, 'a>>,
) {
    let entry_parameter = in_entry && ins.opcode == "parameter";
    let shape = if entry_parameter {
        entry_parameter_shape(module, ins)
    } else {
        &ins.shape
    };
    let category = if entry_parameter {
        Category::Argument
    } else if ins.opcode == "constant" {
        Category::Constant
    } else {
        Category::Temporary
    };
    let in_place = ins.opcode == "dynamic-update-slice"
        || ins.attribute("output_to_operand_aliasing").is_some();
    for (index, node) in nodes(shape) {
        if !defines(ins.opcode, entry_parameter, &index, node) {
            continue;
        }
        let (contents, memory_space, element_type, size) = match node {
            Shape::Tuple(elements) => {
                let bytes = u64::try_from(elements.len())
                    .unwrap_or(u64::MAX)
                    .saturating_mul(TUPLE_POINTER_BYTES);
                let table = Padding {
                    unpadded_bytes: bytes,
                    bytes,
                    causes: Vec::new(),
                };
                let arity = elements.len();
                (Contents::TupleTable { arity }, 0, None, Some(table))
            }
            _ => match array_of(node) {
                Some(a) => (
                    Contents::Array(a),
                    a.layout.memory_space,
                    Some(a.element_type),
                    padding(a),
                ),
                None => continue,
            },
        };
        buffers.push(Buffer {
            computation,
            instruction: ins,
            index,
            contents,
            category,
            memory_space,
            element_type,
            padding: size,
            in_place,
            shares_argument: None,
        });
    }
}

/// Follows aliasing (bitcast, get-tuple-element, tuple, while, call, parameters of called
/// computations, async pairs) from a value to the buffer that holds it.
struct Resolver<'r, 'm, 'a> {
    comps: &'m [Computation<'a>],
    computations: &'r [ComputationMemory<'a>],
    by_name: &'r BTreeMap<&'a str, usize>,
    /// Each owning computation's instructions by name, built when first needed.
    names: Vec<OnceCell<BTreeMap<&'a str, usize>>>,
    callers: &'r [Option<(usize, usize)>],
    owning: &'r [bool],
    nested: &'r BTreeMap<*const Instruction<'a>, Range<usize>>,
    buffers: &'r [Buffer<'m, 'a>],
    /// Where whole values (index `{}`) resolved, so chains of aliases are walked once.
    memo: RefCell<BTreeMap<*const Instruction<'a>, Option<usize>>>,
}

impl<'m, 'a> Resolver<'_, 'm, 'a> {
    fn operand(
        &self,
        comp: usize,
        ins: &'m Instruction<'a>,
        k: usize,
    ) -> Option<&'m Instruction<'a>> {
        self.instruction_of(comp, &ins.operands.get(k)?)
    }

    /// The instruction an operand of an instruction of `comp` names or nests.
    fn instruction_of(&self, comp: usize, operand: &Operand<'_>) -> Option<&'m Instruction<'a>> {
        let c = &self.comps[comp];
        if operand.is_nested() {
            return c.nested_instruction(operand);
        }
        let names = self.names[comp].get_or_init(|| {
            let mut m = BTreeMap::new();
            if self.owning[comp] {
                for (i, ins) in c.instructions.iter().enumerate() {
                    m.entry(ins.name).or_insert(i);
                }
            }
            m
        });
        let &i = names.get(operand.name)?;
        Some(&c.instructions[i])
    }

    /// The buffers of `ins` (and, for a top-level instruction, of its nested operands).
    fn buffers_of(&self, comp: usize, ins: &'m Instruction<'a>) -> Option<Range<usize>> {
        // A top-level instruction's position from its address in the computation's list,
        // confirmed by identity.
        let list = &self.comps[comp].instructions;
        let offset = (ins as *const Instruction<'a> as usize).wrapping_sub(list.as_ptr() as usize);
        let i = offset / core::mem::size_of::<Instruction<'a>>().max(1);
        match list.get(i) {
            Some(top) if core::ptr::eq(top, ins) => {
                self.computations[comp].instruction_buffers.get(i).cloned()
            }
            _ => self.nested.get(&(ins as *const _)).cloned(),
        }
    }

    /// The root of the owning computation `name`.
    fn root_of(&self, name: &str) -> Option<(usize, &'m Instruction<'a>)> {
        let &c = self.by_name.get(name)?;
        self.owning[c].then(|| (c, self.comps[c].root()))
    }

    fn resolve(&self, comp: usize, ins: &'m Instruction<'a>, index: Vec<usize>) -> Option<usize> {
        let mut whole = Vec::new();
        let found = self.walk(comp, ins, index, &mut whole);
        let mut memo = self.memo.borrow_mut();
        for ins in whole {
            memo.insert(ins, found);
        }
        found
    }

    /// Follows aliases to a buffer, noting the instructions passed with index `{}`.
    fn walk(
        &self,
        mut comp: usize,
        mut ins: &'m Instruction<'a>,
        mut index: Vec<usize>,
        whole: &mut Vec<*const Instruction<'a>>,
    ) -> Option<usize> {
        for _ in 0..MAX_ALIAS_STEPS {
            if index.is_empty() {
                if let Some(&found) = self.memo.borrow().get(&(ins as *const _)) {
                    return found;
                }
                whole.push(ins);
            }
            if let Some(range) = self.buffers_of(comp, ins)
                && let Some(b) = range.clone().find(|&b| {
                    core::ptr::eq(self.buffers[b].instruction, ins)
                        && self.buffers[b].index == index
                })
            {
                return Some(b);
            }
            let (next_comp, next, next_index) = self.step(comp, ins, index)?;
            (comp, ins, index) = (next_comp, next, next_index);
        }
        None
    }

    /// One aliasing step: where the value at `index` of `ins` comes from.
    fn step(
        &self,
        comp: usize,
        ins: &'m Instruction<'a>,
        index: Vec<usize>,
    ) -> Option<(usize, &'m Instruction<'a>, Vec<usize>)> {
        let op = |k: usize| self.operand(comp, ins, k).map(|o| (comp, o));
        let prepend = |k: usize, rest: &[usize]| {
            let mut v = Vec::with_capacity(rest.len() + 1);
            v.push(k);
            v.extend_from_slice(rest);
            v
        };
        let (c, next, next_index) = match ins.opcode {
            "bitcast" | "copy" | "domain" | "add-dependency" | "opt-barrier" | "while"
            | "all-reduce-done" => {
                let (c, o) = op(0)?;
                (c, o, index)
            }
            "get-tuple-element" => {
                let k = ins.attribute("index")?.trim().parse().ok()?;
                let (c, o) = op(0)?;
                (c, o, prepend(k, &index))
            }
            "tuple" => {
                let (&first, rest) = index.split_first()?;
                let (c, o) = op(first)?;
                (c, o, rest.to_vec())
            }
            "call" => {
                let (c, root) = self.root_of(ins.to_apply()?)?;
                (c, root, index)
            }
            "conditional" => {
                let first = ins.called_computations().next()?;
                let (c, root) = self.root_of(first)?;
                (c, root, index)
            }
            "parameter" => {
                let (cc, ci) = self.callers[comp]?;
                let caller = &self.comps[cc].instructions[ci];
                let name = self.comps[comp].name;
                let k = match caller.opcode {
                    "while" => 0,
                    "conditional" => caller.called_computations().position(|c| c == name)? + 1,
                    _ => usize::try_from(ins.parameter_number?).ok()?,
                };
                (cc, self.operand(cc, caller, k)?, index)
            }
            "copy-start" | "send" => {
                let (&first, rest) = index.split_first()?;
                let k = if ins.opcode == "copy-start" { 1 } else { 0 };
                if first != k {
                    return None;
                }
                let (c, o) = op(0)?;
                (c, o, rest.to_vec())
            }
            "copy-done" | "recv-done" => {
                let (c, o) = op(0)?;
                (c, o, prepend(0, &index))
            }
            "all-gather-start" | "collective-permute-start" => {
                let (&first, rest) = index.split_first()?;
                if first != 0 {
                    return None;
                }
                if ins.operands.len() == 1 {
                    let (c, o) = op(0)?;
                    (c, o, rest.to_vec())
                } else {
                    let (&k, rest) = rest.split_first()?;
                    let (c, o) = op(k)?;
                    (c, o, rest.to_vec())
                }
            }
            "all-gather-done" | "collective-permute-done" => {
                let (c, o) = op(0)?;
                (c, o, prepend(1, &index))
            }
            opcode => match async_kind(opcode)? {
                AsyncKind::Start => {
                    let (&first, rest) = index.split_first()?;
                    match first {
                        0 => {
                            let (&k, rest) = rest.split_first()?;
                            let (c, o) = op(k)?;
                            (c, o, rest.to_vec())
                        }
                        1 => {
                            let (c, root) = self.root_of(ins.calls()?)?;
                            (c, root, rest.to_vec())
                        }
                        _ => return None,
                    }
                }
                AsyncKind::Update => {
                    let (c, o) = op(0)?;
                    (c, o, index)
                }
                AsyncKind::Done => {
                    let (c, o) = op(0)?;
                    (c, o, prepend(1, &index))
                }
            },
        };
        Some((c, next, next_index))
    }
}

/// The array of a leaf (`f32[2]` or `b(f32[2])`).
fn array_of(node: &Shape) -> Option<&ArrayShape> {
    match node {
        Shape::Array(a) => Some(a),
        Shape::Buffer(a) => Some(a),
        Shape::Tuple(_) | Shape::Token | Shape::Opaque => None,
    }
}

/// Every node of a shape (tuples and leaves) with its index, parents first, depth first,
/// without recursion.
fn nodes(shape: &Shape) -> Vec<(Vec<usize>, &Shape)> {
    if !matches!(shape, Shape::Tuple(_)) {
        return vec![(Vec::new(), shape)];
    }
    let mut out = Vec::new();
    let mut stack = vec![(Vec::new(), shape)];
    while let Some((index, node)) = stack.pop() {
        if let Shape::Tuple(elements) = node {
            for (i, e) in elements.iter().enumerate().rev() {
                let mut child = index.clone();
                child.push(i);
                stack.push((child, e));
            }
        }
        out.push((index, node));
    }
    out
}

/// The subshape at `index`.
fn subshape<'s>(shape: &'s Shape, index: &[usize]) -> Option<&'s Shape> {
    index.iter().try_fold(shape, |s, &i| match s {
        Shape::Tuple(elements) => elements.get(i),
        _ => None,
    })
}

/// Whether two shapes have the same structure, element types and dimensions (their layouts
/// may differ).
fn same_dims(a: &Shape, b: &Shape) -> bool {
    let (x, y) = (nodes(a), nodes(b));
    x.len() == y.len()
        && x.iter().zip(&y).all(|((_, p), (_, q))| match (p, q) {
            (Shape::Tuple(s), Shape::Tuple(t)) => s.len() == t.len(),
            (Shape::Token, Shape::Token) | (Shape::Opaque, Shape::Opaque) => true,
            _ => match (array_of(p), array_of(q)) {
                (Some(s), Some(t)) => s.element_type == t.element_type && s.dims == t.dims,
                _ => false,
            },
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::{String, ToString};

    use crate::hlo::parse_module;

    /// (instruction, index, category, bytes) of every buffer.
    fn buffers(text: &str) -> Vec<(String, Vec<usize>, Category, Option<u64>)> {
        let module = parse_module(text).unwrap();
        let memory = analyze(&module);
        memory
            .buffers
            .iter()
            .map(|b| {
                let name = b.instruction.name.to_string();
                let bytes = b.padding.as_ref().map(|p| p.bytes);
                (name, b.index.clone(), b.category, bytes)
            })
            .collect()
    }

    fn row(
        name: &str,
        index: &[usize],
        c: Category,
        bytes: u64,
    ) -> (String, Vec<usize>, Category, Option<u64>) {
        (name.into(), index.to_vec(), c, Some(bytes))
    }

    #[test]
    fn copy_start_owns_its_destination_and_context_and_copy_done_nothing() {
        // XLA's memory_space_assignment tests (0253.hlo): a prefetch into S(1).
        let text = "HloModule module, is_scheduled=true\nENTRY Entry {\n  \
                    param_0 = f32[1,1,1024,2048] parameter(0)\n  \
                    copy-start.1 = (f32[1,1,1024,2048]{0,1,2,3:S(1)}, f32[1,1,1024,2048], u32[]) copy-start(param_0)\n  \
                    ROOT copy-done.1 = f32[1,1,1024,2048]{0,1,2,3:S(1)} copy-done(copy-start.1)\n}";
        use Category::*;
        let mb8 = 1024 * 2048 * 4;
        assert_eq!(
            buffers(text),
            [
                row("param_0", &[], Argument, mb8),
                row("copy-start.1", &[], Temporary, 24),
                row("copy-start.1", &[0], Output, mb8),
                row("copy-start.1", &[2], Temporary, 4),
            ]
        );
        let module = parse_module(text).unwrap();
        assert_eq!(
            analyze(&module).totals.by_memory_space[&1].bytes,
            mb8 as u128
        );
    }

    #[test]
    fn collective_permute_start_aliases_its_operand() {
        // 0217.hlo: (operand, destination, u32[], u32[]) in S(1).
        let text = "HloModule Module\nENTRY e {\n  p0 = f32[2,3]{1,0:S(1)} parameter(0)\n  \
                    s = (f32[2,3]{1,0:S(1)}, f32[2,3]{1,0:S(1)}, u32[], u32[]) collective-permute-start(p0), source_target_pairs={{0,1},{1,0}}, channel_id=1\n  \
                    ROOT d = f32[2,3]{1,0:S(1)} collective-permute-done(s)\n}";
        use Category::*;
        assert_eq!(
            buffers(text),
            [
                row("p0", &[], Argument, 24),
                row("s", &[], Temporary, 32),
                row("s", &[1], Output, 24),
                row("s", &[2], Temporary, 4),
                row("s", &[3], Temporary, 4),
            ]
        );
    }

    #[test]
    fn branches_own_buffers_and_their_parameters_alias_the_operands() {
        let text = "HloModule m\n\
                    t {\n  p = f32[4]{0} parameter(0)\n  ROOT n = f32[4]{0} negate(p)\n}\n\
                    f {\n  p = f32[4]{0} parameter(0)\n  ROOT a = f32[4]{0} abs(p)\n}\n\
                    ENTRY e {\n  c = pred[] parameter(0)\n  x = f32[4]{0} parameter(1)\n  \
                    ROOT r = f32[4]{0} conditional(c, x, x), true_computation=t, false_computation=f\n}";
        use Category::*;
        assert_eq!(
            buffers(text),
            [
                row("n", &[], Output, 16),
                row("a", &[], Temporary, 16),
                row("c", &[], Argument, 1),
                row("x", &[], Argument, 16),
            ]
        );
        let module = parse_module(text).unwrap();
        let m = analyze(&module);
        assert_eq!(m.computations[0].role, Role::Branch);
        assert_eq!(m.computations[0].caller, Some("r"));
    }

    #[test]
    fn nested_constants_own_buffers_and_reducers_do_not() {
        let text = "HloModule m\n\
                    add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n\
                    ENTRY e {\n  p = f32[8]{0} parameter(0)\n  \
                    ROOT r = f32[] reduce(p, f32[] constant(0)), dimensions={0}, to_apply=add\n}";
        use Category::*;
        assert_eq!(
            buffers(text),
            [
                row("p", &[], Argument, 32),
                row("", &[], Constant, 4),
                row("r", &[], Output, 4),
            ]
        );
        let module = parse_module(text).unwrap();
        let m = analyze(&module);
        assert_eq!(
            (m.computations[0].role, m.computations[0].instructions),
            (Role::Applied, 3)
        );
        assert_eq!(m.computations[1].instructions, 3);
        assert_eq!(m.computations[1].instruction_buffers, [0..1, 1..3]);
    }

    #[test]
    fn nested_operands_define_buffers_before_their_user_and_are_followed_as_outputs() {
        // f32[2]: 8 B; f32[]: 4 B; a 2-tuple's table: 16 B. The nested add is element 1 of
        // the result, so it is an output; the constants under it are constants.
        let text = "HloModule m\n\
                    f {\n  a = f32[] parameter(0)\n  ROOT n = f32[] negate(f32[] constant(3))\n}\n\
                    ENTRY e {\n  p = f32[2]{0} parameter(0)\n  \
                    q = f32[] fusion(f32[] constant(5)), kind=kLoop, calls=f\n  \
                    ROOT t = (f32[2]{0}, f32[]) tuple(p, f32[] add(f32[] constant(1), /*c*/ f32[] constant(2)))\n}";
        use Category::*;
        let module = parse_module(text).unwrap();
        let m = analyze(&module);
        let rows: Vec<_> = m
            .buffers
            .iter()
            .map(|b| {
                let bytes = b.padding.as_ref().map(|p| p.bytes);
                (b.instruction.opcode, b.index.clone(), b.category, bytes)
            })
            .collect();
        let row = |o, index: &[usize], c, bytes| (o, index.to_vec(), c, Some(bytes));
        assert_eq!(
            rows,
            [
                row("parameter", &[], Argument, 8),
                row("constant", &[], Constant, 4),
                row("fusion", &[], Temporary, 4),
                row("constant", &[], Constant, 4),
                row("constant", &[], Constant, 4),
                row("add", &[], Output, 4),
                row("tuple", &[], Output, 16),
            ]
        );
        let literals: Vec<_> = m
            .buffers
            .iter()
            .filter_map(|b| b.instruction.literal)
            .collect();
        assert_eq!(literals, ["5", "1", "2"]);
        // The fusion body counts its nested constant but owns nothing.
        assert_eq!(
            (
                m.computations[0].instructions,
                m.computations[0].buffers.len()
            ),
            (3, 0)
        );
        assert_eq!(m.computations[1].instructions, 7);
        assert_eq!(m.computations[1].instruction_buffers, [0..1, 1..3, 3..7]);
    }

    #[test]
    fn a_while_body_adds_its_peak_at_the_while() {
        let text = "HloModule m\n\
                    body {\n  p = (s32[], f32[1024]{0}) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n  \
                    x = f32[1024]{0} get-tuple-element(p), index=1\n  y = f32[1024]{0} negate(x)\n  \
                    z = f32[1024]{0} abs(y)\n  ROOT t = (s32[], f32[1024]{0}) tuple(i, z)\n}\n\
                    cond {\n  p = (s32[], f32[1024]{0}) parameter(0)\n  ROOT c = pred[] constant(true)\n}\n\
                    ENTRY e {\n  a = f32[1024]{0} parameter(0)\n  z0 = s32[] constant(0)\n  \
                    t = (s32[], f32[1024]{0}) tuple(z0, a)\n  \
                    w = (s32[], f32[1024]{0}) while(t), condition=cond, body=body\n  \
                    ROOT r = f32[1024]{0} get-tuple-element(w), index=1\n}";
        let module = parse_module(text).unwrap();
        let memory = analyze(&module);
        // body: y lives from 3 to its use at 4, z from 4 to the root: 2 x 4096 B at z.
        let body = memory.computations[0].peaks[&0];
        assert_eq!(
            (body.bytes, body.computation, body.instruction),
            (8192, 0, 4)
        );
        // entry: t's table (16 B) is live at the while, which adds the body's peak; the
        // argument and the constants are not part of the peak.
        assert_eq!(
            memory.peaks[&0],
            Peak {
                bytes: 8192 + 16,
                ..body
            }
        );
    }

    #[test]
    fn async_sugar_owns_the_context_only() {
        let text = "HloModule m\nENTRY e {\n  p = f32[4]{0} parameter(0)\n  \
                    s = ((f32[4]{0}), f32[4]{0}, s32[]) custom-call-start(p), custom_call_target=\"foo\"\n  \
                    ROOT d = f32[4]{0} custom-call-done(s)\n}";
        use Category::*;
        assert_eq!(
            buffers(text),
            [
                row("p", &[], Argument, 16),
                row("s", &[], Temporary, 24),
                row("s", &[0], Temporary, 8),
                row("s", &[2], Temporary, 4),
            ]
        );
    }
}
