# Pure cascade throughput (no downstream): 100 calls of one M=149 model on the bench database,
# k in flight, stage variants; the SSV kernel alone back to back.
import os, sys, time
from concurrent.futures import ThreadPoolExecutor
sys.path.insert(0, "benchmarks")
import bench_hmmsearch as bench
args = bench.parse_args(["--cpu", "16", "--seqs", os.environ.get("SEQS", "1400000"), "--many-models", "100",
                         "--examples-dir", os.environ.get("GPUSEQ_HMMER_EXAMPLES", ".carry/hmmer/examples"), "--workdir", "/tmp/bench"])
models = bench.prepare_models(args.models, args.examples_dir, args.workdir / "models")
db = bench.ensure_database(args, models, bench.resolve_exe(None, "hmmemit"))
(src,) = bench.prepare_models(args.many_from, args.examples_dir, args.workdir / "models")
import numpy as np, pyhmmer
from gpuseq import _core
from gpuseq.database import read_database_arrays
from gpuseq.hmm import search_profile
a = read_database_arrays(db["gsdb"])
res, off = np.ascontiguousarray(a["residues"]), np.ascontiguousarray(a["offsets"])
tg = _core.GpuTargets(res, off)
with pyhmmer.plan7.HMMFile(str(src.path)) as f:
    hmm = next(iter(f))
p = _core.GpuProfile(search_profile(hmm))
p.ssv_multi = True
print(f"M {hmm.M} S {p.sequences_per_warp} targets {tg.count}", flush=True)
import ctypes
cuda = ctypes.CDLL("libcuda.so.1")
o = dict(F1=0.02, F2=1e-3, bias_filter=True, threads=16, F3=1e-5, all_scores=False)
for _ in range(3):
    r = _core.gpu_run_cascade(p, tg, **o)
print({k: v for k, v in r.items() if k.startswith("n")}, "survivors", len(r["survivors"]), flush=True)
cuda.cuProfilerStart()
r = _core.gpu_run_cascade(p, tg, **o)
cuda.cuProfilerStop()
print("profiled", {k: round(v * 1e3, 2) for k, v in r["seconds"].items()}, flush=True)
