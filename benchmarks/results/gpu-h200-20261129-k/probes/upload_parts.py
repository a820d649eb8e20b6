"""Session 62 probe: the packed chunk's upload split into its host work per target and its
copy. After a 64 MB upload (the pinned staging made), three uploads in a fresh process: the
chunk's 490 M residues as 1,000 equal targets (the copy, little per-target work), its first
1.4 M targets' worth of offsets over 1.4 M one-residue targets (per-target work, little
copy), then the chunk itself. Usage: upload_parts.py DB"""
import sys
import time

import numpy as np

from gpuseq import _core

_core.cuda_initialize("auto")
from gpuseq.sequences import (  # noqa: E402
    DEFAULT_BLOCK_BYTES,
    GPU_DATABASE_CHUNK_RESIDUES,
    iter_sequence_chunks,
)

_, _, chunks = iter_sequence_chunks(sys.argv[1], 16, DEFAULT_BLOCK_BYTES, None,
                                    GPU_DATABASE_CHUNK_RESIDUES)
chunk = next(iter(chunks))
k = int((chunk.offsets < chunk.offsets[0] + (64 << 20)).sum()) - 1
_core.GpuTargets(chunk.residues, chunk.offsets[: k + 1])
n, total = len(chunk.offsets) - 1, int(chunk.offsets[-1] - chunk.offsets[0])
cases = {
    "copy: 1,000 targets": np.linspace(0, total, 1001).astype(np.int64) + chunk.offsets[0],
    "per target: 1.4 M of 1 residue": np.arange(n + 1, dtype=np.int64) + chunk.offsets[0],
    "the chunk": chunk.offsets,
}
for name, offsets in cases.items():
    t = time.perf_counter()
    g = _core.GpuTargets(chunk.residues, offsets)
    print(f"{name}: {time.perf_counter() - t:.3f} s ({g.count} targets, {g.residue_count} residues)",
          flush=True)
    del g
