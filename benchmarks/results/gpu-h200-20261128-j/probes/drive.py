# Drives the systolic prototype: tables for (G, B), target pairs, runs ./sysvit, checks xC of
# unflagged targets against the package's CPU Viterbi filter, prints GCUPS beside the fused
# kernel's (if a GPU and the package's CUDA build are there).
# env: SYS_M "50 71 ...", SYS_PFAM "RRM_1 ...", SYS_RES residues (10e6), SYS_CFG "G:B ..." or auto
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, "benchmarks")
sys.path.insert(0, str(Path(__file__).parent))
from bench_hmm_filters import model, pfam_model, random_database  # noqa: E402
from emulate import KP, nats, tables  # noqa: E402

from gpuseq import _core  # noqa: E402

BIN = str(Path(__file__).parent / "sysvit")
PAIR = np.dtype([("res_off", "<i8"), ("Lp", "<i4"), ("Lhi", "<i4"), ("t_lo", "<i4"),
                 ("t_hi", "<i4"), ("xb2", "<u4"), ("pad", "<i4")])


def pack(lo, hi):
    return (np.asarray(lo, np.int64) & 0xFFFF) | ((np.asarray(hi, np.int64) & 0xFFFF) << 16)


def write_inputs(d, p, res, off, G, B):
    M = p.M
    P = G * B - M
    assert P >= 0
    w, E, weak, lowest, F = tables(p, P)
    order = ["B", "MM", "IM", "DM", "MI", "II", "MD", "DD"]
    tr = np.stack([pack(w[k], w[k]) for k in order], axis=1).astype(np.uint32)  # (G*B, 8)
    tr.tofile(f"{d}/trans.bin")
    Bp = (B + 3) // 4 * 4
    em = np.zeros((KP, 32, Bp), np.int16)
    for lane in range(32):
        if lane // G >= 32 // G:
            continue
        gl = lane % G
        em[:, lane, :B] = E[:, gl * B:(gl + 1) * B]
    em.tofile(f"{d}/emis.bin")
    L = np.diff(off)
    n = len(L)
    ncj = np.array([_core.SearchProfile.ncj_move_w(int(x)) for x in L], np.int32)
    X = 12000 + ncj
    ok = (X + lowest >= -32768) & (X + lowest > F) & (lowest > -32768)
    weak_codes = np.flatnonzero(weak)
    has_weak = np.array([np.isin(res[off[j]:off[j + 1]], weak_codes).any() for j in range(n)])
    ok &= ~has_weak
    order_t = np.argsort(-L, kind="stable")
    npairs = (n + 1) // 2
    pairs = np.zeros(npairs, PAIR)
    chunks = []
    pos = 0
    for q in range(npairs):
        a = order_t[2 * q]
        b = order_t[2 * q + 1] if 2 * q + 1 < n else -1
        La = int(L[a])
        Lb = int(L[b]) if b >= 0 else 0
        r2 = np.zeros(La, np.uint16)
        r2[:] = res[off[a]:off[a + 1]]
        if b >= 0:
            r2[:Lb] |= res[off[b]:off[b + 1]].astype(np.uint16) << 8
        chunks.append(r2)
        pairs[q] = (pos, La, Lb, a, b, int(pack(X[a], X[b] if b >= 0 else X[a])), 0)
        pos += La
    pairs.tofile(f"{d}/pairs.bin")
    np.concatenate(chunks).tofile(f"{d}/res2.bin")
    cells = int(L.sum()) * M
    np.array([npairs, n, int(pack(F, F)), int(p.e_move_w), cells], np.int64).tofile(f"{d}/meta.bin")
    return ok, ncj


def configs(M):
    env = os.environ.get("SYS_CFG", "auto")
    if env != "auto":
        return [tuple(int(x) for x in c.split(":")) for c in env.split()]
    out = []
    built = (2, 3, 4, 5, 6, 7, 8, 10, 12)
    for G in (32, 16, 8):
        need = -(-M // G)
        B = next((b for b in built if b >= need), None)
        if B is not None:
            out.append((G, B))
    return out


def main():
    res, off = random_database(float(os.environ.get("SYS_RES", "10e6")), 350, 2)
    nslice = int(os.environ.get("SYS_CHECK", "3000"))
    cases = [(f"sampled{M}", lambda M=M: model(M, M)) for M in map(int, os.environ.get("SYS_M", "50 100 129 150").split())]
    for name in os.environ.get("SYS_PFAM", "RRM_1 fn3 Caudal_act globins4").split():
        cases.append((name, lambda name=name: pfam_model(name, Path(".carry/hmmer/examples"))[1]))
    gpu = os.environ.get("SYS_FUSED", "1") == "1"
    if gpu:
        targets = _core.GpuTargets(res, off)
    for name, make in cases:
        p = make()
        M = p.M
        ref = np.asarray(_core.filter_scores(p, "viterbi", res[:off[nslice]], off[:nslice + 1]), np.float32)
        line = f"{name:>12} M={M:4d}"
        if gpu:
            gp = _core.GpuProfile(p, 0, "warp_fused", 0, runtime_compiled=True)
            g = M * int(off[-1]) / _core.gpu_filter_kernel_seconds(gp, targets, "viterbi", repeats=5) / 1e9
            line += f" fused T={gp.viterbi_targets_per_warp} Q={gp.viterbi_stripes} {g:7.1f}"
        print(line, flush=True)
        for G, B in configs(M):
            with tempfile.TemporaryDirectory() as d:
                ok, ncj = write_inputs(d, p, res, off, G, B)
                for threads, pf in [(t, f) for t in os.environ.get("SYS_THREADS", "256").split()
                                    for f in os.environ.get("SYS_PFS", "0 1").split()]:
                    r = subprocess.run([BIN, d, str(B), str(G), "5"], capture_output=True, text=True,
                                       env=dict(os.environ, SYS_THREADS=threads, SYS_PF=pf))
                    if r.returncode:
                        print("   ", r.stderr.strip())
                        continue
                    xc = np.fromfile(f"{d}/xc.bin", np.int32)
                    flagged = (xc > 12000) | ~ok
                    got = nats(xc[:nslice], ncj[:nslice])
                    good = ~flagged[:nslice]
                    bad = np.flatnonzero(good & (got != ref))
                    print(f"    P={G * B - M:3d} {r.stdout.strip()}  flagged {flagged.mean() * 100:.2f}%  "
                          f"checked {good.sum()} mismatches {len(bad)}", flush=True)


if __name__ == "__main__":
    main()
