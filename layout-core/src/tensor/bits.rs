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

    /// Copies `len` consecutive slots, as bytes when both sides hold them in whole bytes,
    /// packing or unpacking whole bytes at once between bytes and `E(n)` fields.
    fn run(&self, dst: &mut [u8], src: &[u8], d: usize, s: usize, len: usize) {
        let (db, sb) = (
            self.dst_start + d * self.dst_bits,
            self.src_start + s * self.src_bits,
        );
        let bytes = |start: usize, bits: usize| {
            start.is_multiple_of(8) && (len * bits).is_multiple_of(8)
        };
        if self.dst_bits == self.src_bits && bytes(db, self.dst_bits) && bytes(sb, self.src_bits) {
            let n = len * self.dst_bits / 8;
            dst[db / 8..db / 8 + n].copy_from_slice(&src[sb / 8..sb / 8 + n]);
            return;
        }
        let done = match (self.src_bits, self.dst_bits) {
            (8, 4) if db.is_multiple_of(8) => pack_nibbles(&mut dst[db / 8..], &src[sb / 8..], len),
            (8, 2) if db.is_multiple_of(8) => pack::<4>(&mut dst[db / 8..], &src[sb / 8..], len),
            (8, 1) if db.is_multiple_of(8) => pack::<8>(&mut dst[db / 8..], &src[sb / 8..], len),
            (4, 8) if sb.is_multiple_of(8) => {
                unpack_nibbles(&mut dst[db / 8..], &src[sb / 8..], len, self.sign_extend)
            }
            (2, 8) if sb.is_multiple_of(8) => {
                unpack::<4>(&mut dst[db / 8..], &src[sb / 8..], len, self.sign_extend)
            }
            (1, 8) if sb.is_multiple_of(8) => {
                unpack::<8>(&mut dst[db / 8..], &src[sb / 8..], len, self.sign_extend)
            }
            _ => 0,
        };
        for k in done..len {
            self.element(dst, src, d + k, s + k);
        }
    }
}

/// Packs the low `8 / P` bits of each of the first `len` bytes of `src` into `dst`, `P` a
/// byte, least-significant first; returns the elements packed (whole bytes of `dst` only).
#[inline]
fn pack<const P: usize>(dst: &mut [u8], src: &[u8], len: usize) -> usize {
    let bits = 8 / P;
    let mask = ((1u16 << bits) - 1) as u8;
    let n = len / P;
    let (groups, _) = src[..n * P].as_chunks::<P>();
    for (o, g) in dst[..n].iter_mut().zip(groups) {
        let mut v = 0u8;
        for (e, &x) in g.iter().enumerate() {
            v |= (x & mask) << (e * bits);
        }
        *o = v;
    }
    n * P
}

const LOW_NIBBLES: u64 = 0x000f_000f_000f_000f;
const BYTES_OF_PAIRS: u64 = 0x00ff_00ff_00ff_00ff;

/// [`pack`] for `E(4)`, eight bytes into four at a time in a 64-bit word: each pair of
/// bytes as a 16-bit lane, `lo | hi << 4` in its low byte, the low bytes gathered by shifts
/// (several times faster than the generic loop, which LLVM vectorizes into byte gathers).
#[inline]
fn pack_nibbles(dst: &mut [u8], src: &[u8], len: usize) -> usize {
    let n = len / 8;
    let (from, _) = src[..8 * n].as_chunks::<8>();
    let (to, _) = dst[..4 * n].as_chunks_mut::<4>();
    for (o, i) in to.iter_mut().zip(from) {
        let y = u64::from_le_bytes(*i);
        let t = (y & LOW_NIBBLES) | ((y >> 4) & (LOW_NIBBLES << 4));
        let t = (t | t >> 8) & 0x0000_ffff_0000_ffff;
        let t = (t | t >> 16) & 0xffff_ffff;
        *o = (t as u32).to_le_bytes();
    }
    let done = 8 * n;
    done + pack::<2>(&mut dst[4 * n..], &src[done..], len - done)
}

/// [`unpack`] for `E(4)`, four bytes into eight at a time in a 64-bit word.
#[inline]
fn unpack_nibbles(dst: &mut [u8], src: &[u8], len: usize, sign: bool) -> usize {
    let n = len / 8;
    let (from, _) = src[..4 * n].as_chunks::<4>();
    let (to, _) = dst[..8 * n].as_chunks_mut::<8>();
    for (o, i) in to.iter_mut().zip(from) {
        let x = u64::from(u32::from_le_bytes(*i));
        let t = (x | x << 16) & 0x0000_ffff_0000_ffff;
        let y = (t | t << 8) & BYTES_OF_PAIRS;
        let mut v = (y & LOW_NIBBLES) | ((y << 4) & (LOW_NIBBLES << 8));
        if sign {
            // Bit 3 of each byte, times 0xf0: the sign filled into the high nibble.
            v |= ((v >> 3) & 0x0101_0101_0101_0101) * 0xf0;
        }
        *o = v.to_le_bytes();
    }
    let done = 8 * n;
    done + unpack::<2>(&mut dst[done..], &src[4 * n..], len - done, sign)
}

/// Unpacks the first `len` fields of `8 / P` bits of `src` (`P` a byte, least-significant
/// first) into bytes, sign-extended if `sign`; returns the elements unpacked (whole bytes of
/// `src` only).
#[inline]
fn unpack<const P: usize>(dst: &mut [u8], src: &[u8], len: usize, sign: bool) -> usize {
    let bits = 8 / P;
    let n = len / P;
    let (groups, _) = dst[..n * P].as_chunks_mut::<P>();
    for (g, &x) in groups.iter_mut().zip(&src[..n]) {
        for (e, o) in g.iter_mut().enumerate() {
            // The field at the top of the byte, then shifted down: arithmetically for signed.
            let top = x << (8 - bits - e * bits);
            *o = if sign {
                ((top as i8) >> (8 - bits)) as u8
            } else {
                top >> (8 - bits)
            };
        }
    }
    n * P
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
