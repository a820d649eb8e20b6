set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
DB=$(ls -d /tmp/bench/db-1400000-*/targets.gsdb | head -1); SIX=/tmp/bench/queries.hmm
for w in o p; do GPUSEQ_CACHE_DIR=/tmp/kc-$w PYTHONPATH=$PWD/.carry/w$w:/tmp/site timeout 90 python3 .carry/first.py $w $DB $SIX; done 2>&1 | tee $OUT/first-six.log
for w in o p; do PYTHONPATH=$PWD/.carry/w$w:/tmp/site python3 -c "
import time; t=time.perf_counter(); from gpuseq import _core; a=time.perf_counter(); i=_core.nvrtc_info(); b=time.perf_counter(); print('$w import', round(a-t,3), 'nvrtc_info', round(b-a,3), i)"; done 2>&1 | tee -a $OUT/first-six.log
ls -la /tmp/kc-o /tmp/kc-p | tee -a $OUT/first-six.log
