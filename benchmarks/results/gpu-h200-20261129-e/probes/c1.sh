# Session 55, call 1: the Viterbi kernels' GCUPS on a 10 M- and a 100 M-residue database, the
# same models, one run each (HEAD's module, .carry/w56).
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD/.carry/w56:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-56
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device.txt
for R in 10e6 100e6; do
  S=$(date +%s)
  timeout 280 python3 benchmarks/bench_hmm_filters.py --filters viterbi --models 50,100,129,150,200,1400,2048,2400,3000 \
    --pfam-models RRM_1,Caudal_act,globins4 --residues 1e6 --viterbi-residues $R --thread-models 50 --cpu-residues 0 \
    --repeat 3 --examples .carry/hmmer/examples --out $OUT/bench_viterbi-$R-1.json 2>&1 | grep -v Warn > $OUT/bench_viterbi-$R-1.log
  echo "$R rc $? in $(( $(date +%s) - S )) s"
done
