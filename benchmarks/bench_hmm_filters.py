"""Filter kernel speed: GCUPS of the SSV, MSV and Viterbi filters per model length, on the GPU
(cuda/hmm, CUDAMPF warp kernels, and the Viterbi filter a thread per target, Walters et al.
2009) and on all CPU cores (cpp/hmm), in one run.

Rows per model: SSV/MSV a warp per target in 8-bit and 16-bit lanes (S = 1), SSV/MSV with the
targets per warp chosen by model length (CUDAMPF++ S-lane kernels, S = auto), Viterbi (the warp
kernel, a thread per target, the fused kernel with 1, 2 or 4 targets a warp alone, the kernel
chosen for each launch (by-launch/T4, /systolic or /T2: a search's choice up to 384 nodes),
split over warps, and behind the systolic pipeline up to 384 nodes: its stripes column is
nodes a lane).
Models: pyhmmer's HMM.sample at each --models length (every variant), and the Pfam models of
hmmer-examples (--pfam-models; the variants a search runs), whose transitions are a real
family's: HMM.sample's make the Viterbi filter's D->D chain run in every row.
--multi instead sweeps the S-lane kernels: GCUPS of every S that holds each model (H = the
stripes it takes), the table from which H_max (kMultiMaxStripes in cuda/hmm/gpu_filters.cu) is
read: the largest H at which S still beats S/2 at the same M.

GCUPS = model length x target residues / seconds / 1e9. GPU times are device events around one
kernel launch over every target of a random database (median of --repeat); the full MSV
recurrence runs on every target (in a search it runs only where the SSV cannot decide). CPU
times are the wall time of `_core.filter_scores` on all cores over a smaller database (the
filter's whole cost, SSV before MSV as HMMER does). Writes JSON to benchmarks/results/ with the
device, commit and command.

Each GPU row is measured twice where the two differ: with the kernels NVRTC compiles for the
model's exact stripe count (runtime_compiled true; the S-lane rows: the exact H) and with the
static kernels, whose stripe count is rounded up to the next compiled one (false); models
longer than the static kernels take have only the NVRTC row. profile_seconds is the
GpuProfile build (NVRTC compilation, or a disk cache read: run twice to see both).
The Viterbi rows run on the same database as the SSV and MSV unless --viterbi-residues gives
them a smaller one. On 10 M residues (about one model's Viterbi input in a 500 M-residue
search) a launch of the kernels that run several targets a warp or a lane lasts about as long
as the rows of its longest target (3,000 residues) take, not the database's cells: four targets
a warp ran at 50-66% of the rate it reaches on 100 M (H200, M = 50-150:
results/gpu-h200-20261129-e), so the rate of a kernel is read on the large database.
The thread-per-target Viterbi (Walters et al. 2009) runs on the large database: it needs a
target per resident thread (about 135,000 on an H100), and a small Viterbi database would leave
most of them idle; both Viterbi variants are printed side by side (thread/warp). Where the
large database has fewer targets than that (a small --residues) a note says so, the JSON rows
say fills_gpu false, and no thread/warp ratio is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from datetime import datetime
from pathlib import Path

import numpy as np
from anchors import DEFAULT_ALIGN, bench_anchors  # benchmarks/anchors.py, beside this script
from provenance import source_info  # benchmarks/provenance.py, beside this script

import gpuseq
from gpuseq import _core

# HMMER's background amino-acid frequencies, codes 0..19 in Easel's order (ACDEFGHIKLMNPQRSTVWY).
_BACKGROUND = np.array(_core.background_frequencies[:20], dtype=np.float64)


def random_database(residues: int, mean_length: float, seed: int):
    """Digitized random proteins (log-normal lengths, 10..3000) totalling about `residues`."""
    rng = np.random.default_rng(seed)
    n = max(1, int(residues / mean_length))
    lengths = np.clip(rng.lognormal(np.log(mean_length) - 0.18, 0.6, n), 10, 3000).astype(np.int64)
    offsets = np.zeros(n + 1, np.int64)
    np.cumsum(lengths, out=offsets[1:])
    codes = rng.choice(20, size=int(offsets[-1]), p=_BACKGROUND / _BACKGROUND.sum())
    return codes.astype(np.uint8), offsets


def model(M: int, seed: int):
    from pyhmmer.easel import Alphabet
    from pyhmmer.plan7 import HMM

    from gpuseq.hmm import search_profile

    hmm = HMM.sample(Alphabet.amino(), M, seed)
    hmm.set_composition()
    return search_profile(hmm)


# Pfam models that Debian's hmmer-examples ships (testsuite/, tutorial/), M = 71 .. 1142.
# HMM.sample draws every transition from a flat Dirichlet, so its D->D and M->D paths are far
# stronger than a real family's: HMMER's lazy-F test then runs the Viterbi filter's D->D chain
# in every row, where these models run it in a fraction of the rows. Both are measured.
DEFAULT_PFAM = "RRM_1,2OG-FeII_Oxy_3,Caudal_act,globins4,Pkinase,LuxC,Patched,SMC_N"
DEFAULT_EXAMPLES = Path("/usr/share/doc/hmmer/examples")


def pfam_model(name: str, examples: Path):
    """(M, profile) of a hmmer-examples model by name (gzipped or not)."""
    import gzip

    from pyhmmer.plan7 import HMMFile

    from gpuseq.hmm import search_profile

    for folder in ("testsuite", "tutorial"):
        for path in (examples / folder / f"{name}.hmm", examples / folder / f"{name}.hmm.gz"):
            if path.is_file():
                opener = gzip.open if path.suffix == ".gz" else open
                with opener(path, "rb") as raw, HMMFile(raw) as f:
                    hmm = f.read()
                return hmm.M, search_profile(hmm)
    raise SystemExit(f"{name}: no {name}.hmm(.gz) under {examples}/testsuite or tutorial")


def device_info() -> dict:
    return {"host": platform.node(), "cpus": os.cpu_count(), "build": gpuseq.build_info()}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # 520, 700, 1900, 3000: stripe counts (9, 11, 30, 47) the static kernels round up;
    # 3500, 4096: longer than the static kernels take.
    p.add_argument(
        "--models", default="50,100,150,200,400,520,700,800,1200,1600,1900,2400,3000,3500,4096"
    )
    p.add_argument("--residues", type=float, default=100e6, help="GPU database size")
    p.add_argument("--viterbi-residues", type=float, default=None,
                   help="the Viterbi rows' database size (default: the GPU database itself); "
                   "10e6 is about one model's Viterbi input in a 500 M-residue search")
    p.add_argument("--cpu-residues", type=float, default=2e6, help="CPU database size (0: skip)")
    p.add_argument("--mean-length", type=float, default=350)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--thread-models", default=None,
                   help="model lengths for the thread-per-target Viterbi rows (default: all; "
                   "it is slow on long models)")
    p.add_argument("--out", default=None)
    p.add_argument("--filters", default="ssv,msv,viterbi",
                   help="the filters measured (comma-separated)")
    p.add_argument("--pfam-models", default=DEFAULT_PFAM,
                   help="hmmer-examples models measured with the variants a search runs "
                   "(empty: none)")
    p.add_argument("--examples", type=Path, default=DEFAULT_EXAMPLES,
                   help="hmmer-examples folder (testsuite/, tutorial/)")
    p.add_argument("--multi", action="store_true", help="sweep S (targets per warp) per model")
    p.add_argument("--multi-models", default="16,24,32,48,64,96,128,192,256,384,512,768,1024,1536")
    p.add_argument("--multi-bits", type=int, default=16, help="lane width of the --multi sweep")
    p.add_argument("--mmseqs-align", default=None, metavar="PATH",
                   help="MMseqs2-GPU libmarv align binary to run beside ours (anchors.py; "
                   "default .carry/marv/align if present)")
    args = p.parse_args()
    if not gpuseq.cuda_devices():
        print("no GPU: nothing to measure", file=sys.stderr)
        return 1
    lengths = [int(m) for m in args.models.split(",")]
    db = random_database(args.residues, args.mean_length, 1)
    vdb = (random_database(args.viterbi_residues, args.mean_length, 2)
           if args.viterbi_residues else db)
    cdb = random_database(args.cpu_residues, args.mean_length, 3) if args.cpu_residues else None
    targets = _core.GpuTargets(*db)
    if args.multi:
        return multi_sweep(args, db, targets)
    vtargets = _core.GpuTargets(*vdb) if vdb is not db else targets
    rows = []
    print(
        f"{'M':>6} {'model':>14} {'filter':>8} {'lanes':>6} {'variant':>8} {'NVRTC':>6} "
        f"{'stripes':>7} {'GPU GCUPS':>10} {'CPU GCUPS':>10} {'GPU/CPU':>8}"
    )
    # (filter, lane bits, Viterbi layout, SSV/MSV targets per warp: 1 = a warp per target,
    # 0 = CUDAMPF++ S by model length, passed explicitly so that the SSV runs on the S-lane
    # kernel too: a search leaves its SSV on the warp kernel, see gpu_filters.cu; for the
    # fused Viterbi, its targets per warp: 1, 2 or 4, named fused/T2 and fused/T4 past 1)
    variants = [(which, bits, "warp", 1) for which in ("ssv", "msv") for bits in (8, 16)]
    variants += [("ssv", 16, "warp", 0), ("msv", 16, "warp", 0)]
    variants += [("viterbi", 16, "warp", 1), ("viterbi", 16, "thread", 1)]
    # DPX-fused adds (viterbi_fused.cuh), a warp per target and 2 or 4 targets per warp
    variants += [("viterbi", 16, "warp_fused", T) for T in (1, 2, 4)]
    # ... and a model split over 2 or 4 warps of a block (viterbi_split_kernel, NVRTC only)
    variants += [("viterbi", 16, "split", W) for W in (2, 4)]
    # ... and behind the systolic pipeline (viterbi_systolic.cuh, models up to 384 nodes)
    variants += [("viterbi", 16, "systolic", 0)]
    # ... and a search's choice where no row above is it: the kernel chosen for the launch,
    # four targets a warp or the systolic pipeline where it has rows enough for them, else
    # the profile's own (by-launch/T4, /systolic, /T2)
    variants += [("viterbi", 16, "warp_fused", 0)]
    # The Pfam models: what a search runs (SSV and MSV with S by model length, the fused
    # Viterbi with its targets per warp by model length), NVRTC kernels where they differ; and
    # beside it the fused kernel with two and four targets a warp and the systolic pipeline
    # (opt-in).
    search_variants = [("ssv", 16, "warp", 0), ("msv", 16, "warp", 0),
                       ("viterbi", 16, "warp_fused", 0), ("viterbi", 16, "warp_fused", 2),
                       ("viterbi", 16, "warp_fused", 4), ("viterbi", 16, "systolic", 0)]
    queries = [("sampled", M, lambda M=M: model(M, M), variants) for M in lengths]
    for name in filter(None, args.pfam_models.split(",")):
        M, profile = pfam_model(name, args.examples)
        queries.append((name, M, lambda profile=profile: profile, search_variants))
    filters = set(args.filters.split(","))
    thread_vs_warp = {}
    # The thread-per-target Viterbi fills the GPU only with about a target per resident thread
    # (1,024 an SM at its occupancy): with fewer, its row measures an idle GPU, and says so.
    resident_threads = sum(d["multiprocessors"] for d in gpuseq.cuda_devices()[:1]) * 1024
    warned_underfilled = False
    for label, M, make_profile, query_variants in queries:
        query_variants = [v for v in query_variants if v[0] in filters]
        profile = make_profile()
        for which, bits, variant, per_warp in query_variants:
            if variant == "thread" and args.thread_models is not None:
                if M not in {int(m) for m in args.thread_models.split(",")}:
                    continue
            if variant == "split" and M <= 1024:
                continue  # a warp holds these models whole (16 stripes): the split only waits
            cpu = None
            if cdb is not None and bits == 16 and variant == "warp" and per_warp == 1:
                start = time.perf_counter()
                _core.filter_scores(profile, which, *cdb)
                cpu = M * int(cdb[1][-1]) / (time.perf_counter() - start) / 1e9
            # a search's choices (per_warp 0), named by what they run
            search = which == "viterbi" and variant == "warp_fused" and not per_warp
            for runtime_compiled in (True, False):
                if not runtime_compiled and (
                    M > _core.gpu_static_max_model_length
                    or variant in ("thread", "split", "systolic")
                    or label != "sampled"
                    or search
                ):
                    continue  # no static twin, or nothing specialised by the stripe count
                sequences_per_warp = per_warp or _core.gpu_choose_sequences_per_warp(M, bits)
                start = time.perf_counter()
                try:
                    split = variant == "split"
                    gp = _core.GpuProfile(
                        profile,
                        bits if which != "viterbi" else 0,
                        ("warp_fused" if variant in ("split", "systolic") else variant)
                        if which == "viterbi" else "warp",
                        1 if which == "viterbi" else sequences_per_warp,
                        runtime_compiled=runtime_compiled,
                        viterbi_targets_per_warp=(
                            per_warp if variant in ("warp_fused", "systolic") else 1
                        ),
                        # split rows W warps; a search's (per_warp 0) by model length
                        viterbi_warps_per_target=per_warp if split else 0 if search else 1,
                        # the fused rows alone; a search's by model length
                        viterbi_systolic=1 if variant == "systolic" else 0 if search else -1,
                    )
                except ValueError:
                    if (variant == "warp_fused" and per_warp > 1) or variant in ("split",
                                                                                  "systolic"):
                        continue  # longer than these kernels take
                    raise
                profile_seconds = time.perf_counter() - start
                if search and label == "sampled" and not gp.viterbi_by_launch:
                    continue  # a search's choice is one of the rows above
                if (runtime_compiled and not gp.runtime_compiled and not search
                        and variant not in ("thread", "systolic") and label == "sampled"):
                    continue  # the exact stripe counts are static kernels: the row below
                on_viterbi_db = which == "viterbi" and variant in ("warp", "warp_fused", "split",
                                                                   "systolic")
                t_db, t_dev = (vdb, vtargets) if on_viterbi_db else (db, targets)
                cells = M * int(t_db[1][-1])
                seconds = _core.gpu_filter_kernel_seconds(gp, t_dev, which, repeats=args.repeat)
                gpu = cells / seconds / 1e9
                # the pipeline's targets and time, and the fused kernel's share (handed back)
                systolic = (_core.gpu_viterbi_systolic_counts()
                            if which == "viterbi" and gp.viterbi_systolic else None)
                n_targets = len(t_db[1]) - 1
                fills_gpu = variant != "thread" or n_targets >= resident_threads
                if not fills_gpu and not warned_underfilled:
                    warned_underfilled = True
                    print(f"note: the thread-per-target rows run {n_targets:,} targets, fewer "
                          f"than the GPU's ~{resident_threads:,} resident threads: they measure "
                          "a mostly idle GPU (raise --residues)", flush=True)
                stripes = gp.viterbi_stripes if which == "viterbi" else gp.msv_stripes
                if which != "viterbi" and gp.sequences_per_warp > 1:
                    variant_name = f"S={gp.sequences_per_warp}"
                    stripes = gp.ssv_multi_stripes if which == "ssv" else gp.msv_multi_stripes
                elif which == "viterbi" and gp.viterbi_systolic:
                    variant_name = "systolic"
                    stripes = gp.viterbi_systolic_shape[1]  # nodes a lane
                elif which == "viterbi" and gp.viterbi_by_launch:
                    ran = _core.gpu_last_viterbi_kernel()  # fused/T2, fused/T4 or systolic
                    variant_name = "by-launch/" + ran.removeprefix("fused/")
                    if ran == "fused/T4":  # the four-a-warp profile's stripes of 16 nodes
                        stripes = max(-(-M // 16), 2)
                    elif ran == "systolic":  # nodes a lane
                        stripes = _core.GpuProfile(profile, viterbi="warp_fused",
                                                   viterbi_systolic=1).viterbi_systolic_shape[1]
                elif which == "viterbi" and gp.viterbi_warps_per_target > 1:
                    variant_name = f"split/W{gp.viterbi_warps_per_target}"
                elif which == "viterbi" and gp.viterbi_targets_per_warp > 1:
                    variant_name = f"fused/T{gp.viterbi_targets_per_warp}"
                else:
                    variant_name = variant
                rows.append(
                    dict(M=M, model=label, filter=which, lane_bits=bits, variant=variant_name,
                         sequences_per_warp=gp.sequences_per_warp,
                         viterbi_targets_per_warp=gp.viterbi_targets_per_warp,
                         runtime_compiled=gp.runtime_compiled, stripes=stripes,
                         gpu_seconds=seconds, gpu_gcups=gpu, cpu_gcups=cpu,
                         profile_seconds=profile_seconds, residues=int(t_db[1][-1]),
                         targets=n_targets, fills_gpu=fills_gpu, systolic=systolic)
                )
                ratio = f"{gpu / cpu:8.1f}" if cpu else ""
                cpu_text = f"{cpu:10.1f}" if cpu else ""
                print(
                    f"{M:>6} {label:>14} {which:>8} {bits:>6} {variant_name:>8} "
                    f"{str(gp.runtime_compiled):>6} {stripes:>7} {gpu:10.1f} {cpu_text:>10} "
                    f"{ratio}"
                    + (f"  (handed back {systolic['handed_back']} of {n_targets}: "
                       f"{systolic['handed_back_seconds'] * 1e3:.3f} of "
                       f"{seconds * 1e3:.3f} ms)" if systolic else ""),
                    flush=True,
                )
                if which == "viterbi" and label == "sampled" and fills_gpu:  # first (NVRTC) row
                    thread_vs_warp.setdefault(M, {}).setdefault(variant_name, gpu)
    # The issue's comparison: Walters' thread per target against CUDAMPF's warp per target.
    for M, v in thread_vs_warp.items():
        if "thread" in v and "warp" in v:
            v["thread/warp"] = v["thread"] / v["warp"]
            print(f"{M:>6} viterbi thread/warp GCUPS {v['thread/warp']:.2f}")
        if "warp_fused" in v and "warp" in v:
            v["warp_fused/warp"] = v["warp_fused"] / v["warp"]
            print(f"{M:>6} viterbi warp_fused/warp GCUPS {v['warp_fused/warp']:.2f}")
        if "systolic" in v and "warp_fused" in v:
            v["systolic/warp_fused"] = v["systolic"] / v["warp_fused"]
            print(f"{M:>6} viterbi systolic/warp_fused GCUPS {v['systolic/warp_fused']:.2f}")
        for grouped in ("fused/T2", "fused/T4", "by-launch/T4", "by-launch/systolic"):
            if grouped in v and "warp_fused" in v:
                gain = v[f"{grouped}/warp_fused"] = v[grouped] / v["warp_fused"]
                print(f"{M:>6} viterbi {grouped}/warp_fused GCUPS {gain:.2f}")
    align = args.mmseqs_align or (DEFAULT_ALIGN if DEFAULT_ALIGN.is_file() else None)
    anchors = bench_anchors(align, lengths, rows, repeats=args.repeat)
    result = {
        "benchmark": "hmm_filters",
        "command": " ".join(sys.argv),
        "date": datetime.now().isoformat(timespec="seconds"),
        "device": device_info(),
        "software": {"gpuseq": gpuseq.__version__, "git": source_info()},
        "kernels": "CUDAMPF warp per target: SSV/MSV in 8-bit (paper) or 16-bit DPX lanes, "
        "16-bit Viterbi; static stripe counts (rounded up) and NVRTC-compiled exact ones; "
        "CUDAMPF++ S-lane SSV/MSV (S by model length). Viterbi also a thread per target "
        "(Walters et al. 2009): length-sorted targets, int16 rows interleaved by thread in "
        "global memory; and a warp per target with DPX-fused saturating adds (warp_fused), also "
        "with 2 or 4 targets per warp on 16 or 8 threads each (fused/T2, fused/T4), and the "
        "kernel chosen for each launch (by-launch/T4, /systolic or /T2: a search's choice up to "
        "384 nodes)",
        "nvrtc": _core.nvrtc_info(),
        "rows": rows,
        "viterbi_thread_vs_warp": {str(M): v for M, v in thread_vs_warp.items()},
        "anchors": anchors,
        "instruction_rates": instruction_rates(),
    }
    write_result(args, result, "hmm-filters")
    return 0


def instruction_rates() -> list[dict]:
    """The GPU's measured rates of the kernels' instructions (the bounds beside the GCUPS): a
    16-bit DPX operation updates 2 cells, a byte-lane one 4."""
    rates = _core.gpu_instruction_rates()
    print("\ninstruction rates on this GPU (thread ops per SM per clock; 32 = a warp "
          "instruction per clock; T/s = 1e12 thread ops per second)")
    for r in rates:
        rate = r["per_second"] / 1e12
        print(f"  {r['name']:<16} {r['per_sm_clock']:6.1f} /SM/clk  {rate:6.2f} T/s")
    return rates


def write_result(args, result: dict, stem: str) -> None:
    name = f"{stem}-{platform.node()}-{datetime.now():%Y%m%d-%H%M%S}.json"
    out = Path(args.out) if args.out else Path(__file__).parent / "results" / name
    out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {out}")


# Compiled limits of the S-lane kernels (cuda/hmm/gpu_filters.cu): S targets per warp hold
# models of up to (64 / S) x 48 nodes in 16-bit lanes, (128 / S) x 48 in bytes.
MULTI_MAX_STRIPES = 48


def multi_sweep(args, db, targets) -> int:
    """GCUPS of the SSV and MSV per model length and targets per warp S (S = 1: a warp per
    target), one lane width; one table per filter, a column per S, cells 'GCUPS/H'."""
    bits = args.multi_bits
    lanes = 64 if bits == 16 else 128  # one warp's lanes
    multi_s = [1] + [2**i for i in range(1, 8) if 2**i <= lanes]
    lengths = [int(m) for m in args.multi_models.split(",")]
    rows = []
    cells = {}
    for M in lengths:
        profile = model(M, M)
        for S in multi_s:
            if S > 1 and M > (lanes // S) * MULTI_MAX_STRIPES:
                continue
            gp = _core.GpuProfile(profile, bits, "warp", S)
            for which in ("ssv", "msv"):
                seconds = _core.gpu_filter_kernel_seconds(gp, targets, which, repeats=args.repeat)
                gcups = M * int(db[1][-1]) / seconds / 1e9
                H = ((gp.ssv_multi_stripes if which == "ssv" else gp.msv_multi_stripes)
                     if S > 1 else gp.msv_stripes)
                rows.append(dict(M=M, filter=which, lane_bits=bits, sequences_per_warp=S,
                                 stripes=H, gpu_seconds=seconds, gpu_gcups=gcups,
                                 residues=int(db[1][-1])))
                cells[(which, M, S)] = f"{gcups:.0f}/{H}"
        auto = _core.gpu_choose_sequences_per_warp(M, bits)
        print(f"M={M} done (auto S = {auto})", flush=True)
    for which in ("ssv", "msv"):
        print(f"\n{which.upper()} {bits}-bit GCUPS/H by M (rows) and S (columns)")
        print(f"{'M':>6}" + "".join(f"{'S=' + str(S):>11}" for S in multi_s))
        for M in lengths:
            print(f"{M:>6}" + "".join(f"{cells.get((which, M, S), '-'):>11}" for S in multi_s))
    result = {
        "benchmark": "hmm_filters_multi",
        "command": " ".join(sys.argv),
        "date": datetime.now().isoformat(timespec="seconds"),
        "device": device_info(),
        "software": {"gpuseq": gpuseq.__version__, "git": source_info()},
        "kernels": f"CUDAMPF++ S-lane SSV/MSV, {bits}-bit lanes, every S per model (S = 1: "
        "CUDAMPF warp per target); stripes = H (S > 1) or Q (S = 1)",
        "rows": rows,
    }
    write_result(args, result, "hmm-filters-multi")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
