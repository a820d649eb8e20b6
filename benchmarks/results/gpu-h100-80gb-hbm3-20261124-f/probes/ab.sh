#!/usr/bin/env bash
# A/B of the working tree against HEAD's gpu_filters: 100-model CLI processes, alternated.
export PATH="$PWD/.carry/hmmer/bin:$PATH" PYTHONUNBUFFERED=1 PYTHONPATH=/tmp/gpuseq:/tmp/site
DB=$(ls -d /tmp/bench/db-1400000-*/targets.gsdb | head -1); MANY=$(ls /tmp/bench/models/globins4-*-x100.hmm | head -1)
echo "db $DB many $MANY"
build() { python3 -m pip install -q --no-build-isolation --no-deps --target /tmp/gpuseq$1 \
  -Ccmake.define.GPUSEQ_CUDA=ON -Ccmake.define.CMAKE_CUDA_ARCHITECTURES=90a -Cbuild-dir=/tmp/gpuseq-build$1 . > /tmp/build$1.log 2>&1; echo "built $1 rc=$?"; tail -3 /tmp/build$1.log; }
cli() { python3 -c "
import subprocess, sys, time, os
env = dict(os.environ, PYTHONPATH='/tmp/gpuseq$1:/tmp/site')
t = time.perf_counter()
subprocess.run([sys.executable, '-m', 'gpuseq.cli', 'hmmsearch', '--cpu', '16', '--noali', '--tblout', '/tmp/ab$1.tbl', '-o', '/tmp/ab$1.out', '--backend', 'cuda', '--no-progress', '$MANY', '$DB'], env=env, check=True)
print('variant [$1]:', round(time.perf_counter() - t, 3), 's')
"; }

git apply -R .carry/msv.patch && build -head && git apply .carry/msv.patch && echo "patch restored"
for r in 1 2 3; do cli ""; cli -head; done
cmp <(grep -v "^#" /tmp/ab.tbl) <(grep -v "^#" /tmp/ab-head.tbl) && echo "tblout equal"
