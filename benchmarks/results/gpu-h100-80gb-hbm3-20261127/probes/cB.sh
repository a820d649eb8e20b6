# Session 38, call B: the D->D floors apart (this tree) against HEAD's tables (base), one host.
wait_base() { while [ ! -f /tmp/base.done ]; do sleep 2; done; cat /tmp/base.done; }
t=$(date +%s)
TEST_S=200 timeout 200 python3 -m pytest -q -ra -p no:cacheprovider -n 8 tests/test_gpu_viterbi_fused.py tests/test_gpu_filters.py tests/test_gpu_walters.py > $OUT/pytest-fused.log 2>&1
echo "pytest rc $? $(( $(date +%s) - t )) s"; tail -4 $OUT/pytest-fused.log
for tool in memcheck racecheck; do
  SECTIONS=fused timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/$tool-fused.log 2>&1
  echo "$tool rc $?"; tail -2 $OUT/$tool-fused.log
done
timeout 60 python3 benchmarks/sweep_warp_stripes.py --exact --first 41 --last 48 > $OUT/sweep_exact_41_48.log 2>&1; echo "sweep rc $?"; cat $OUT/sweep_exact_41_48.log
wait_base
for round in 1 2; do
  echo "== base (HEAD: D->D words and floors interleaved), round $round"; XDG_CACHE_HOME=/tmp/cache-base PYTHONPATH=/tmp/gpuseq-base:/tmp/site timeout 100 python3 .carry/vit_ab.py
  echo "== this tree (floors apart), round $round"; PYTHONPATH=/tmp/gpuseq:/tmp/site timeout 100 python3 .carry/vit_ab.py
done
