//! Traversal in logical and in memory order, stepping with additions and table loads only.
//!
//! The offset of an element is a sum over *groups* of physical dimensions: dimensions that
//! `*` merges (directly or through later tiles) form one group, every other dimension is a
//! group of its own, and each expanded (tiled) coordinate depends on exactly one group. So
//! `offset = Σ_g forward_g[c_g]`, where `c_g` is the row-major coordinate within the group.
//! Small per-group tables, built once per traversal, turn every step into an odometer tick.

use alloc::vec;
use alloc::vec::Vec;

use crate::index::Plan;
use crate::model::tiling::Step;

/// Marks a slot of an inverse table that holds padding.
const PADDING: usize = usize::MAX;

/// One group of physical dimensions and its tables.
#[derive(Clone, Debug)]
struct Group {
    /// Logical dimensions of the group, in physical order (major to minor).
    dims: Vec<usize>,
    /// Row-major strides of the group's dimensions within the group coordinate.
    strides: Vec<usize>,
    /// Offset contribution of each group coordinate.
    forward: Vec<usize>,
    /// Expanded positions that depend on this group, with their strides in `local` ids.
    expanded: Vec<(usize, usize)>,
    /// Group coordinate of each local expanded id, or `PADDING`.
    inverse: Vec<usize>,
}

impl Group {
    fn size(&self) -> usize {
        self.forward.len()
    }
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
    fn new(plan: &Plan) -> Groups {
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
        let mut dim_group = vec![(0, 0); rank];
        let mut groups = Vec::with_capacity(members.len());
        for (g, positions) in members.iter().enumerate() {
            let dims: Vec<usize> = positions.iter().map(|&p| plan.physical[p]).collect();
            let mut strides = vec![1; dims.len()];
            for k in (0..dims.len().saturating_sub(1)).rev() {
                strides[k] = strides[k + 1] * plan.dims[dims[k + 1]];
            }
            for (&d, &s) in dims.iter().zip(&strides) {
                dim_group[d] = (g, s);
            }
            let group_mask: u64 = positions.iter().map(|&p| 1u64 << p).sum();
            let mut expanded: Vec<(usize, usize)> = deps
                .iter()
                .enumerate()
                .filter(|&(_, &m)| m != 0 && m & group_mask == m)
                .map(|(j, _)| (j, 0))
                .collect();
            let mut local = 1;
            for e in expanded.iter_mut().rev() {
                e.1 = local;
                local *= plan.expanded[e.0];
            }
            groups.push(Group {
                dims,
                strides,
                forward: Vec::new(),
                expanded,
                inverse: vec![PADDING; local],
            });
        }
        let mut groups = Groups { groups, dim_group };
        if plan.elements() > 0 {
            groups.fill_tables(plan);
        }
        groups
    }

    /// Fills `forward` and `inverse` by enumerating each group's coordinates once.
    fn fill_tables(&mut self, plan: &Plan) {
        let mut index = vec![0; plan.dims.len()];
        for group in &mut self.groups {
            let size: usize = group.dims.iter().map(|&d| plan.dims[d]).product();
            group.forward = Vec::with_capacity(size);
            for c in 0..size {
                for (&d, &s) in group.dims.iter().zip(&group.strides) {
                    index[d] = (c / s) % plan.dims[d];
                }
                let offset = plan.offset(&index);
                group.forward.push(offset);
                let local: usize = group
                    .expanded
                    .iter()
                    .map(|&(j, r)| (offset / plan.strides[j]) % plan.expanded[j] * r)
                    .sum();
                group.inverse[local] = c;
            }
            for &d in &group.dims {
                index[d] = 0;
            }
        }
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
    groups: Groups,
    dims: Vec<usize>,
    index: Vec<usize>,
    coords: Vec<usize>,
    offset: usize,
    remaining: usize,
}

impl Iterator for LogicalOffsets {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let current = self.offset;
        // Odometer: bump the last dimension, carrying into earlier ones.
        for d in (0..self.dims.len()).rev() {
            let (g, stride) = self.groups.dim_group[d];
            let table = &self.groups.groups[g].forward;
            let old = self.coords[g];
            if self.index[d] + 1 < self.dims[d] {
                self.index[d] += 1;
                self.coords[g] = old + stride;
                self.offset = self.offset - table[old] + table[old + stride];
                break;
            }
            let back = (self.dims[d] - 1) * stride;
            self.index[d] = 0;
            self.coords[g] = old - back;
            self.offset = self.offset - table[old] + table[old - back];
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
    groups: Groups,
    expanded: Vec<usize>,
    /// For each expanded position: its group (or `None` when free) and local stride.
    position: Vec<(Option<usize>, usize)>,
    /// Logical row-major linear-index contribution of each group coordinate, per group.
    linear: Vec<Vec<usize>>,
    /// Each group coordinate split into its dimensions' indices, per group.
    split: Vec<Vec<usize>>,
    local: Vec<usize>,
    /// Group coordinates of the element returned last.
    current_coords: Vec<usize>,
    digits: Vec<usize>,
    free_nonzero: usize,
    offset: usize,
    end: usize,
    /// For layouts with no padding slot and no `*`: the index kept up to date directly.
    fast: Option<Fast>,
}

/// The direct odometer of a layout in which every slot holds an element and every expanded
/// coordinate steps one logical dimension by a fixed amount.
#[derive(Clone, Debug)]
struct Fast {
    /// For each expanded position: the logical dimension it steps, by how much, and the
    /// matching step of the row-major linear index.
    steps: Vec<(usize, usize, usize)>,
    index: Vec<usize>,
    linear: usize,
}

impl Fast {
    fn new(plan: &Plan, row_major: &[usize]) -> Option<Fast> {
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
                    return Some((0, 0, 0));
                }
                let step = plan.index_of(stride)?;
                let mut moved = step.iter().enumerate().filter(|(_, w)| **w > 0);
                let (d, &w) = moved.next()?;
                moved.next().is_none().then_some((d, w, w * row_major[d]))
            })
            .collect::<Option<_>>()?;
        Some(Fast {
            steps,
            index: vec![0; plan.dims.len()],
            linear: 0,
        })
    }
}

impl MemoryOrder {
    fn new(plan: &Plan) -> MemoryOrder {
        let groups = Groups::new(plan);
        let mut position = vec![(None, 0); plan.expanded.len()];
        for (g, group) in groups.groups.iter().enumerate() {
            for &(j, r) in &group.expanded {
                position[j] = (Some(g), r);
            }
        }
        let mut row_major = vec![1; plan.dims.len()];
        for d in (0..plan.dims.len().saturating_sub(1)).rev() {
            row_major[d] = row_major[d + 1] * plan.dims[d + 1];
        }
        let linear = groups
            .groups
            .iter()
            .map(|g| {
                (0..g.size())
                    .map(|c| {
                        g.dims
                            .iter()
                            .zip(&g.strides)
                            .map(|(&d, &s)| (c / s) % plan.dims[d] * row_major[d])
                            .sum()
                    })
                    .collect()
            })
            .collect();
        let split = groups
            .groups
            .iter()
            .map(|g| {
                (0..g.size())
                    .flat_map(|c| {
                        g.dims
                            .iter()
                            .zip(&g.strides)
                            .map(move |(&d, &s)| (c / s) % plan.dims[d])
                    })
                    .collect()
            })
            .collect();
        let empty = plan.elements() == 0;
        let fast = Fast::new(plan, &row_major);
        MemoryOrder {
            fast,
            split,
            local: vec![0; groups.groups.len()],
            current_coords: vec![0; groups.groups.len()],
            groups,
            expanded: plan.expanded.clone(),
            digits: vec![0; plan.expanded.len()],
            position,
            linear,
            free_nonzero: 0,
            offset: 0,
            end: if empty { 0 } else { plan.tiled_elements },
        }
    }

    /// The item at the current slot (recording its group coordinates), or `None` for
    /// padding.
    fn current(&mut self) -> Option<(usize, usize)> {
        if let Some(f) = &self.fast {
            return Some((self.offset, f.linear));
        }
        if self.free_nonzero > 0 {
            return None;
        }
        let mut linear = 0;
        for (g, group) in self.groups.groups.iter().enumerate() {
            let c = group.inverse[self.local[g]];
            if c == PADDING {
                return None;
            }
            self.current_coords[g] = c;
            linear += self.linear[g][c];
        }
        Some((self.offset, linear))
    }

    /// Odometer tick over the expanded coordinates, updating the groups' local ids.
    fn advance(&mut self) {
        self.offset += 1;
        for j in (0..self.expanded.len()).rev() {
            let (group, r) = self.position[j];
            let wraps = self.digits[j] + 1 == self.expanded[j];
            if let Some(f) = &mut self.fast {
                let (d, w, l) = f.steps[j];
                let back = self.expanded[j] - 1;
                // A size-1 position (w == 0) never moves anything.
                if w > 0 && wraps {
                    f.index[d] -= back * w;
                    f.linear -= back * l;
                } else if w > 0 {
                    f.index[d] += w;
                    f.linear += l;
                }
            } else {
                match group {
                    Some(g) if wraps => self.local[g] -= (self.expanded[j] - 1) * r,
                    Some(g) => self.local[g] += r,
                    None if wraps => self.free_nonzero -= usize::from(self.digits[j] > 0),
                    None => self.free_nonzero += usize::from(self.digits[j] == 0),
                }
            }
            if wraps {
                self.digits[j] = 0;
            } else {
                self.digits[j] += 1;
                return;
            }
        }
    }
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
        if let Some(f) = &self.fast {
            if self.offset >= self.end {
                return None;
            }
            index.copy_from_slice(&f.index);
            let offset = self.offset;
            self.advance();
            return Some(offset);
        }
        let (offset, _) = self.next()?;
        for (g, group) in self.groups.groups.iter().enumerate() {
            let c = self.current_coords[g];
            let coords = &self.split[g][c * group.dims.len()..(c + 1) * group.dims.len()];
            for (&d, &x) in group.dims.iter().zip(coords) {
                index[d] = x;
            }
        }
        Some(offset)
    }
}

impl Iterator for MemoryOrder {
    type Item = (usize, usize);

    fn next(&mut self) -> Option<(usize, usize)> {
        while self.offset < self.end {
            let item = self.current();
            self.advance();
            if item.is_some() {
                return item;
            }
        }
        None
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
        let groups = Groups::new(self);
        let remaining = self.elements();
        LogicalOffsets {
            coords: vec![0; groups.groups.len()],
            groups,
            dims: self.dims.clone(),
            index: vec![0; self.dims.len()],
            offset: 0,
            remaining,
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
