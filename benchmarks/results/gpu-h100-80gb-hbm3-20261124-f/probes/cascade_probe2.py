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
def go(label, k, n=100, **kw):
    o = dict(F1=0.02, F2=1e-3, bias_filter=True, threads=16, F3=1e-5, all_scores=False); o.update(kw)
    sums = {}
    def one(_):
        r = _core.gpu_run_cascade(p, tg, **o)
        return r["seconds"]
    go_t = time.perf_counter()
    with ThreadPoolExecutor(k) as pool:
        for s in pool.map(one, range(n)):
            for x, v in s.items(): sums[x] = sums.get(x, 0) + v
    w = time.perf_counter() - go_t
    print(f"{label:34s} in flight {k}: {w:.3f} s = {w/n*1e3:.2f} ms/model; " + ", ".join(f"{x} {v/n*1e3:.2f}" for x, v in sums.items()), flush=True)
go("warm", 8, 16)
for k in (8, 1, 4, 12):
    go("default", k)
go("threads=2", 8, threads=2)
go("threads=4", 8, threads=4)
go("no forward bound (F3=1)", 8, F3=1.0)
go("no bias filter", 8, bias_filter=False)
go("max-like (F1=1)", 4, 20, F1=1.0, F2=1.0)
t = time.perf_counter()
for _ in range(20): _core.gpu_filter_kernel_seconds(p, tg, "ssv", repeats=1)
print(f"ssv kernel launches x20 via kernel_seconds: {(time.perf_counter() - t)/20*1e3:.2f} ms each")
print(f"ssv kernel median: {_core.gpu_filter_kernel_seconds(p, tg, 'ssv', repeats=9)*1e3:.2f} ms")
