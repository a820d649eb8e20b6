"""racecheck's workload for the tile kernels: small subjects, a copy, poly-A (large tiles)."""
import numpy as np
from gpuseq import _core as core, blast
rng = np.random.default_rng(5)
letters = np.array(list("ACDEFGHIKLMNPQRSTVWY"))
query = "".join(rng.choice(letters, 150))
records = [(f"s{i}", "".join(rng.choice(letters, int(n)))) for i, n in enumerate(rng.integers(0, 900, 40))]
records += [("copy", "MK" + query[20:120] + "W"), ("one", "A"), ("polyA", "A" * 500)]
codes, offsets, _ = blast.encode(records)
bad = 0
for q in (query, "A" * 120):
    qc = blast.encode([("q", q)])[0]
    cpu, _ = core.blast_ungapped_hsps(qc, codes, offsets, 16, 15)
    gpu, c = core.gpu_blast_ungapped_hsps(qc, codes, offsets, 16, 15)
    bad += not all(np.array_equal(gpu[k], cpu[k]) for k in cpu)
    print(q[:5], c["word_hits"], c["large_tiles"])
print("GPU kernels differing from the CPU:", bad)
