//! The typed path into the relayout engine and the index plans of static layouts: `copy`
//! for `Tensor::copy_from`, with the copy plans of static layout pairs built on first use and
//! kept for the rest of the program, and `plan`, the index plan a tensor's traversals walk,
//! kept the same way for static layouts (building one parses the layout's text and compiles
//! it: about a microsecond, which a traversal of a 4 KiB tensor took several times over).
//! Each is a fixed table of lock-free lists keyed by the layout types' `TypeId`. Entries are
//! never removed; there is one per layout type or pair of them the program uses (two if two
//! threads build the same one at once).
#![allow(unsafe_code)]

use alloc::borrow::Cow;
use alloc::boxed::Box;
use core::any::TypeId;
use core::hash::{Hash, Hasher};
use core::ptr;
use core::sync::atomic::{AtomicPtr, Ordering};

use super::relayout::CopyPlan;
use super::words;
use crate::index::Plan;
use crate::model::ArrayShape;
use crate::typed::{Layout, Static};

struct Entry<T> {
    key: TypeId,
    value: T,
    /// The entry published before this one in its bucket, or null.
    next: *mut Entry<T>,
}

/// A power of two.
const BUCKETS: usize = 64;

/// Values of type `T` built once per key and kept.
struct Table<T>([AtomicPtr<Entry<T>>; BUCKETS]);

impl<T> Table<T> {
    const fn new() -> Table<T> {
        Table([const { AtomicPtr::new(ptr::null_mut()) }; BUCKETS])
    }
}

/// The copy plans of pairs of static layouts, keyed by `(destination, source)`.
static COPIES: Table<CopyPlan> = Table::new();

/// The index plans of static layouts.
static PLANS: Table<Plan> = Table::new();

/// FNV-1a, to spread `TypeId`s over the buckets.
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    // A `TypeId` hashes as whole integers: one step each rather than one per byte (a copy of
    // a 4 KiB tensor looks its plan up every time).
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x).wrapping_mul(0x0100_0000_01b3);
    }
    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64 ^ (x >> 64) as u64);
    }
}

/// The value of the entry for `key` in the list from `p`.
fn find<T: Sync>(mut p: *mut Entry<T>, key: TypeId) -> Option<&'static T> {
    while !p.is_null() {
        // SAFETY: non-null pointers in a bucket come from `Box::into_raw` of an entry that was
        // fully written before it was published (the `Release` of the successful exchange,
        // seen through the `Acquire` load that returned it or its predecessor) and is never
        // freed or changed after, so it is valid for `'static` and shared reads (`T: Sync`).
        let e: &'static Entry<T> = unsafe { &*p };
        if e.key == key {
            return Some(&e.value);
        }
        p = e.next;
    }
    None
}

impl<T: Send + Sync> Table<T> {
    /// The value for `key`, built by `build` if no thread has published one yet.
    fn get(&'static self, key: TypeId, build: impl FnOnce() -> T) -> &'static T {
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        key.hash(&mut h);
        // The top bits: a multiply mixes every input bit into them.
        let bucket = &self.0[(h.finish() >> (64 - BUCKETS.trailing_zeros())) as usize];
        let mut head = bucket.load(Ordering::Acquire);
        if let Some(value) = find(head, key) {
            return value;
        }
        let entry = Box::into_raw(Box::new(Entry {
            key,
            value: build(),
            next: head,
        }));
        loop {
            match bucket.compare_exchange(head, entry, Ordering::AcqRel, Ordering::Acquire) {
                // SAFETY: `entry` is from `Box::into_raw` above and now published, never
                // freed; `T: Sync`, so shared references to it may cross threads.
                Ok(_) => return unsafe { &(*entry).value },
                Err(now) => {
                    // Another thread published first: link behind its entries and retry (a
                    // second entry for the same key, if it built this one, is harmless).
                    // SAFETY: `entry` is not published yet, so this thread owns it
                    // exclusively.
                    unsafe { (*entry).next = now };
                    head = now;
                }
            }
        }
    }
}

/// Whether `L` is static (its extents are [`Static`]): its plans are the same for every tensor.
fn is_static<L: Layout>() -> bool {
    TypeId::of::<L::Extents>() == TypeId::of::<Static>()
}

/// The index plan of `L` with `extents`: built once and kept for a static layout, built
/// each time for a dynamic one.
pub(crate) fn plan<L: Layout>(extents: &L::Extents) -> Cow<'static, Plan> {
    if is_static::<L>() {
        Cow::Borrowed(PLANS.get(TypeId::of::<L>(), || L::plan_in(extents)))
    } else {
        Cow::Owned(L::plan_in(extents))
    }
}

/// Copies every element of `src` (layout `S`) into `dst` (layout `D`); `plans` gives both
/// sides' shapes and plans, the destination's first.
/// When both layouts are static, the copy plan of the pair is built on first use
/// and kept, and the plans are not built again; dynamic layouts compile a plan per call for
/// their extents.
pub(crate) fn copy<D: Layout, S: Layout<Elem = D::Elem>>(
    dst: &mut [D::Word],
    src: &[S::Word],
    plans: impl Fn() -> ((ArrayShape, Plan), (ArrayShape, Plan)),
) {
    let same_words = TypeId::of::<D::Word>() == TypeId::of::<S::Word>();
    if let (Some(s), Some(d)) = (words::bytes(src), words::bytes_mut(dst, same_words)) {
        let build = || {
            let ((ds, dp), (ss, sp)) = plans();
            CopyPlan::from_plans((&ss, &sp), (&ds, &dp))
        };
        if is_static::<D>() && is_static::<S>() {
            let plan = COPIES.get(TypeId::of::<(D, S)>(), build);
            return plan.run(s, d, 0..plan.parts());
        }
        let ((ds, dp), (ss, sp)) = plans();
        if dp.elements() == 0 {
            return;
        }
        if same_words && d.len() == s.len() && dp.bitcast_signature() == sp.bitcast_signature() {
            // Same offsets for every element: copy every slot, padding included.
            return d.copy_from_slice(s);
        }
        let plan = CopyPlan::from_plans((&ss, &sp), (&ds, &dp));
        return plan.run(s, d, 0..plan.parts());
    }
    // Element types outside the crate's (a user's `ElementType`): through their values.
    let ((_, dp), (_, sp)) = plans();
    for (d, s) in dp.logical_offsets().zip(sp.logical_offsets()) {
        D::store(dst, d, S::load(src, s));
    }
}
