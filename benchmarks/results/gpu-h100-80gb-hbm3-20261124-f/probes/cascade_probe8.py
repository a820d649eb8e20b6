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
REF = {}
def go(label, k, n=100, **kw):
    o = dict(F1=0.02, F2=1e-3, bias_filter=True, threads=16, F3=1e-5, all_scores=False); o.update(kw)
    sums = {}
    def one(_):
        r = _core.gpu_run_cascade(p, tg, **o)
        key = (o["F3"], o["F1"], o["bias_filter"])
        ref = REF.setdefault(key, r["survivors"].tolist())
        assert ref == r["survivors"].tolist(), "survivors differ"
        return r["seconds"]
    go_t = time.perf_counter()
    with ThreadPoolExecutor(k) as pool:
        for s in pool.map(one, range(n)):
            for x, v in s.items(): sums[x] = sums.get(x, 0) + v
    w = time.perf_counter() - go_t
    print(f"{label:34s} in flight {k}: {w:.3f} s = {w/n*1e3:.2f} ms/model; " + ", ".join(f"{x} {v/n*1e3:.2f}" for x, v in sums.items()), flush=True)
go("warm", 8, 16)
for rep in range(3):
    go(f"default", 8)
go("alone", 1, 20)
import gpuseq.cli, importlib, subprocess
many = bench.many_models_file(src, 100, bench.resolve_exe(None, "hmmemit"), bench.resolve_exe(None, "hmmbuild"), args.workdir / "models")
for rep in range(3):
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "gpuseq.cli", "hmmsearch", "--cpu", "16", "--noali", "--tblout", f"/tmp/p{rep}.tbl", "-o", f"/tmp/p{rep}.out", "--backend", "cuda", "--no-progress", str(many), str(db["gsdb"])], check=True)
    print(f"process, 100 models: {time.perf_counter() - t:.3f} s", flush=True)
