export PYTHONPATH=/tmp/gpuseq:/tmp/site PYTHONUNBUFFERED=1
t=$(date +%s); timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-whole.log 2>&1
echo "memcheck rc $? $(( $(date +%s) - t )) s"; tail -3 $OUT/memcheck-whole.log
