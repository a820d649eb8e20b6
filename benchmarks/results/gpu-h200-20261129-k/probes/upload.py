"""Session 62 probe: where the packed database's upload (GpuTargets of the 490 M-residue chunk)
spends its time in a fresh process: MODE plain (as the search: the first upload of the
process), staged (a 64 MB upload first, which makes the pinned staging slots), touched (the
chunk's pages read by this process first), both. Usage: upload.py DB MODE"""
import sys
import time

from gpuseq import _core

db, mode = sys.argv[1], sys.argv[2]
t0 = time.perf_counter()
_core.cuda_initialize("auto")
t_ctx = time.perf_counter()
from gpuseq.sequences import (  # noqa: E402
    DEFAULT_BLOCK_BYTES,
    GPU_DATABASE_CHUNK_RESIDUES,
    iter_sequence_chunks,
)

_, _, chunks = iter_sequence_chunks(db, 16, DEFAULT_BLOCK_BYTES, None, GPU_DATABASE_CHUNK_RESIDUES)
chunk = next(iter(chunks))
t_open = time.perf_counter()
extra = {}
if mode in ("touched", "both"):
    t = time.perf_counter()
    _ = int(chunk.residues[::4096].sum())  # one byte a page: every page mapped
    extra["touch"] = time.perf_counter() - t
if mode in ("staged", "both"):
    k = int((chunk.offsets < chunk.offsets[0] + (64 << 20)).sum()) - 1
    t = time.perf_counter()
    small = _core.GpuTargets(chunk.residues, chunk.offsets[: k + 1])
    extra["64 MB first"] = time.perf_counter() - t
t = time.perf_counter()
targets = _core.GpuTargets(chunk.residues, chunk.offsets)
upload = time.perf_counter() - t
print(mode, f"context {t_ctx - t0:.3f} s, open {t_open - t_ctx:.3f} s,",
      ", ".join(f"{k} {v:.3f} s" for k, v in extra.items()), f"| upload {upload:.3f} s",
      f"({targets.count} targets, {targets.residue_count} residues)", flush=True)
