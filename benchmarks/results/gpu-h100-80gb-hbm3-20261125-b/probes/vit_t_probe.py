# Fused Viterbi GCUPS with 1, 2 and 4 targets per warp (NVRTC, exact stripes) by model length,
# on the bench's 10 M-residue Viterbi database (mean length 350), median of 5.
import sys, time
sys.path.insert(0, "benchmarks")
from bench_hmm_filters import model, random_database
from gpuseq import _core
db = random_database(10e6, 350, 2)
targets = _core.GpuTargets(*db)
residues = int(db[1][-1])
Ms = [int(m) for m in (sys.argv[1] if len(sys.argv) > 1 else "50,64,100,128,150,192,200,256,300,384,400,520,700,800,1024,1200").split(",")]
print(f"{'M':>5} " + " ".join(f"{'T=' + str(T) + ' Q':>6} {'GCUPS':>7}" for T in (1, 2, 4)))
for M in Ms:
    p = model(M, M)
    cells = []
    for T in (1, 2, 4):
        try:
            gp = _core.GpuProfile(p, 0, "warp_fused", 1, runtime_compiled=True, viterbi_targets_per_warp=T)
        except ValueError:
            cells.append(f"{'-':>6} {'-':>7}")
            continue
        s = _core.gpu_filter_kernel_seconds(gp, targets, "viterbi", repeats=5)
        cells.append(f"{gp.viterbi_stripes:>6} {M * residues / s / 1e9:7.1f}")
    print(f"{M:>5} " + " ".join(cells), flush=True)
