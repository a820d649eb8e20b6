# Which Viterbi kernel disagrees with the CPU at M = 2369 (test_s_lane..._static_and_cpu[2-8])?
import sys
sys.path.insert(0, "tests")
import numpy as np
from conftest import bit_equal
from gpuseq import _core
from test_gpu_nvrtc import _model_and_targets
for M, seed in ((2369, 2371), (2369, 5), (2400, 2400), (2000, 2000), (1185, 1187), (3000, 3000)):
    profile, residues, offsets = _model_and_targets(M, seed)
    cpu = _core.filter_scores(profile, "viterbi", residues, offsets)
    targets = _core.GpuTargets(residues, offsets)
    for vit in ("warp", "warp_fused"):
        for rc in (True, False):
            for bits, S in ((8, 2), (16, 0), (16, 1)):
                gp = _core.GpuProfile(profile, bits, vit, S, runtime_compiled=rc)
                gpu = _core.gpu_filter_scores(gp, targets, "viterbi", residues, offsets)
                bad = np.flatnonzero(~bit_equal(gpu, cpu))
                print(M, seed, vit, "nvrtc" if gp.runtime_compiled else "static", bits, S,
                      "Q", gp.viterbi_stripes, "bad", len(bad), bad[:4], gpu[bad[:2]], cpu[bad[:2]], flush=True)
