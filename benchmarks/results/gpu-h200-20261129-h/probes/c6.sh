# Session 58, call 6: call 5's SSV and MSV rows of the change (.carry/w69), whose log did not
# come back from call 5; HEAD's rows (.carry/w68) again beside them.
set -uo pipefail
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
for v in w69 w68; do
  PYTHONPATH=$PWD/.carry/$v:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-s$v timeout 60 python3 benchmarks/bench_hmm_filters.py \
    --filters ssv,msv --models 2176,2400,2688 --pfam-models "" --cpu-residues 0 --repeat 3 \
    --out /tmp/ssvmsv-$v.json 2>&1 | grep -v Warn | grep -E "^ +[0-9]+ " | grep " 16 " | sed "s/^/$v /"
done | tee $OUT/ssv-msv-6.log
