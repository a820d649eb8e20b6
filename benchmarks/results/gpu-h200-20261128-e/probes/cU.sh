# Next session: (1) the A/B of the row loop without the unrolled group at S >= 16 (w44u:
# kRowsUnrolled = 1 for every S, so the maximum is taken before the row there too; static SASS:
# 134.5 -> 111 instructions a row at S = 16, H = 38, no register moves) against 645161c (w44) at
# the models S >= 16 takes; (2) then, side by side, the sanitizers of 645161c's S-lane SSV (w44)
# and w44u's S-lane tests.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
for r in 1 2; do for w in w44 w44u; do echo "== $w round $r"; GPUSEQ_CACHE_DIR=/tmp/kc-$w PYTHONPATH=$PWD/.carry/$w:/tmp/site timeout 90 python3 .carry/ssv_probe.py 50,71,100,149,200 3 2>&1 | grep -v Warn; done; done | tee $OUT/ssv-loop-ab.log
echo "ab at $(( $(date +%s) - S0 )) s"
for tool in memcheck racecheck; do
  ( GPUSEQ_CACHE_DIR=/tmp/kc-san-$tool PYTHONPATH=$PWD/.carry/w44:/tmp/site SECTIONS=slane timeout 420 compute-sanitizer --tool $tool --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/$tool-slane.log 2>&1; echo "$tool rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt ) &
done
GPUSEQ_CACHE_DIR=/tmp/kc-w44u PYTHONPATH=$PWD/.carry/w44u:/tmp/site timeout 300 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests/test_gpu_multi.py > $OUT/pytest-multi-w44u.log 2>&1; echo "pytest w44u rc $?"; tail -2 $OUT/pytest-multi-w44u.log
wait; cat $OUT/rc.txt; for t in memcheck racecheck; do tail -2 $OUT/$t-slane.log; done; echo "all at $(( $(date +%s) - S0 )) s"
