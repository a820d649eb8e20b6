# Session 51, call 1: the systolic hand-back on the CPU twin (wheel .carry/wB = HEAD 94361e2 +
# viterbi_on_cpu / systolic_handback_threads / T = 1 behind the pipeline).
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD/.carry/wB:/tmp/site
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > $OUT/device.txt; nproc >> $OUT/device.txt; grep -m1 "model name" /proc/cpuinfo >> $OUT/device.txt; cat $OUT/device.txt
GPUSEQ_CACHE_DIR=/tmp/kc timeout 200 python3 .carry/hb.py 2>&1 | grep -v Warn | tee $OUT/handback-1.log
(cd tests && GPUSEQ_CACHE_DIR=/tmp/kc timeout 150 python3 -m pytest -q -n 8 -m cuda test_gpu_viterbi_systolic.py test_gpu_viterbi_fused.py -p no:cacheprovider 2>&1 | tail -5) | tee $OUT/pytest-viterbi-1.log
GPUSEQ_CACHE_DIR=/tmp/kc-san SECTIONS=fused timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-fused-1.log 2>&1; echo "memcheck rc $?"; tail -n 2 $OUT/memcheck-fused-1.log
