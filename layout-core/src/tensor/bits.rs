//! Relayout of storage whose elements are not whole bytes (`E(n)` packing, sub-byte types) or
//! whose element widths differ between the two sides (`s4` in bytes against `s4` packed by
//! `E(4)`): elements are moved as bit fields, least-significant bits first, and runs that
//! start and end on byte boundaries on both sides as bytes.

use core::ops::Range;

use super::kernels::{edge, offsets};
use super::nest::{Kernel, Leaf, Nest};

/// How both sides store elements: bits per element and the bit where element 0 starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BitFields {
    pub(crate) dst_bits: usize,
    pub(crate) src_bits: usize,
    pub(crate) dst_start: usize,
    pub(crate) src_start: usize,
    /// Widening copies fill the new high bits with the sign bit (signed integers), not zeros.
    pub(crate) sign_extend: bool,
}

/// `bits` bits (at most 128) of `bytes` from bit `start`.
#[inline]
fn read(bytes: &[u8], start: usize, bits: usize) -> u128 {
    if bits <= 8 && 8 % bits == 0 {
        // Within one byte: `start` is a multiple of `bits`.
        let mask = ((1u16 << bits) - 1) as u8;
        return u128::from((bytes[start / 8] >> (start % 8)) & mask);
    }
    if start.is_multiple_of(8) && bits.is_multiple_of(8) {
        let mut v = [0u8; 16];
        v[..bits / 8].copy_from_slice(&bytes[start / 8..start / 8 + bits / 8]);
        return u128::from_le_bytes(v);
    }
    let mut v = 0u128;
    for k in 0..bits {
        let bit = start + k;
        v |= u128::from((bytes[bit / 8] >> (bit % 8)) & 1) << k;
    }
    v
}

/// Writes the low `bits` bits (at most 128) of `v` into `bytes` from bit `start`.
#[inline]
fn write(bytes: &mut [u8], start: usize, bits: usize, v: u128) {
    if bits <= 8 && 8 % bits == 0 {
        let mask = ((1u16 << bits) - 1) as u8;
        let shift = start % 8;
        let byte = &mut bytes[start / 8];
        *byte = (*byte & !(mask << shift)) | (((v as u8) & mask) << shift);
        return;
    }
    if start.is_multiple_of(8) && bits.is_multiple_of(8) {
        bytes[start / 8..start / 8 + bits / 8].copy_from_slice(&v.to_le_bytes()[..bits / 8]);
        return;
    }
    for k in 0..bits {
        let bit = start + k;
        let b = u8::from((v >> k) & 1 == 1);
        bytes[bit / 8] = (bytes[bit / 8] & !(1 << (bit % 8))) | (b << (bit % 8));
    }
}

impl BitFields {
    /// Copies the element in source slot `s` into destination slot `d`.
    #[inline]
    pub(crate) fn element(&self, dst: &mut [u8], src: &[u8], d: usize, s: usize) {
        let mut v = read(src, self.src_start + s * self.src_bits, self.src_bits);
        if self.sign_extend
            && self.dst_bits > self.src_bits
            && self.src_bits < 128
            && (v >> (self.src_bits - 1)) & 1 == 1
        {
            v |= u128::MAX << self.src_bits;
        }
        write(dst, self.dst_start + d * self.dst_bits, self.dst_bits, v);
    }

    /// Copies `len` consecutive slots, as bytes when both sides hold them in whole bytes.
    fn run(&self, dst: &mut [u8], src: &[u8], d: usize, s: usize, len: usize) {
        let bits = self.dst_bits;
        let (db, sb) = (self.dst_start + d * bits, self.src_start + s * bits);
        if bits == self.src_bits
            && db.is_multiple_of(8)
            && sb.is_multiple_of(8)
            && (len * bits).is_multiple_of(8)
        {
            let n = len * bits / 8;
            dst[db / 8..db / 8 + n].copy_from_slice(&src[sb / 8..sb / 8 + n]);
        } else {
            for k in 0..len {
                self.element(dst, src, d + k, s + k);
            }
        }
    }
}

/// Copies the part `parts` of `nest` from `src` into `dst`, stored as `fields` says.
pub(crate) fn copy(
    nest: &Nest,
    fields: &BitFields,
    dst: &mut [u8],
    src: &[u8],
    parts: Range<usize>,
) {
    nest.walk(parts, &mut |leaf: &Leaf<'_>| {
        for k in 0..leaf.n {
            let (d, s) = offsets(leaf, k);
            match nest.kernel {
                Kernel::Element => fields.element(dst, src, d, s),
                Kernel::Run(run) => {
                    let len = nest.count(&run, Nest::at_step(leaf, run.dim, k));
                    fields.run(dst, src, d, s, len);
                }
                Kernel::Block { a, b, .. } => {
                    edge(nest, leaf, k, [a, b], &mut |d, s| {
                        fields.element(dst, src, d, s);
                    });
                }
            }
        }
    });
}
