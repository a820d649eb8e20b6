# Session 59, call 3: call 2's SSV and MSV rows again (its logs did not come back: more files
# than a call returns), 320eb36 (.carry/w72, the SSV and MSV in the Viterbi kernel's program,
# at level 0 up to M = 2816) and the change (.carry/w74, a program of their own at the
# default), alternated, three rounds; one log.
set -uo pipefail
export PYTHONUNBUFFERED=1
S0=$(date +%s)
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-3.txt
for round in 1 2 3; do
  for v in w72 w74; do
    echo "== $v round $round"
    PYTHONPATH=$PWD/.carry/$v:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-s$v timeout 90 python3 benchmarks/bench_hmm_filters.py \
      --filters ssv,msv --models 2176,2400,2688,2816,3840,4096 --pfam-models "" --cpu-residues 0 --repeat 3 \
      --out /tmp/ssvmsv-$v.json 2>&1 | grep -v Warn | grep -E "^ +[0-9]+ +sampled +(ssv|msv) +16 +warp +True"
    echo "rc $? at $(( $(date +%s) - S0 )) s"
  done
done > $OUT/ssv-msv-3.log
cat $OUT/ssv-msv-3.log
