"""Times XLA's own HLO parser (jaxlib's `hlo_module_from_text`, the parser behind
`xla::ParseAndReturnUnverifiedModule`) on one module file, warm and in-process.

usage: python hlo_xla_parse.py MODULE.hlo [TIMES]
prints: xla MB/s: wall median W max W, cpu median C max C (BYTES bytes)
"""
import statistics
import sys
import time

from jaxlib import _hlo

path = sys.argv[1]
times = int(sys.argv[2]) if len(sys.argv) > 2 else 5
text = open(path).read()
_hlo.hlo_module_from_text(text)  # warm up
wall, cpu = [], []
for _ in range(times):
    w, c = time.perf_counter(), time.thread_time()
    module = _hlo.hlo_module_from_text(text)
    c, w = time.thread_time() - c, time.perf_counter() - w
    del module
    wall.append(len(text) / w / 1e6)
    cpu.append(len(text) / c / 1e6)
print(
    f"xla MB/s: wall median {statistics.median(wall):.1f} max {max(wall):.1f}, "
    f"cpu median {statistics.median(cpu):.1f} max {max(cpu):.1f} ({len(text)} bytes)"
)
