"""Session 66: the cost of one packed search in small chunks on the GPU, in process:
globins4.hmm against globins45.fa packed with makedb, searched N times in chunks of 700
residues (11 chunks: a cascade pool a chunk before the fix, kept threads after). Prints the
median and the mean seconds a search. argv: N."""

import os
import statistics
import sys
import tempfile
import time

import gpuseq

EX = os.environ["GPUSEQ_HMMER_EXAMPLES"]
HMM, FA = f"{EX}/tutorial/globins4.hmm", f"{EX}/tutorial/globins45.fa"
with tempfile.TemporaryDirectory() as tmp:
    db = gpuseq.makedb(FA, os.path.join(tmp, "db.gsdb"), block_bytes=700)
    gpuseq.hmmsearch(HMM, gpuseq.open_database(db), cpus=2, block_bytes=700)  # warm
    times = []
    for _ in range(int(sys.argv[1])):
        t = time.perf_counter()
        res = gpuseq.hmmsearch(HMM, gpuseq.open_database(db), cpus=2, block_bytes=700)
        times.append(time.perf_counter() - t)
    print(f"{len(times)} searches, {len(res.hits)} hits: median {statistics.median(times) * 1e3:.1f} "
          f"ms, mean {statistics.mean(times) * 1e3:.1f} ms", flush=True)
