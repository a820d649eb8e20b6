# Where one cascade's time goes on the bench database (M = 149, 100 models): per-call seconds
# by stage (gpu_run_cascade's 'seconds'), pass counts, the SSV/MSV kernels alone, with 8 and 1
# cascades in flight. Runs the CLI in process on bench_hmmsearch.py's database.
import functools, importlib, os, sys, threading, time, json
from pathlib import Path
T0 = time.perf_counter()
sys.path.insert(0, "benchmarks")
import bench_hmmsearch as bench
args = bench.parse_args(["--cpu", "16", "--seqs", os.environ.get("SEQS", "1400000"), "--many-models", os.environ.get("MANY", "100"),
                         "--examples-dir", os.environ.get("GPUSEQ_HMMER_EXAMPLES", ".carry/hmmer/examples"), "--workdir", "/tmp/bench"])
models = bench.prepare_models(args.models, args.examples_dir, args.workdir / "models")
db = bench.ensure_database(args, models, bench.resolve_exe(None, "hmmemit"))
(src,) = bench.prepare_models(args.many_from, args.examples_dir, args.workdir / "models")
many = bench.many_models_file(src, args.many_models, bench.resolve_exe(None, "hmmemit"),
                              bench.resolve_exe(None, "hmmbuild"), args.workdir / "models")
print(f"database ready at {time.perf_counter() - T0:.1f} s", flush=True)
import gpuseq.cli
from gpuseq import _core
hs = importlib.import_module("gpuseq.hmmsearch")
calls = []
seen = {}
orig = _core.gpu_run_cascade
def wrapped(*a, **k):
    t = time.perf_counter()
    r = orig(*a, **k)
    calls.append((t, time.perf_counter(), r["seconds"], {x: r[x] for x in r if x.startswith("n") and isinstance(r[x], int)}, len(r["survivors"])))
    seen["p"], seen["t"] = a[0], a[1]
    return r
_core.gpu_run_cascade = wrapped
for inflight in [int(x) for x in os.environ.get("INFLIGHTS", "8 1 8").split()]:
    hs.GPU_CASCADES_IN_FLIGHT = inflight
    calls.clear()
    t = time.perf_counter()
    gpuseq.cli.main(["hmmsearch", "--cpu", "16", "--noali", "--tblout", "/tmp/p.tbl", "-o", "/tmp/p.out",
                     "--backend", "cuda", "--no-progress", str(many), str(db["gsdb"])])
    wall = time.perf_counter() - t
    first, last = min(c[0] for c in calls), max(c[1] for c in calls)
    tot = {}
    for c in calls:
        for k2, v in c[2].items(): tot[k2] = tot.get(k2, 0) + v
    print(f"\n== in flight {inflight}: main {wall:.3f} s, cascades {first - t:.3f}..{last - t:.3f} ({last - first:.3f} s), calls {len(calls)}, busy {sum(c[1]-c[0] for c in calls):.3f}")
    print("  stage sums: " + ", ".join(f"{k2} {v:.3f}" for k2, v in tot.items()))
    print("  first call counts:", calls[0][3], "survivors", calls[0][4])
    print("  survivors total", sum(c[4] for c in calls))
p, tg = seen["p"], seen["t"]
print(f"\nmodel M msv_bits {p.msv_bits} stripes {p.msv_stripes} S {p.sequences_per_warp} ssv_multi {p.ssv_multi}; targets {tg.count} residues {tg.residue_count}")
for which in ("ssv", "msv", "viterbi"):
    try:
        s = _core.gpu_filter_kernel_seconds(p, tg, which, repeats=5)
        print(f"kernel {which}: {s*1e3:.2f} ms ({tg.residue_count*149/s/1e12:.2f} TCUPS at M=149)")
    except Exception as e:
        print(which, "failed", e)
# alone: one cascade with timings, repeated
for rep in range(3):
    t = time.perf_counter(); r = orig(p, tg, F1=0.02, F2=1e-3, bias_filter=True, threads=16, F3=1e-5, all_scores=False)
    print(f"alone: {time.perf_counter() - t:.4f} s", {k2: round(v, 4) for k2, v in r["seconds"].items()}, "survivors", len(r["survivors"]))
