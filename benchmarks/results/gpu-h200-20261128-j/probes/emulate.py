# Numpy emulation of the systolic Viterbi filter's arithmetic (not its schedule): 16-bit
# wrapping words, xB constant, fake -inf F for the first row and the node-0 edge, P padding
# nodes in front of node 1, no floors. Checks, on unflagged targets, xC equal to the package's
# CPU Viterbi filter. Usage: python emulate.py [M ...]
import sys
import numpy as np
sys.path.insert(0, "benchmarks")
from bench_hmm_filters import model, random_database  # noqa: E402
from gpuseq import _core  # noqa: E402

KP = 29


def tables(p, P):
    """Per padded node g = 0..P+M-1 (node k = g - P + 1): the kernel's words, and F."""
    M = p.M
    t = {k: np.asarray(v, np.int32) for k, v in p.viterbi_transitions.items()}
    e = np.asarray(p.viterbi_emissions, np.int32)  # (29, M)
    assert e.shape == (KP, M), e.shape
    n = P + M
    w = {k: np.zeros(n, np.int32) for k in ("B", "MM", "IM", "DM", "MI", "II", "MD", "DD")}
    w["B"][:P] = -32768
    real = slice(P, P + M)
    w["B"][real] = t["BM"]
    w["MM"][real] = t["MM"]
    w["IM"][real] = t["IM"]
    w["DM"][real] = t["DM"]
    w["MI"][real] = t["MI"]
    w["II"][real] = t["II"]
    # into D_k from node k-1: MD/DD out of node k-1 (Python tables are out-of-node)
    w["MD"][P + 1:P + M] = t["MD"][:M - 1]
    w["DD"][P + 1:P + M] = t["DD"][:M - 1]
    # sources always -inf in HMMER: into node 1; out of D_1 (DM, DD into node 2); out of node M
    for k in ("MM", "IM", "DM", "MD", "DD"):
        w[k][P] = 0
    if M >= 2:
        w["DM"][P + 1] = 0
        w["DD"][P + 1] = 0
    w["MI"][P + M - 1] = 0
    w["II"][P + M - 1] = 0
    E = np.zeros((KP, n), np.int32)
    E[:, real] = e
    weak = (e == -32768).any(axis=1)
    # lowest real value (less X) and the fake level F
    el = int(e[~weak].min()) if (~weak).any() else 0
    el = min(el, 0)
    def least(a, frm=0):
        a = a[frm:]
        return min(0, int(a.min())) if len(a) else 0
    b = least(t["BM"])
    m = b + el
    mi_l = least(t["MI"][:M - 1])
    ii_l = least(t["II"][:M - 1])
    i = m + mi_l
    d = m + least(t["MD"][:M - 1], 0) if M >= 2 else m
    lowest = min(b, m, m + least(t["MM"], 1), i, i + least(t["IM"], 1), i + ii_l, d,
                 d + least(t["DM"], 2), d + least(t["DD"][:M - 1], 1))
    # fakes: F + min(MI, II) + min(IM, II) >= -32768
    one = min(least(t["MM"], 1), least(t["IM"], 1), least(t["DM"], 2), mi_l, ii_l,
              least(t["MD"][:M - 1], 0), least(t["DD"][:M - 1], 1))
    f = -32768 - min(one, min(mi_l, ii_l) + min(least(t["IM"], 1), ii_l))
    return w, E, weak, lowest, f


def emulate(p, residues, offsets, P):
    M = p.M
    w, E, weak, lowest, F = tables(p, P)
    n = len(offsets) - 1
    L = np.diff(offsets)
    ncj = np.array([_core.SearchProfile.ncj_move_w(int(x)) for x in L], np.int32)
    X = 12000 + ncj
    ok = (X + lowest >= -32768) & (X + lowest > F) & (lowest > -32768)
    s16 = lambda a: ((a + 32768) & 0xFFFF) - 32768  # noqa: E731
    Lmax = int(L.max())
    pad_seq = np.zeros((n, Lmax), np.int64)
    for j in range(n):
        pad_seq[j, :L[j]] = residues[offsets[j]:offsets[j + 1]]
    G = P + M
    Mp = np.full((n, G), F, np.int32)
    Ip = Mp.copy()
    Dp = Mp.copy()
    xe_max = np.full(n, -32768, np.int32)
    for r in range(Lmax):
        live = r < L
        x = pad_seq[:, r]
        e = E[x]  # (n, G)
        Mc = np.empty_like(Mp)
        Ic = np.empty_like(Mp)
        Dc = np.empty_like(Mp)
        ml = np.full(n, F, np.int32)
        dl = np.full(n, F, np.int32)
        md = np.full(n, F, np.int32)
        idg = np.full(n, F, np.int32)
        dd = np.full(n, F, np.int32)
        for g in range(G):
            c = s16(X + w["B"][g])
            c = np.maximum(s16(md + w["MM"][g]), c)
            c = np.maximum(s16(idg + w["IM"][g]), c)
            c = np.maximum(s16(dd + w["DM"][g]), c)
            mc = s16(c + e[:, g])
            ic = np.maximum(s16(Ip[:, g] + w["II"][g]), s16(Mp[:, g] + w["MI"][g]))
            dc = np.maximum(s16(dl + w["DD"][g]), s16(ml + w["MD"][g]))
            Mc[:, g], Ic[:, g], Dc[:, g] = mc, ic, dc
            md, idg, dd = Mp[:, g], Ip[:, g], Dp[:, g]
            ml, dl = mc, dc
        xe = Mc.max(axis=1)
        xe_max = np.where(live, np.maximum(xe_max, xe), xe_max)
        Mp, Ip, Dp = Mc, Ic, Dc
    xc = xe_max + int(p.e_move_w)
    flagged = (xc > 12000) | ~ok
    return xc, flagged, ncj


def nats(xc, ncj):
    sc = ((xc.astype(np.float32) + ncj.astype(np.float32)) - np.float32(12000)) / np.float32(
        _core.SearchProfile.scale_w)
    return sc - np.float32(3.0)


if __name__ == "__main__":
    Ms = [int(a) for a in sys.argv[1:]] or [50, 71]
    res, off = random_database(2e5, 350, 5)
    for M in Ms:
        p = model(M, M)
        ref = np.asarray(_core.filter_scores(p, "viterbi", res, off), np.float32)
        for P in (0, 7, 14):
            xc, fl, ncj = emulate(p, res, off, P)
            got = nats(xc, ncj)
            good = ~fl
            eq = np.array_equal(got[good], ref[good])
            bad = np.flatnonzero(good & (got != ref))
            print(f"M={M} P={P} targets {len(fl)} flagged {fl.sum()} equal_unflagged={eq} "
                  f"mismatch {len(bad)} {list(zip(got[bad][:3], ref[bad][:3]))}", flush=True)
