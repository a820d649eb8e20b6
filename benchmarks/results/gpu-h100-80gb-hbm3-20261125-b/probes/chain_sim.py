# How often the fused Viterbi's lazy-F vote fires and how often the cross-half scan is needed,
# on random targets (bench database lengths), sampled vs tutorial models. int arithmetic with
# saturation at -32768 (no upper handling: random targets do not overflow).
import sys, numpy as np
sys.path.insert(0, "benchmarks")
from bench_hmm_filters import model, random_database
from gpuseq.hmm import search_profile
from pyhmmer.plan7 import HMMFile
from gpuseq import _core
def sim(p, Q, seqs):
    t0 = {k: np.asarray(v, np.int64) for k, v in p.viterbi_transitions.items()}
    into = lambda v: np.concatenate(([-32768], v[:-1]))
    t = dict(mm=t0["MM"], im=t0["IM"], dm=t0["DM"], begin=t0["BM"], mi=t0["MI"], ii=t0["II"], md_into=into(t0["MD"]), dd_into=into(t0["DD"]))
    E = np.asarray(p.viterbi_emissions, np.int64); M = E.shape[1]
    ddb = p.ddbound_w; em = p.e_move_w
    sat = lambda v: np.maximum(v, -32768)
    rows = fired = scans = 0
    seg = Q  # nodes per half segment
    for s in seqs:
        L = len(s); ncj = _core.SearchProfile.ncj_move_w(L)
        Mr = np.full(M, -32768); Ir = Mr.copy(); Dr = Mr.copy()
        xN = 12000; xB = xN + ncj; xJ = xC = -32768
        for x in s:
            sh = lambda v: np.concatenate(([-32768], v[:-1]))
            Mn = np.maximum.reduce([sat(sh(Mr) + t["mm"]), sat(sh(Ir) + t["im"]), sat(sh(Dr) + t["dm"]), sat(xB + t["begin"])])
            Mn = sat(Mn + E[x])
            In = np.maximum(sat(Mr + t["mi"]), sat(Ir + t["ii"]))
            Dn = sat(sh(Mn) + t["md_into"])
            xE = Mn.max()
            xC = max(xC, xE + em); xJ = max(xJ, xE + em); xB = max(xJ, xN) + ncj
            rows += 1
            if Dn.max() + ddb > xB:
                fired += 1
                # within-segment chains, then check one-hop raises
                D1 = Dn.copy()
                for k in range(1, M):
                    if k % seg: D1[k] = max(D1[k], sat(D1[k-1] + t["dd_into"][k]))
                raise_ = any(k % seg == 0 and sat(D1[k-1] + t["dd_into"][k]) > D1[k] for k in range(1, M))
                scans += raise_
                for k in range(1, M): Dn[k] = max(Dn[k], sat(Dn[k-1] + t["dd_into"][k]))
            Mr, Ir, Dr = Mn, In, Dn
    return rows, fired, scans
rng = np.random.default_rng(1)
res, off = random_database(30000, 350, 2)
seqs = [res[off[i]:off[i+1]] for i in range(len(off)-1)][:60]
cases = [("sampled", model(M, M)) for M in (150, 640)]
for n in ("globins4", "Pkinase", "fn3"):
    with HMMFile(f"/usr/share/doc/hmmer/examples/tutorial/{n}.hmm") as f: cases.append((n, search_profile(next(iter(f)))))
for name, p in cases:
    M = p.M; Q = max((M - 1) // 64 + 1, 2)
    r, f, s = sim(p, Q, seqs)
    print(f"{name:10s} M={M:5d} Q={Q:2d} rows {r} vote fired {f/r:.2%} scan needed {s/r:.2%} ddbound {p.ddbound_w}")
