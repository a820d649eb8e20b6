# Session 55, call 6: where four targets a warp and the systolic pipeline overtake two targets a
# warp (a search's choice) as one launch's database grows: the short models' Viterbi rows on
# 20, 30 and 50 M residues (.carry/w57, the committed module).
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w57:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-b
for R in 20e6 30e6 50e6; do
  timeout 170 python3 benchmarks/bench_hmm_filters.py --filters viterbi --models 50,100,150,200 \
    --pfam-models RRM_1,globins4 --residues 1e6 --viterbi-residues $R --thread-models 24 --cpu-residues 0 \
    --repeat 3 --examples .carry/hmmer/examples --out $OUT/bench_viterbi-$R-6.json 2>&1 | grep -v Warn > $OUT/bench_viterbi-$R-6.log
  echo "$R rc $?"; grep -E "fused/T|systolic" $OUT/bench_viterbi-$R-6.log | grep -v GCUPS
done
