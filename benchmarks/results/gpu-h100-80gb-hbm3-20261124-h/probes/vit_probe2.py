# Non-fused Viterbi warp kernel (viterbi_filter.cuh) compiled by NVRTC: which stripe counts
# disagree with the CPU? (Q = 38 does at M = 2369, 2400.)
import sys
sys.path.insert(0, "tests")
import numpy as np
from conftest import bit_equal
from gpuseq import _core
from test_gpu_nvrtc import _model_and_targets
for Q in range(26, 49):
    M = 64 * (Q - 1) + 17
    profile, residues, offsets = _model_and_targets(M, M)
    cpu = _core.filter_scores(profile, "viterbi", residues, offsets)
    targets = _core.GpuTargets(residues, offsets)
    out = []
    for vit in ("warp", "warp_fused"):
        for rc in (True, False):
            gp = _core.GpuProfile(profile, 16, vit, 1, runtime_compiled=rc)
            gpu = _core.gpu_filter_scores(gp, targets, "viterbi", residues, offsets)
            bad = int((~bit_equal(gpu, cpu)).sum())
            out.append(f"{vit}/{'nvrtc' if gp.runtime_compiled else 'static'}/Q{gp.viterbi_stripes}: {bad}")
    print(M, "  ".join(out), flush=True)
