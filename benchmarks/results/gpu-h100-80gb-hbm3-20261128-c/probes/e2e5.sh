set -uo pipefail
source .carry/data.sh
for r in 1 2 3; do for L in LAZY EAGER; do CUDA_MODULE_LOADING=$L GPUSEQ_CACHE_DIR=/tmp/kc-n PYTHONPATH=$PWD/.carry/wn:/tmp/site timeout 60 python3 .carry/first2.py n $DB $SIX; done; done 2>&1 | tee $OUT/first2.log
