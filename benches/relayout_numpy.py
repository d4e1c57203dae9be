#!/usr/bin/env python3
"""numpy's best equivalent of the relayouts of benches/relayout.rs, beside np.copyto.

Each relayout is written as numpy would do it: a reshape into the tiled dims, a transpose,
and a contiguous copy (`np.copyto` into a preallocated array of the transposed shape, the
fastest form). numpy has no bf16, so bf16 is timed as uint16 (same bytes). The `ratio` is
np.copyto's time over the relayout's, both from DRAM after reading 128 MiB, median of the
rounds' ratios, as the Rust bench does.

    python3 -m venv /tmp/npvenv && /tmp/npvenv/bin/pip install numpy
    /tmp/npvenv/bin/python benches/relayout_numpy.py [ROUNDS]
"""

import sys
import time

import numpy as np

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 11
FLUSH = np.arange(128 << 20 >> 3, dtype=np.uint64)


def evict():
    FLUSH[::8].sum()


def tiles_2d(r, c, tr, tc):
    """(rows, cols) row-major -> T(tr,tc): shape and axes of the tiled view."""
    return (r // tr, tr, c // tc, tc), (0, 2, 1, 3)


def pairs(r, c, tr, tc, s):
    """(rows, cols) -> T(tr,tc)(s,1): s consecutive rows interleaved within each tile."""
    return (r // tr, tr // s, s, c // tc, tc), (0, 3, 1, 4, 2)


def inverse(axes):
    out = [0] * len(axes)
    for k, a in enumerate(axes):
        out[a] = k
    return tuple(out)


def case(name, dtype, shape, view, axes, back=False):
    """A relayout: `src` (shape) viewed as `view`, axes permuted by `axes` (or its inverse
    from the tiled side when `back`)."""
    n = int(np.prod(shape))
    src = np.arange(n, dtype=np.uint64).astype(dtype)
    if back:
        # Start from the tiled array, go back to row-major.
        tiled_shape = tuple(view[a] for a in axes)
        src = src.reshape(tiled_shape)
        perm = inverse(axes)
        dst = np.empty(tuple(tiled_shape[a] for a in perm), dtype=dtype)
        go = lambda: np.copyto(dst, src.transpose(perm))
    else:
        v = src.reshape(view)
        dst = np.empty(tuple(view[a] for a in axes), dtype=dtype)
        go = lambda: np.copyto(dst, v.transpose(axes))
    timed(name, src.nbytes, src, go)


def timed(name, nbytes, src, go):
    """Rounds of (evict, np.copyto of `src`, evict, `go`): the median rate of each and the
    median of the rounds' ratios, `nbytes` bytes a round."""
    plain = np.empty_like(src)
    ratios, ours, mems = [], [], []
    for _ in range(ROUNDS):
        evict()
        t = time.perf_counter()
        np.copyto(plain, src)
        m = time.perf_counter() - t
        evict()
        t = time.perf_counter()
        go()
        k = time.perf_counter() - t
        ratios.append(m / k)
        ours.append(k)
        mems.append(m)
    med = lambda v: sorted(v)[len(v) // 2]
    gb = nbytes / 1e9
    print(f"| {name} | {gb / med(ours):.2f} | {gb / med(mems):.2f} | {med(ratios):.2f} |")


def transposed(name, src, axes):
    """`src` (a layout's bytes viewed in its tiled dims) copied into the layout whose dims are
    `src`'s in the order `axes`."""
    dst = np.empty(tuple(src.shape[a] for a in axes), dtype=src.dtype)
    timed(name, src.nbytes, src, lambda: np.copyto(dst, src.transpose(*axes)))


def pack_s4():
    """s4 in bytes -> E(4): two nibbles a byte, the first low (numpy's fastest: two strided
    ANDs, a shift and an OR into a preallocated array)."""
    src = (np.arange(8192 * 8192, dtype=np.uint64) % 16).astype(np.uint8).reshape(8192, 8192)
    dst = np.empty((8192, 4096), dtype=np.uint8)
    tmp = np.empty_like(dst)

    def go():
        np.bitwise_and(src[:, 0::2], 0x0F, out=dst)
        np.left_shift(src[:, 1::2], 4, out=tmp)
        np.bitwise_or(dst, tmp, out=dst)

    timed("s4 bytes -> E(4) packed", src.nbytes, src, go)


def pack_u1():
    """u1 in bytes -> E(1): eight bits a byte, the first lowest (np.packbits, little bit
    order; it allocates its result)."""
    src = (np.arange(8192 * 8192, dtype=np.uint64) % 2).astype(np.uint8).reshape(8192, 8192)
    timed(
        "u1 bytes -> E(1) packed",
        src.nbytes,
        src,
        lambda: np.packbits(src, axis=1, bitorder="little"),
    )


def unpack_u1():
    """E(1) -> u1 in bytes (np.unpackbits, little bit order; it allocates its result)."""
    src = np.zeros((8192, 1024), dtype=np.uint8)
    out = np.empty((8192, 8192), dtype=np.uint8)
    timed(
        "u1 E(1) packed -> bytes",
        out.nbytes,
        out,
        lambda: np.unpackbits(src, axis=1, bitorder="little"),
    )


def main():
    print(f"numpy {np.__version__}, {ROUNDS} rounds\n")
    print("| relayout (numpy) | numpy GB/s | np.copyto GB/s | numpy / np.copyto |")
    print("|---|---|---|---|")
    v, a = tiles_2d(4096, 4096, 8, 128)
    case("f32 rows -> T(8,128)", np.float32, (4096, 4096), v, a)
    case("f32 T(8,128) -> rows", np.float32, (4096, 4096), v, a, back=True)
    v, a = pairs(4096, 8192, 8, 128, 2)
    case("bf16 rows -> T(8,128)(2,1)", np.uint16, (4096, 8192), v, a)
    case("bf16 T(8,128)(2,1) -> rows", np.uint16, (4096, 8192), v, a, back=True)
    v, a = pairs(40960, 768, 8, 128, 2)
    case("bf16 rows of 768 -> T(8,128)(2,1)", np.uint16, (40960, 768), v, a)
    v, a = pairs(8192, 8192, 32, 128, 4)
    case("s8 rows -> T(32,128)(4,1)", np.int8, (8192, 8192), v, a)
    case("s8 T(32,128)(4,1) -> rows", np.int8, (8192, 8192), v, a, back=True)
    v, a = pairs(8192, 8192, 64, 128, 8)
    case("u8 rows -> T(64,128)(8,1)", np.uint8, (8192, 8192), v, a)
    v, a = tiles_2d(8192, 8192, 8, 32)
    case("u8 rows -> T(8,32)", np.uint8, (8192, 8192), v, a)
    case("u8 T(8,32) -> rows", np.uint8, (8192, 8192), v, a, back=True)
    # {0,1:T(8,128)}: physical (j, i) tiled by (8, 128): (j/8, i/128, j%8, i%128).
    v, a = (32, 128, 512, 8), (2, 0, 3, 1)
    case("f32 rows -> {0,1:T(8,128)}", np.float32, (4096, 4096), v, a)
    case("f32 {0,1:T(8,128)} -> rows", np.float32, (4096, 4096), v, a, back=True)
    case("f64 rows -> {0,1:T(8,128)}", np.float64, (2048, 4096), (16, 128, 512, 8), a)
    case("u8 {0,1:T(8,128)} -> rows", np.uint8, (8192, 8192), (64, 128, 1024, 8), a, back=True)
    case("u8 rows -> {0,1:T(8,128)}", np.uint8, (8192, 8192), (64, 128, 1024, 8), a)
    # T(8,128)(2,1) tiles (r/8, c/128, 4, 128, 2) to column-major (c/128, 128, r/8, 4, 2).
    tiled = np.arange(4096 * 8192, dtype=np.uint16).reshape(512, 64, 4, 128, 2)
    transposed("bf16 T(8,128)(2,1) -> {0,1}", tiled, (1, 3, 0, 2, 4))
    # The same tiles as (r/128, r%128/8, c/128, r%8/2, c%128/8, c%8/2, c%2, r%2), to
    # {0,1:T(8,128)(2,1)}: (c/128, c%128/8, r/128, c%8/2, r%128/8, r%8/2, r%2, c%2).
    split = tiled.reshape(32, 16, 64, 4, 16, 4, 2, 2)
    transposed("bf16 T(8,128)(2,1) -> {0,1:T(8,128)(2,1)}", split, (2, 4, 0, 5, 1, 3, 7, 6))
    # T(32,128)(4,1) as (r/128, r%128/32, c/128, r%32/4, c%128/32, c%32/4, c%4, r%4), to
    # {0,1:T(32,128)(4,1)}: (c/128, c%128/32, r/128, c%32/4, r%128/32, r%32/4, r%4, c%4).
    groups = np.ones((64, 4, 64, 8, 4, 8, 4, 4), dtype=np.int8)
    transposed("s8 T(32,128)(4,1) -> {0,1:T(32,128)(4,1)}", groups, (2, 4, 0, 5, 1, 3, 7, 6))
    case("c128 rows -> T(8,128)", np.complex128, (1024, 4096), *tiles_2d(1024, 4096, 8, 128))
    case("f32 2-D transpose {1,0} -> {0,1}", np.float32, (4096, 4096), (4096, 4096), (1, 0))
    case("f32 4-D reversal {3,2,1,0} -> {0,1,2,3}", np.float32, (64,) * 4, (64,) * 4, (3, 2, 1, 0))
    # {1,0,3,2}: physical order major to minor is (2, 3, 0, 1).
    case("f32 4-D {3,2,1,0} -> {1,0,3,2}", np.float32, (64,) * 4, (64,) * 4, (2, 3, 0, 1))
    case(
        "bf16 4-D reversal {3,2,1,0} -> {0,1,2,3}",
        np.uint16,
        (64, 64, 64, 128),
        (64, 64, 64, 128),
        (3, 2, 1, 0),
    )
    case("u8 2-D transpose {1,0} -> {0,1}", np.uint8, (8192, 8192), (8192, 8192), (1, 0))
    # {1,3,2,0}: physical order major to minor is (0, 2, 3, 1); {2,1,3,0} is (0, 3, 1, 2).
    nchw, nhwc = (112, 3, 224, 224), (112, 224, 224, 3)
    case("f32 NCHW -> NHWC, 3 channels", np.float32, nchw, nchw, (0, 2, 3, 1))
    case("f32 NHWC -> NCHW, 3 channels", np.float32, nhwc, nhwc, (0, 3, 1, 2))
    nchw, nhwc = (256, 3, 256, 256), (256, 256, 256, 3)
    case("u8 NCHW -> NHWC, 3 channels", np.uint8, nchw, nchw, (0, 2, 3, 1))
    case("u8 NHWC -> NCHW, 3 channels", np.uint8, nhwc, nhwc, (0, 3, 1, 2))
    conv = (3, 3, 1024, 1024)
    case("f32 3x3 conv weights {3,2,1,0} -> {1,0,3,2}", np.float32, conv, conv, (2, 3, 0, 1))
    case("f32 transpose of 7 rows", np.float32, (7, 2396745), (7, 2396745), (1, 0))
    case("f32 2-D transpose, odd dims", np.float32, (4099, 4093), (4099, 4093), (1, 0))
    case("f32 2-D transpose, dims of 4100", np.float32, (4100, 4100), (4100, 4100), (1, 0))
    case(
        "bf16 [50257,768] transpose (a vocabulary)",
        np.uint16,
        (50257, 768),
        (50257, 768),
        (1, 0),
    )
    case("u8 2-D transpose, odd dims", np.uint8, (8191, 8193), (8191, 8193), (1, 0))
    case(
        "u8 2-D transpose into rows of 4000 bytes",
        np.uint8,
        (4000, 16384),
        (4000, 16384),
        (1, 0),
    )
    overhanging()
    pack_s4()
    pack_u1()
    unpack_u1()



def overhanging():
    """Tiles that overhang the array: numpy copies the whole tiles as one view, then the
    last, cut tile column as another (two `np.copyto`)."""

    def pieces(name, src, views):
        go = lambda: [np.copyto(d, s) for d, s in views]
        timed(name, src.nbytes, src, go)

    # f32[4000,4000]{0,1:T(8,128)}: (j/8, i/128, j%8, i%128), i padded to 4096; to rows
    # (i/128, i%128, j/8, j%8): 31 whole tiles of i, then 32 rows of the last.
    src = np.arange(500 * 32 * 8 * 128, dtype=np.float32).reshape(500, 32, 8, 128)
    dst = np.empty((4000, 4000), dtype=np.float32)
    t = src.transpose(1, 3, 0, 2)
    views = [(dst[:3968].reshape(31, 128, 500, 8), t[:31]), (dst[3968:].reshape(1, 32, 500, 8), t[31:, :32])]
    pieces("f32 {0,1:T(8,128)} -> rows, tiles overhang", src, views)
    # u8[8000,8000] rows to {0,1:T(8,128)}: (j/8, i/128, j%8, i%128), i padded to 8064.
    src = np.ones((8000, 8000), dtype=np.uint8)
    dst = np.empty((1000, 63, 8, 128), dtype=np.uint8)
    whole = src[:7936].reshape(62, 128, 1000, 8).transpose(2, 0, 3, 1)
    last = src[7936:].reshape(1, 64, 1000, 8).transpose(2, 0, 3, 1)
    pieces("u8 rows -> {0,1:T(8,128)}, tiles overhang", src, [(dst[:, :62], whole), (dst[:, 62:, :, :64], last)])
    # bf16[32768,1000]{1,0:T(8,128)(2,1)}: (r/8, c/128, r%8/2, c%128, r%2), c padded to 1024;
    # to {0,1}, (c/128, c%128, r/8, r%8/2, r%2): 7 whole tiles of c, then 104 columns.
    src = np.ones((4096, 8, 4, 128, 2), dtype=np.uint16)
    dst = np.empty((1000, 32768), dtype=np.uint16)
    t = src.transpose(1, 3, 0, 2, 4)
    views = [(dst[:896].reshape(7, 128, 4096, 4, 2), t[:7]), (dst[896:].reshape(1, 104, 4096, 4, 2), t[7:, :104])]
    pieces("bf16 T(8,128)(2,1) -> {0,1}, tiles overhang", src, views)

if __name__ == "__main__":
    main()
