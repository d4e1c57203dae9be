//! Traversal in logical and in memory order, in time and memory proportional to the elements
//! visited, never to the padding.
//!
//! The offset of an element is a sum over *groups* of physical dimensions: dimensions that
//! `*` merges (directly or through later tiles) form one group, every other dimension is a
//! group of its own, and each expanded (tiled) coordinate depends on exactly one group. So
//! `offset = Σ_g forward_g[c_g]`, where `c_g` is the row-major coordinate within the group.
//! Small per-group tables, built once per traversal, turn every logical step into an
//! odometer tick. In memory order, each group keeps the sorted list of the expanded
//! coordinates ("local ids") that hold one of its elements, and the walk jumps from one
//! element to the next with a binary search, over any run of padding.
//!
//! Groups larger than [`TABLE_CAP`] elements in total, or whose tables would cost more than
//! [`TABLE_WORK`] (many tiling steps), get no tables: the walk then computes
//! each offset with [`Plan::offset`] (logical order), or finds the next slot that holds an
//! element by bounds over the expanded coordinates, skipping runs of padding in a few tests
//! per coordinate (memory order, see `seek`).

use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;

use crate::index::Plan;
use crate::index::seek::next_element;
use crate::model::tiling::Step;

/// The most table entries (summed over groups) a traversal builds; past it, it computes
/// offsets one by one instead.
const TABLE_CAP: usize = 1 << 20;

/// The most work (table entries × tiling steps, each entry being one [`Plan::offset`]) a
/// traversal spends on tables, so that layouts with many tiles do not pay for every element
/// before the first is visited.
const TABLE_WORK: usize = 1 << 23;

/// One group of physical dimensions and its tables.
#[derive(Clone, Debug)]
struct Group {
    /// Logical dimensions of the group, in physical order (major to minor).
    dims: Vec<usize>,
    /// Row-major strides of the group's dimensions within the group coordinate.
    strides: Vec<usize>,
    /// Sizes of the group's dimensions.
    extents: Vec<usize>,
    /// Offset contribution of each group coordinate.
    forward: Vec<usize>,
    /// Expanded positions that depend on this group, major first, with their stride in the
    /// group's local ids and their size.
    positions: Vec<(usize, usize, usize)>,
    /// `(local id, group coordinate)` of every element of the group, sorted by local id.
    valid: Vec<(usize, usize)>,
}

/// The groups of a plan. Expanded positions that depend on no dimension (from a tile of
/// higher rank than the array) belong to no group and hold data only at 0.
#[derive(Clone, Debug)]
struct Groups {
    groups: Vec<Group>,
    /// For each logical dimension: its group and stride within the group coordinate.
    dim_group: Vec<(usize, usize)>,
}

fn find(parent: &mut [usize], x: usize) -> usize {
    let mut r = x;
    while parent[r] != r {
        r = parent[r];
    }
    parent[x] = r;
    r
}

impl Groups {
    /// The groups with their tables (`valid` lists only `with_valid`), or `None` when the
    /// tables would hold more than [`TABLE_CAP`] entries.
    fn new(plan: &Plan, with_valid: bool) -> Option<Groups> {
        let rank = plan.physical.len();
        // Which physical positions each working entry depends on, through every step.
        let mut deps: Vec<u64> = (0..rank).map(|p| 1u64 << p).collect();
        for step in &plan.steps {
            match step {
                Step::Pad { by } => {
                    deps.splice(0..0, core::iter::repeat_n(0, *by));
                }
                Step::Combine { at, .. } => {
                    let merged = deps[*at] | deps[*at + 1];
                    deps[*at + 1] = merged;
                    deps.remove(*at);
                }
                Step::Tile { start, .. } => {
                    let inner: Vec<u64> = deps[*start..].to_vec();
                    deps.extend(inner);
                }
            }
        }
        let mut parent: Vec<usize> = (0..rank).collect();
        for &mask in &deps {
            if mask != 0 {
                let first = mask.trailing_zeros() as usize;
                for p in 0..rank {
                    if mask & (1 << p) != 0 {
                        let (a, b) = (find(&mut parent, first), find(&mut parent, p));
                        parent[b] = a;
                    }
                }
            }
        }
        let mut roots: Vec<usize> = Vec::new();
        let mut members: Vec<Vec<usize>> = Vec::new();
        for p in 0..rank {
            let r = find(&mut parent, p);
            match roots.iter().position(|&x| x == r) {
                Some(g) => members[g].push(p),
                None => {
                    roots.push(r);
                    members.push(vec![p]);
                }
            }
        }
        // The tables hold one entry per element of each group: check the total first.
        let mut total = 0usize;
        for positions in &members {
            let size = positions.iter().try_fold(1usize, |acc, &p| {
                acc.checked_mul(plan.dims[plan.physical[p]])
            })?;
            total = total.checked_add(size).filter(|&t| t <= TABLE_CAP)?;
        }
        if total.saturating_mul(plan.steps.len() + 1) > TABLE_WORK {
            return None;
        }
        let mut dim_group = vec![(0, 0); rank];
        let mut groups = Vec::with_capacity(members.len());
        for (g, positions) in members.iter().enumerate() {
            let dims: Vec<usize> = positions.iter().map(|&p| plan.physical[p]).collect();
            let mut strides = vec![1usize; dims.len()];
            // Within the table cap unless a dimension of the group is 0 (no elements, no walk).
            for k in (0..dims.len().saturating_sub(1)).rev() {
                strides[k] = strides[k + 1].saturating_mul(plan.dims[dims[k + 1]]);
            }
            for (&d, &s) in dims.iter().zip(&strides) {
                dim_group[d] = (g, s);
            }
            let group_mask: u64 = positions.iter().map(|&p| 1u64 << p).sum();
            let mut expanded: Vec<(usize, usize, usize)> = deps
                .iter()
                .enumerate()
                .filter(|&(_, &m)| m != 0 && m & group_mask == m)
                .map(|(j, _)| (j, 0, plan.expanded[j]))
                .collect();
            // Local ids are below the product of the sizes, itself at most the slot count.
            let mut local = 1usize;
            for e in expanded.iter_mut().rev() {
                e.1 = local;
                local = local.saturating_mul(e.2);
            }
            groups.push(Group {
                extents: dims.iter().map(|&d| plan.dims[d]).collect(),
                dims,
                strides,
                forward: Vec::new(),
                positions: expanded,
                valid: Vec::new(),
            });
        }
        let mut groups = Groups { groups, dim_group };
        if plan.elements() > 0 {
            groups.fill_tables(plan, with_valid);
        }
        Some(groups)
    }

    /// Fills `forward` (and `valid`) by enumerating each group's coordinates once.
    fn fill_tables(&mut self, plan: &Plan, with_valid: bool) {
        let mut index = vec![0; plan.dims.len()];
        for group in &mut self.groups {
            let size: usize = group.dims.iter().map(|&d| plan.dims[d]).product();
            group.forward = Vec::with_capacity(size);
            if with_valid {
                group.valid = Vec::with_capacity(size);
            }
            for c in 0..size {
                for (&d, &s) in group.dims.iter().zip(&group.strides) {
                    index[d] = (c / s) % plan.dims[d];
                }
                let offset = plan.offset(&index);
                group.forward.push(offset);
                if with_valid {
                    let local: usize = group
                        .positions
                        .iter()
                        .map(|&(j, r, size)| (offset / plan.strides[j]) % size * r)
                        .sum();
                    group.valid.push((local, c));
                }
            }
            group.valid.sort_unstable();
            for &d in &group.dims {
                index[d] = 0;
            }
        }
    }
}

/// The logical row-major index of `index`, by `dims`.
fn row_major(index: &[usize], dims: &[usize]) -> usize {
    index.iter().zip(dims).fold(0, |acc, (&i, &d)| acc * d + i)
}

/// Steps a logical index in row-major order (last dimension fastest).
fn odometer(index: &mut [usize], dims: &[usize]) {
    for d in (0..dims.len()).rev() {
        if index[d] + 1 < dims[d] {
            index[d] += 1;
            return;
        }
        index[d] = 0;
    }
}

/// Offsets of every element in logical row-major order (last dimension fastest), from
/// [`Plan::logical_offsets`].
///
/// ```
/// let p = xla_layout::Plan::new(&xla_layout::parse_array("f32[2,3]{0,1}").unwrap()).unwrap();
/// let offsets: Vec<usize> = p.logical_offsets().collect();
/// assert_eq!(offsets, [0, 2, 4, 1, 3, 5]);
/// ```
#[derive(Clone, Debug)]
pub struct LogicalOffsets {
    walk: LogicalWalk,
    dims: Vec<usize>,
    index: Vec<usize>,
    remaining: usize,
}

/// How [`LogicalOffsets`] finds each offset.
#[derive(Clone, Debug)]
enum LogicalWalk {
    /// Table loads and additions, with the group coordinates and the current offset.
    Tables {
        groups: Groups,
        coords: Vec<usize>,
        offset: usize,
    },
    /// [`Plan::offset`] of each index (groups too large for tables).
    Direct(Box<Plan>),
}

impl Iterator for LogicalOffsets {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let (groups, coords, offset) = match &mut self.walk {
            LogicalWalk::Direct(plan) => {
                let current = plan.offset(&self.index);
                if self.remaining > 0 {
                    odometer(&mut self.index, &self.dims);
                }
                return Some(current);
            }
            LogicalWalk::Tables {
                groups,
                coords,
                offset,
            } => (groups, coords, offset),
        };
        let current = *offset;
        if self.remaining == 0 {
            return Some(current);
        }
        // Odometer: bump the last dimension, carrying into earlier ones.
        for d in (0..self.dims.len()).rev() {
            let (g, stride) = groups.dim_group[d];
            let table = &groups.groups[g].forward;
            let old = coords[g];
            if self.index[d] + 1 < self.dims[d] {
                self.index[d] += 1;
                coords[g] = old + stride;
                *offset = *offset - table[old] + table[old + stride];
                break;
            }
            let back = (self.dims[d] - 1) * stride;
            self.index[d] = 0;
            coords[g] = old - back;
            *offset = *offset - table[old] + table[old - back];
        }
        Some(current)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for LogicalOffsets {}

/// Every element slot in memory order that holds an element (padding skipped), as
/// `(offset, logical row-major linear index)`, from [`Plan::memory_order`].
///
/// ```
/// let p = xla_layout::Plan::new(&xla_layout::parse_array("f32[3,5]{1,0:T(2,2)}").unwrap()).unwrap();
/// let first: Vec<(usize, usize)> = p.memory_order().take(5).collect();
/// // Offsets 0,1,2,3 hold (0,0),(0,1),(1,0),(1,1); offset 4 holds (0,2).
/// assert_eq!(first, [(0, 0), (1, 1), (2, 5), (3, 6), (4, 2)]);
/// ```
#[derive(Clone, Debug)]
pub struct MemoryOrder {
    walk: MemoryWalk,
    dims: Vec<usize>,
    /// The logical index of the element returned next (kept by the walks that need it).
    index: Vec<usize>,
}

/// How [`MemoryOrder`] finds each element.
#[derive(Clone, Debug)]
enum MemoryWalk {
    /// Every slot holds an element and every expanded coordinate steps one logical dimension
    /// by a fixed amount: a direct odometer.
    Fast(Fast),
    /// Per group, the sorted local ids of its elements; `current[g]` is the entry of the
    /// element returned next, `None` once done.
    Jump {
        groups: Groups,
        current: Option<Vec<usize>>,
        /// For each expanded position: its group and the index of the position in it.
        position: Vec<Option<(usize, usize)>>,
    },
    /// The next slot that holds an element, found by bounds over the expanded coordinates,
    /// and its [`Plan::index_of`] (groups too large for tables).
    Slots { plan: Box<Plan>, offset: usize },
}

/// The direct odometer of a layout in which every slot holds an element and every expanded
/// coordinate steps one logical dimension by a fixed amount.
#[derive(Clone, Debug)]
struct Fast {
    /// For each expanded position: the logical dimension it steps and by how much.
    steps: Vec<(usize, usize)>,
    expanded: Vec<usize>,
    digits: Vec<usize>,
    offset: usize,
    end: usize,
}

impl Fast {
    fn new(plan: &Plan) -> Option<Fast> {
        let combines = plan.steps.iter().any(|s| matches!(s, Step::Combine { .. }));
        if combines || plan.tiled_elements != plan.elements() || plan.elements() == 0 {
            return None;
        }
        let steps = plan
            .expanded
            .iter()
            .zip(&plan.strides)
            .map(|(&size, &stride)| {
                if size == 1 {
                    return Some((0, 0));
                }
                let step = plan.index_of(stride)?;
                let mut moved = step.iter().enumerate().filter(|(_, w)| **w > 0);
                let (d, &w) = moved.next()?;
                moved.next().is_none().then_some((d, w))
            })
            .collect::<Option<_>>()?;
        Some(Fast {
            steps,
            expanded: plan.expanded.clone(),
            digits: vec![0; plan.expanded.len()],
            offset: 0,
            end: plan.tiled_elements,
        })
    }

    /// Moves to the next slot, updating `index`.
    fn advance(&mut self, index: &mut [usize]) {
        self.offset += 1;
        for j in (0..self.expanded.len()).rev() {
            let (d, w) = self.steps[j];
            if self.digits[j] + 1 < self.expanded[j] {
                self.digits[j] += 1;
                index[d] += w;
                return;
            }
            // A size-1 position (w == 0) never moves anything.
            if w > 0 {
                index[d] -= (self.expanded[j] - 1) * w;
            }
            self.digits[j] = 0;
        }
    }
}

impl Group {
    /// The local id of the group's element at entry `e` of `valid`.
    fn local(&self, e: usize) -> usize {
        self.valid[e].0
    }

    /// The first entry of `valid` at or after local id `key`.
    fn lower_bound(&self, key: usize) -> usize {
        self.valid.partition_point(|&(l, _)| l < key)
    }

    /// The span of local ids that positions `k..` of the group cover.
    fn block(&self, k: usize) -> usize {
        let (_, r, size) = self.positions[k];
        r * size
    }
}

impl MemoryOrder {
    fn new(plan: &Plan) -> MemoryOrder {
        let dims = plan.dims.clone();
        let mut index = vec![0; dims.len()];
        if let Some(fast) = Fast::new(plan) {
            return MemoryOrder {
                walk: MemoryWalk::Fast(fast),
                dims,
                index,
            };
        }
        let walk = match Groups::new(plan, true) {
            Some(groups) => {
                let mut position = vec![None; plan.expanded.len()];
                for (g, group) in groups.groups.iter().enumerate() {
                    for (k, &(j, _, _)) in group.positions.iter().enumerate() {
                        position[j] = Some((g, k));
                    }
                }
                let empty = plan.elements() == 0;
                let walk = MemoryWalk::Jump {
                    current: (!empty).then(|| vec![0; groups.groups.len()]),
                    groups,
                    position,
                };
                walk.write_index(&mut index);
                walk
            }
            None => {
                let mut walk = MemoryWalk::Slots {
                    plan: Box::new(plan.clone()),
                    offset: 0,
                };
                walk.seek_element(&mut index);
                walk
            }
        };
        MemoryOrder { walk, dims, index }
    }
}

impl MemoryWalk {
    /// The offset of the element returned next, if any.
    fn offset(&self) -> Option<usize> {
        match self {
            MemoryWalk::Fast(f) => (f.offset < f.end).then_some(f.offset),
            MemoryWalk::Jump {
                groups, current, ..
            } => current.as_ref().map(|current| {
                groups
                    .groups
                    .iter()
                    .zip(current)
                    .map(|(g, &e)| g.forward[g.valid[e].1])
                    .sum()
            }),
            MemoryWalk::Slots { plan, offset } => {
                (*offset < plan.tiled_elements).then_some(*offset)
            }
        }
    }

    /// Writes the logical index of the current element of a `Jump` walk into `index`.
    fn write_index(&self, index: &mut [usize]) {
        if let MemoryWalk::Jump {
            groups,
            current: Some(current),
            ..
        } = self
        {
            for (group, &e) in groups.groups.iter().zip(current) {
                let c = group.valid[e].1;
                for ((&d, &s), &n) in group.dims.iter().zip(&group.strides).zip(&group.extents) {
                    index[d] = c / s % n;
                }
            }
        }
    }

    /// Moves a `Slots` walk to the first element at or after its offset, jumping over
    /// padding.
    fn seek_element(&mut self, index: &mut [usize]) {
        if let MemoryWalk::Slots { plan, offset } = self {
            match next_element(plan, *offset).and_then(|o| Some((o, plan.index_of(o)?))) {
                Some((o, i)) => {
                    *offset = o;
                    index.copy_from_slice(&i);
                }
                None => *offset = plan.tiled_elements,
            }
        }
    }

    /// Moves to the next element, updating `index`.
    fn advance(&mut self, index: &mut [usize]) {
        match self {
            MemoryWalk::Fast(f) => f.advance(index),
            MemoryWalk::Slots { offset, .. } => {
                *offset += 1;
                self.seek_element(index);
            }
            MemoryWalk::Jump {
                groups,
                current,
                position,
            } => {
                let Some(cur) = current else {
                    return;
                };
                if !jump(groups, cur, position) {
                    *current = None;
                }
                self.write_index(index);
            }
        }
    }
}

/// Moves `current` to the next element in memory order: the most minor expanded position
/// whose group has another element with the same more-major coordinates takes the next such
/// value, and every more minor position restarts at its group's first element. False at the
/// end.
fn jump(groups: &Groups, current: &mut [usize], position: &[Option<(usize, usize)>]) -> bool {
    for j in (0..position.len()).rev() {
        let Some((g, k)) = position[j] else {
            continue;
        };
        let group = &groups.groups[g];
        let (_, r, size) = group.positions[k];
        let local = group.local(current[g]);
        let digit = local / r % size;
        if digit + 1 == size {
            continue;
        }
        let block = group.block(k);
        let prefix = local - local % block;
        let e = group.lower_bound(prefix + (digit + 1) * r);
        if e == group.valid.len() || group.local(e) >= prefix + block {
            continue;
        }
        current[g] = e;
        // Every other group restarts its positions after `j` at its first element with the
        // same coordinates up to `j`.
        for (h, other) in groups.groups.iter().enumerate() {
            if h == g {
                continue;
            }
            let Some(first_after) = other.positions.iter().position(|&(p, _, _)| p > j) else {
                continue;
            };
            let local = other.local(current[h]);
            let block = other.block(first_after);
            current[h] = other.lower_bound(local - local % block);
        }
        return true;
    }
    false
}

impl MemoryOrder {
    /// Like [`next`](Iterator::next), but writes the element's logical multi-index into
    /// `index` (one entry per dimension) and returns its offset.
    ///
    /// ```
    /// let p = xla_layout::Plan::new(&xla_layout::parse_array("f32[2,3]{0,1}").unwrap()).unwrap();
    /// let mut order = p.memory_order();
    /// let mut index = [0; 2];
    /// assert_eq!(order.next_with_index(&mut index), Some(0));
    /// assert_eq!(order.next_with_index(&mut index), Some(1));
    /// assert_eq!(index, [1, 0]);
    /// ```
    pub fn next_with_index(&mut self, index: &mut [usize]) -> Option<usize> {
        let offset = self.walk.offset()?;
        index.copy_from_slice(&self.index);
        self.walk.advance(&mut self.index);
        Some(offset)
    }
}

impl Iterator for MemoryOrder {
    type Item = (usize, usize);

    fn next(&mut self) -> Option<(usize, usize)> {
        let offset = self.walk.offset()?;
        let linear = row_major(&self.index, &self.dims);
        self.walk.advance(&mut self.index);
        Some((offset, linear))
    }
}

impl Plan {
    /// Offsets of every element in logical row-major order (the last dimension fastest),
    /// computed with additions and table loads only, not a division per element.
    ///
    /// ```
    /// let a = xla_layout::parse_array("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// let p = xla_layout::Plan::new(&a).unwrap();
    /// let grid: Vec<usize> = p.logical_offsets().collect();
    /// assert_eq!(grid, [0, 1, 4, 5, 8, 2, 3, 6, 7, 10, 12, 13, 16, 17, 20]);
    /// ```
    pub fn logical_offsets(&self) -> LogicalOffsets {
        let walk = match Groups::new(self, false) {
            Some(groups) => LogicalWalk::Tables {
                coords: vec![0; groups.groups.len()],
                offset: groups
                    .groups
                    .iter()
                    .map(|g| g.forward.first().copied().unwrap_or(0))
                    .sum(),
                groups,
            },
            None => LogicalWalk::Direct(Box::new(self.clone())),
        };
        LogicalOffsets {
            walk,
            dims: self.dims.clone(),
            index: vec![0; self.dims.len()],
            remaining: self.elements(),
        }
    }

    /// The slots that hold elements, in memory order, as `(offset, logical row-major linear
    /// index)`; padding slots are skipped. Additions and table loads only per slot.
    ///
    /// ```
    /// let a = xla_layout::parse_array("f32[2,3]{0,1}").unwrap();
    /// let p = xla_layout::Plan::new(&a).unwrap();
    /// // The seed document's `a d b e c f`: logical a..f are 0..5.
    /// let order: Vec<usize> = p.memory_order().map(|(_, logical)| logical).collect();
    /// assert_eq!(order, [0, 3, 1, 4, 2, 5]);
    /// ```
    pub fn memory_order(&self) -> MemoryOrder {
        MemoryOrder::new(self)
    }
}
