# Session 53, call 10: the first SSV of a chunk (firstssv.py), 100-model file's first two
# models (M = 149) and the six-model file's first two (RRM_1, globins4), wheel .carry/w53.
set -uo pipefail
P=benchmarks/results/gpu-h200-20261129-c/probes
source $P/data.sh
export GPUSEQ_CACHE_DIR=/tmp/kc-53 PYTHONPATH=$PWD/.carry/w53:/tmp/site
{ python3 $P/firstssv.py $DB $MANY; python3 $P/firstssv.py $DB $SIX; } > $OUT/first-ssv-10.log 2>&1
cat $OUT/first-ssv-10.log
