# Session 42, call 4: where the 100-model cascades' time goes (in process, no downstream).
set -uo pipefail
source .carry/data.sh
export GPUSEQ_CACHE_DIR=/tmp/kc-h PYTHONPATH=$PWD/.carry/wh:/tmp/site
timeout 240 python3 .carry/many_phases.py $DB $MANY 2>&1 | tee $OUT/many-phases.log
timeout 120 python3 .carry/many_phases.py $DB $SIX 2>&1 | tee $OUT/six-phases.log
