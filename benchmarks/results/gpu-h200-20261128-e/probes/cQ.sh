# Session 45: 645161c (w44) against the S-lane rows as a loop for every S with one block an SM
# at S = 16 and the new slow counts (w45): S = 16 sweep x2, models as a search runs them
# (alternated x2), the GPU tests and the slane sanitizers of w45, the 100-model command A/B.
set -uo pipefail
source .carry/data.sh
S0=$(date +%s)
for r in 1 2; do GPUSEQ_CACHE_DIR=/tmp/kc-45 PYTHONPATH=$PWD/.carry/w45:/tmp/site timeout 200 python3 .carry/h_sweep3.py 16 8-48 0 2>&1 | grep -v Warn; done > $OUT/s16-h-sweep.log
echo "sweep at $(( $(date +%s) - S0 )) s"
for r in 1 2; do for w in 44 45; do echo "== w$w round $r"; GPUSEQ_CACHE_DIR=/tmp/kc-$w PYTHONPATH=$PWD/.carry/w$w:/tmp/site timeout 200 python3 .carry/models_probe.py 2>&1 | grep -v Warn; done; done > $OUT/models-ab.log
echo "models at $(( $(date +%s) - S0 )) s"
for tool in memcheck racecheck; do
  ( GPUSEQ_CACHE_DIR=/tmp/kc-san-$tool PYTHONPATH=$PWD/.carry/w45:/tmp/site SECTIONS=slane timeout 300 compute-sanitizer --tool $tool --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/$tool-slane.log 2>&1; echo "$tool rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt ) &
done
GPUSEQ_CACHE_DIR=/tmp/kc-45t PYTHONPATH=$PWD/.carry/w45:/tmp/site timeout 300 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests/test_gpu_multi.py tests/test_gpu_nvrtc.py tests/test_gpu_filters.py > $OUT/pytest-multi-nvrtc-filters.log 2>&1; echo "pytest rc $?" >> $OUT/rc.txt
wait
echo "tests at $(( $(date +%s) - S0 )) s"
cli 44 $MANY warm > /dev/null; cli 45 $MANY warm > /dev/null
for i in 1 2 3 4 5; do for w in 44 45; do cli $w $MANY many; done; done 2>&1 | tee $OUT/many-ab.log
cmp -s <(grep -v "^#" /tmp/ab44.tbl) <(grep -v "^#" /tmp/ab45.tbl) && cmp -s <(grep -v "^#" /tmp/ab44.out) <(grep -v "^#" /tmp/ab45.out) && echo "many: outputs equal" | tee -a $OUT/rc.txt || echo "many: outputs DIFFER" | tee -a $OUT/rc.txt
cat $OUT/rc.txt; tail -1 $OUT/pytest-multi-nvrtc-filters.log; for t in memcheck racecheck; do tail -1 $OUT/$t-slane.log; done
echo "all at $(( $(date +%s) - S0 )) s"
