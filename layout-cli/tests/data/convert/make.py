"""Writes the fixtures of layout-cli/tests/convert.rs with numpy's own np.save, and the
expected tiled buffers with numpy's pad, reshape and transpose (XLA's tiling as docs/
tiled_layout.md defines it, independent of this repository's code).

Not run by the tests (they read the files committed beside this script); rerun with numpy
and ml_dtypes installed to regenerate: `python3 make.py` in this folder.
"""
import ml_dtypes
import numpy as np


def ramp(shape):
    """0, 1, 2, ... in row-major order."""
    return np.arange(int(np.prod(shape))).reshape(shape)


def tile_2d(physical, tile, sub=None):
    """The bytes of a rank-2 physical array (major dim first) under T(tile)(sub): pad
    each dim up to a multiple of the tile with zeros, tile, then tile each tile again."""
    rows, cols = physical.shape
    tr, tc = tile
    padded = np.zeros((-(-rows // tr) * tr, -(-cols // tc) * tc), physical.dtype)
    padded[:rows, :cols] = physical
    tiles = padded.reshape(padded.shape[0] // tr, tr, padded.shape[1] // tc, tc)
    tiles = tiles.transpose(0, 2, 1, 3)  # [row tile, col tile, tr, tc]
    if sub is not None:
        sr, sc = sub
        assert tr % sr == 0 and tc % sc == 0
        tiles = tiles.reshape(tiles.shape[0], tiles.shape[1], tr // sr, sr, tc // sc, sc)
        tiles = tiles.transpose(0, 1, 2, 4, 3, 5)
    return np.ascontiguousarray(tiles).tobytes()


bf16 = (ramp((16, 300)) % 509).astype(ml_dtypes.bfloat16)
np.save("bf16_16x300.npy", bf16)
open("bf16_16x300.T8_128_2_1.bin", "wb").write(tile_2d(bf16, (8, 128), (2, 1)))

s8 = ((ramp((40, 200)) % 251) - 125).astype(np.int8)
np.save("s8_40x200.npy", s8)
open("s8_40x200.T32_128_4_1.bin", "wb").write(tile_2d(s8, (32, 128), (4, 1)))

f32 = (ramp((13, 20)) * 0.5).astype(np.float32)
np.save("f32_13x20.npy", f32)
# The same array column-major (np.asfortranarray makes np.save write fortran_order True).
np.save("f32_13x20_fortran.npy", np.asfortranarray(f32))
# f32[13,20]{0,1:T(8,128)}: dim 0 is minor, so the physical array is the transpose.
open("f32_13x20.m2m01_T8_128.bin", "wb").write(tile_2d(f32.T, (8, 128)))

np.save("f64_3x5x7.npy", (ramp((3, 5, 7)) - 50.25).astype(np.float64))
np.save("pred_9x17.npy", ramp((9, 17)) % 3 == 0)
np.save("u16_5x130.npy", (ramp((5, 130)) * 397 % 65536).astype(np.uint16))
np.save("s16_3x3.npy", (ramp((3, 3)) - 4).astype(np.int16))
np.save("u32_2x9.npy", (ramp((2, 9)) * 123456789).astype(np.uint32))
np.save("s64_7x3.npy", (ramp((7, 3)) - 10).astype(np.int64) * (1 << 40))
np.save("u64_4.npy", ramp((4,)).astype(np.uint64) + np.uint64(1 << 63))
np.save("c64_6x10.npy", (ramp((6, 10)) + 1j * ramp((6, 10))[::-1]).astype(np.complex64))
np.save("c128_3x4.npy", (ramp((3, 4)) - 2j).astype(np.complex128))
np.save("f16_9x129.npy", (ramp((9, 129)) * 0.25).astype(np.float16))
np.save("u8_1000.npy", (ramp((1000,)) % 256).astype(np.uint8))
np.save("s32_scalar.npy", np.array(-7, dtype=np.int32))
np.save("f32_0x3.npy", np.zeros((0, 3), dtype=np.float32))
# Rejected inputs.
np.save("unicode_2.npy", np.array(["ab", "cd"]))
np.save("int4_4.npy", np.arange(4).astype(ml_dtypes.int4))
np.save("f32_big_endian_2x2.npy", np.arange(4).reshape(2, 2).astype(">f4"))
