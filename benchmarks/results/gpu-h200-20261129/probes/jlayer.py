# Algorithm check (not the schedule, not the 16-bit encoding) of the systolic pipeline with a
# second layer for J entries: A = the DP with every entry at X (what the pipeline computes);
# C = the same recurrence with entries only at rows whose xB from A's xE alone rises above X;
# true = max(A, C) unless C's own xE raises the running maximum that set xB (then: handed
# back). Compares unflagged targets with the package's CPU Viterbi filter (nats), and counts
# the targets handed back now (xC above xN) against those this would hand back.
import sys
from pathlib import Path
import numpy as np
sys.path.insert(0, "/work/main/benchmarks")
sys.path.insert(0, "/work/main/tests")
from bench_hmm_filters import model, pfam_model, random_database  # noqa: E402
from gpuseq import _core  # noqa: E402
from synthetic import plant  # noqa: E402
sys.path.insert(0, "/work/main/benchmarks/results/gpu-h200-20261128-j/probes")
from emulate import tables  # noqa: E402

NEG = -10**9


def run(p, residues, offsets):
    M = p.M
    w, E, weak, lowest, F = tables(p, 0)
    w = {k: v.astype(np.int64) for k, v in w.items()}
    E = E.astype(np.int64)
    n = len(offsets) - 1
    L = np.diff(offsets)
    ncj = np.array([_core.SearchProfile.ncj_move_w(int(x)) for x in L], np.int64)
    X = 12000 + ncj
    em = int(p.e_move_w)
    Lmax = int(L.max())
    seq = np.zeros((n, Lmax), np.int64)
    for j in range(n):
        seq[j, :L[j]] = residues[offsets[j]:offsets[j + 1]]
    # node 1's words from node 0 are -inf in HMMER: use NEG sources, not the 0 words
    w["MM"][0] = w["IM"][0] = w["DM"][0] = w["MD"][0] = w["DD"][0] = 0

    def layer_step(Mp, Ip, Dp, entry, e):
        Mc = np.empty_like(Mp); Ic = np.empty_like(Mp); Dc = np.empty_like(Mp)
        ml = np.full(n, NEG); dl = np.full(n, NEG)
        md = np.full(n, NEG); idg = np.full(n, NEG); dd = np.full(n, NEG)
        for g in range(M):
            c = entry + w["B"][g]
            c = np.maximum(md + w["MM"][g], c)
            c = np.maximum(idg + w["IM"][g], c)
            c = np.maximum(dd + w["DM"][g], c)
            mc = c + e[:, g]
            ic = np.maximum(Ip[:, g] + w["II"][g], Mp[:, g] + w["MI"][g])
            dc = np.maximum(dl + w["DD"][g], ml + w["MD"][g])
            Mc[:, g], Ic[:, g], Dc[:, g] = mc, ic, dc
            md, idg, dd = Mp[:, g], Ip[:, g], Dp[:, g]
            ml, dl = mc, dc
        return np.maximum(Mc, NEG), np.maximum(Ic, NEG), np.maximum(Dc, NEG)

    A = [np.full((n, M), NEG, np.int64) for _ in range(3)]
    C = [np.full((n, M), NEG, np.int64) for _ in range(3)]
    PA = np.full(n, NEG, np.int64)   # running max of A's xE (rows done)
    PAC = np.full(n, NEG, np.int64)  # of max(A, C)
    flag = np.zeros(n, bool)
    crossed = np.zeros(n, bool)
    for r in range(Lmax):
        live = r < L
        e = E[seq[:, r]]
        xbA = np.maximum(PA + em, 12000) + ncj            # xB of this row from A alone
        xbAC = np.maximum(PAC + em, 12000) + ncj
        flag |= live & (xbA != xbAC)                      # C raised what set its entries
        entryC = np.where(xbA > X, xbA, NEG)
        A = list(layer_step(*A, X, e))
        C = list(layer_step(*C, entryC, e))
        xeA, xeC = A[0].max(axis=1), C[0].max(axis=1)
        PA = np.where(live, np.maximum(PA, xeA), PA)
        PAC = np.where(live, np.maximum(PAC, np.maximum(xeA, xeC)), PAC)
        crossed |= live & (PA + em > 12000)
    xc = PAC + em
    over = PAC >= 32767 - int(E.max())                  # could have saturated: handed back
    return xc, flag | over, crossed, over, ncj


def nats(xc, ncj):
    sc = ((xc.astype(np.float32) + ncj.astype(np.float32)) - np.float32(12000)) / np.float32(
        _core.SearchProfile.scale_w)
    return sc - np.float32(3.0)


if __name__ == "__main__":
    from pyhmmer.plan7 import HMMFile
    from synthetic import random_protein
    from test_gpu_filters import _digitize
    rng = np.random.default_rng(3)
    res, off = random_database(float(sys.argv[1]) if len(sys.argv) > 1 else 1e5, 350, 5)
    ex = Path("/work/main/.carry/hmmer/examples")
    AA = "ACDEFGHIKLMNPQRSTVWY"

    def weaken(s, rate):
        return "".join(AA[rng.integers(20)] if rng.random() < rate else ch for ch in s)

    for name in sys.argv[2:] or ("RRM_1", "globins4", "Caudal_act"):
        M, p = pfam_model(name, ex)
        import gzip
        path = next(q for q in ex.glob(f"*/{name}.hmm*") if q.name in (f"{name}.hmm", f"{name}.hmm.gz"))
        with (gzip.open if path.suffix == ".gz" else open)(path, "rb") as raw, HMMFile(raw) as f:
            c = next(iter(f)).consensus.upper()
        planted = []
        for k in (1, 1, 2, 2, 2, 3, 3, 3, 4, 4):
            for rate in (0.35, 0.5, 0.6, 0.7):
                planted.append("".join(plant(rng, weaken(c, rate)) for _ in range(k)))
        rp, op = _digitize(planted)
        r2 = np.concatenate([res, rp]).astype(np.uint8)
        o2 = np.concatenate([off, off[-1] + np.asarray(op[1:], np.int64)]).astype(np.int64)
        ref = np.asarray(_core.filter_scores(p, "viterbi", r2, o2), np.float32)
        xc, fl, crossed, over, ncj = run(p, r2, o2)
        got = nats(xc, ncj)
        good = ~fl
        bad = np.flatnonzero(good & (got != ref))
        print(f"{name} M={M} targets {len(got)} crossed (handed back now) {crossed.sum()} "
              f"flagged {fl.sum()} (of them overflow-safe {over.sum()}) unflagged equal "
              f"{len(bad) == 0} mismatches {len(bad)} {list(zip(got[bad][:3], ref[bad][:3]))}",
              flush=True)
