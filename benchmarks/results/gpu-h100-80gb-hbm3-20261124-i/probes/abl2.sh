#!/usr/bin/env bash
# SSV A/B (lay_probe with the S-lane SSV), then the 100-model command alternated (builds from abl.sh).
export PYTHONUNBUFFERED=1 PATH="$PWD/.carry/hmmer/bin:$PATH"
for r in 1 2; do
  for v in "" -head; do echo "== build [$v] round $r"; PYTHONPATH=/tmp/gpuseq$v:/tmp/site python3 .carry/lay_probe.py 2>&1 | grep -v Warn; done
done
PYTHONPATH=/tmp/gpuseq:/tmp/site timeout 300 python3 benchmarks/bench_hmmsearch.py --examples-dir .carry/hmmer/examples --workdir /tmp/bench \
  --cpu 16 --seqs 1400000 --many-models 100 --repeat 1 --skip hmmsearch,hmmsearch_many,pyhmmer --out /tmp/b.json > $OUT/bench-gen.log 2>&1; echo "bench rc=$?"; tail -12 $OUT/bench-gen.log
DB=$(ls -d /tmp/bench/db-1400000-*/targets.gsdb | head -1); MANY=$(ls /tmp/bench/models/globins4-*-x100.hmm | head -1)
cli() { python3 -c "
import subprocess, sys, time, os
env = dict(os.environ, PYTHONPATH='/tmp/gpuseq$1:/tmp/site')
t = time.perf_counter()
subprocess.run([sys.executable, '-m', 'gpuseq.cli', 'hmmsearch', '--cpu', '16', '--noali', '--tblout', '/tmp/ab$1.tbl', '-o', '/tmp/ab$1.out', '--backend', 'cuda', '--no-progress', '$MANY', '$DB'], env=env, check=True)
print('variant [$1]:', round(time.perf_counter() - t, 3), 's')
"; }
for r in 1 2 3 4 5; do cli ""; cli -head; done
cmp <(grep -v "^#" /tmp/ab.tbl) <(grep -v "^#" /tmp/ab-head.tbl) && echo "tblout equal"
