# Session 45: the S-lane SSV's row loads batched (volatile, ascending: w46) against f08b171
# (w45b): every H for S = 16, 8, 4, 2, same call; then w46's S-lane/NVRTC tests and the slane
# sanitizers side by side.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
for w in w46 w45b; do for S in 16 8 4 2; do R=$([ $S = 16 ] && echo 8-48 || echo 25-48); echo "== $w S $S"; GPUSEQ_CACHE_DIR=/tmp/kc-$w PYTHONPATH=$PWD/.carry/$w:/tmp/site timeout 100 python3 .carry/h_sweep3.py $S $R 0 2>&1 | grep -v Warn; done; echo "at $(( $(date +%s) - S0 )) s"; done > $OUT/batched-loads-sweep.log
echo "sweeps at $(( $(date +%s) - S0 )) s"
for tool in memcheck racecheck; do
  ( GPUSEQ_CACHE_DIR=/tmp/kc-san-$tool PYTHONPATH=$PWD/.carry/w46:/tmp/site SECTIONS=slane timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/$tool-slane-w46.log 2>&1; echo "$tool rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt ) &
done
GPUSEQ_CACHE_DIR=/tmp/kc-w46t PYTHONPATH=$PWD/.carry/w46:/tmp/site timeout 150 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests/test_gpu_multi.py tests/test_gpu_nvrtc.py > $OUT/pytest-multi-nvrtc-w46.log 2>&1; echo "pytest rc $?" >> $OUT/rc.txt
wait
cat $OUT/rc.txt; tail -1 $OUT/pytest-multi-nvrtc-w46.log; for t in memcheck racecheck; do tail -1 $OUT/$t-slane-w46.log; done
echo "all at $(( $(date +%s) - S0 )) s"
