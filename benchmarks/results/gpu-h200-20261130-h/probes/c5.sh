# Session 71, call 5: the threads of a real gpuseq hmmsearch command (GPU backend) where it calls
# os._exit, with OPENBLAS_NUM_THREADS unset (the command sets it to 1 before NumPy loads), 1 and
# 16 (OpenBLAS's pool then runs: the probe sees its threads).
set -uo pipefail
tar xJf .carry/w107.tar.xz -C .carry
python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wh-min/*.whl 2>&1 | tail -2
EX=.carry/hmmer/examples/tutorial
for e in "" "OPENBLAS_NUM_THREADS=1" "OPENBLAS_NUM_THREADS=16"; do
  env $e PYTHONPATH=$PWD/.carry/w107:/tmp/site python3 -c "
import os, sys
real_exit = os._exit
def probe(code):
    names = [open(f'/proc/self/task/{t}/comm').read().strip() for t in os.listdir('/proc/self/task')]
    print('env', os.environ.get('OPENBLAS_NUM_THREADS'), 'threads', len(names), sorted(set(names)), file=sys.stderr)
    real_exit(code)
os._exit = probe
sys.argv = ['gpuseq', 'hmmsearch', '--cpu', '16', '--backend', 'cuda', '--no-progress', '--tblout', '/tmp/x.tbl', '-o', '/dev/null', '$EX/globins4.hmm', '$EX/globins45.fa']
from gpuseq import cli
sys.exit(cli.main())
"
done 2>&1 | tee $OUT/threads-5.log
