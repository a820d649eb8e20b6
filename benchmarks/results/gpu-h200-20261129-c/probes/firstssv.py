"""Session 53 probe: the first SSV of a chunk. run_cascade's own phases (ms) for the first
and second cascade of a model on freshly uploaded targets, with the S-lane SSV's shared
sequence blocks (ssv_multi, as 100 models of one S get them) and without; and the blocks'
plan alone on the host (sequence_blocks: plan and fill, on one thread).
python3 firstssv.py DB QUERIES"""
import sys
import time

import gpuseq
from gpuseq import _core
from gpuseq.hmm import iter_hmms, search_profile
from gpuseq.sequences import GPU_DATABASE_CHUNK_RESIDUES

db_path, queries = sys.argv[1], sys.argv[2]
print(_core.cuda_initialize("auto") or "context ready")
db = gpuseq.SequenceDatabase.open(db_path)
chunk = next(db.chunks(GPU_DATABASE_CHUNK_RESIDUES))
profiles = [search_profile(h) for h in list(iter_hmms(queries))[:2]]


def cascade(gp, targets):
    t = time.perf_counter()
    r = _core.gpu_run_cascade(gp, targets, F1=0.02, F2=1e-3, bias_filter=True, threads=16,
                              F3=1e-5, all_scores=False)
    wall = time.perf_counter() - t
    return f"{wall * 1000:.1f} ms: " + " ".join(f"{k} {v * 1000:.1f}" for k, v in r["seconds"].items())


for rnd in range(2):
    for multi in (True, False):
        t = time.perf_counter()
        targets = _core.GpuTargets(chunk.residues, chunk.offsets)
        up = time.perf_counter() - t
        gps = [_core.GpuProfile(p) for p in profiles]
        for gp in gps:
            gp.ssv_multi = multi
        print(f"round {rnd} ssv_multi={multi} S={gps[0].sequences_per_warp} M={profiles[0].M} "
              f"(upload {up * 1000:.0f} ms)")
        print("  first :", cascade(gps[0], targets))
        print("  again :", cascade(gps[0], targets))
        print("  model 2:", cascade(gps[1], targets))
        del targets
S = gps[0].sequences_per_warp
for warps in (132 * 16, 132 * 32):
    t = time.perf_counter()
    d = _core.sequence_blocks(chunk.residues, chunk.offsets, S, warps)
    print(f"sequence_blocks S={S} max_warps={warps}: {(time.perf_counter() - t) * 1000:.0f} ms "
          f"(plan and fill on the host; {d['warps']} warps)")
