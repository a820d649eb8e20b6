# Session 64, call 2: the KeyError 'pyhmmer' of call 1's stdin tests, whole: Stockholm (with
# --tformat) and EMBL on a pipe, five runs each, GPU and CPU backends.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w88:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-t
T=.carry/hmmer/examples/tutorial
ls /tmp/site | head -40; find /tmp/site/pyhmmer -maxdepth 2 -type d | head -20
for backend in cuda cpu; do for i in 1 2 3 4 5; do
  cat $T/globins4.sto | python3 -m gpuseq.cli hmmsearch --backend $backend --tformat stockholm --tblout /dev/null -o /dev/null $T/globins4.hmm - > /tmp/err.txt 2>&1; echo "sto $backend $i rc $?"; grep -v "^gpuseq:" /tmp/err.txt | head -60
done; done
python3 -X importtime -c "import pyhmmer.easel" 2>&1 | tail -5
