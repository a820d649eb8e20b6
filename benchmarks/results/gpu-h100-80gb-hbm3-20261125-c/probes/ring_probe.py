import numpy as np, time, sys
sys.path.insert(0,'tests')
from gpuseq import _core, blast
rng=np.random.default_rng(5)
AMINO=np.array(list("ACDEFGHIKLMNPQRSTVWY"))
R=np.array([78.05,19.25,53.64,62.95,38.56,73.77,21.99,51.42,57.44,90.19,22.43,44.87,52.03,42.64,51.29,71.20,58.41,64.41,13.30,32.16]);p=R/R.sum()
prot=lambda n:"".join(rng.choice(AMINO,n,p=p))
recs=[(f"s{i}",prot(int(rng.integers(50,701)))) for i in range(20000)]
for L in (100,500,1000):
    q=prot(L)
    rs=list(recs)
    for ident in (0.9,0.7,0.5,0.4,0.3):
        keep=rng.random(L)<ident
        rs.append(("h",prot(50)+"".join(c if k else prot(1) for c,k in zip(q,keep))+prot(50)))
    codes,offsets,_=blast.encode(rs)
    qc=blast.encode([("q",q)])[0]
    rows,_=_core.blast_ungapped_hsps(qc,codes,offsets,16,38)
    args=(qc,codes,offsets,rows["subject"],rows["q_start"],rows["s_start"],rows["length"],38)
    t=time.time(); full=_core.blast_seed_extensions(*args); t=time.time()-t
    out=[f"L={L} hsps={len(rows['score'])} cpu {t:.3f}s"]
    for rows_ in (64,128,256,512):
        d=_core.blast_seed_extensions(*args,ring_columns=128,max_rows=rows_)["done"]
        out.append(f"rows{rows_}: not done {int((d==0).sum())}")
    print(*out, "max score", full["score"].max())
