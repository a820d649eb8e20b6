# Session 47, call 2: the split Viterbi with streamed stripes (Q > 16 a warp): its tests, and GCUPS
# of one warp, W = 2 (default residency and PROBE_SPLIT_R = 6..12), W = 3, W = 4 at M 2049-4096. Wheel .carry/w47b.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD/.carry/w47b:/tmp/site
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
( GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 300 python3 -m pytest -n 6 -q -ra -p no:cacheprovider -m cuda tests/test_gpu_viterbi_fused.py tests/test_gpu_nvrtc.py > $OUT/pytest.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt ) &
ML="2049 2200 2400 2600 2816 3000 3500 4096"; MR="2049 2200 2400 2600 2816 3000"
warm() { # label W R Ms
  local d=""; [ "$3" != 0 ] && d="-DPROBE_SPLIT_R=$3"
  GPUSEQ_NVRTC_PROBE_DEFINES="$d" GPUSEQ_CACHE_DIR=/tmp/kc-$1 VIT_W=$2 VIT_M="$4" VIT_PFAM="" timeout 200 python3 .carry/vprobe.py $1 warm > $OUT/warm-$1.log 2>&1
}
warm W1 1 0 "$ML" & warm W2 2 0 "$ML" & warm W3 3 0 "$ML" & warm W4 4 0 "$ML" &
for R in 6 8 10 12; do warm W2R$R 2 $R "$MR" & done
wait
cat $OUT/rc.txt; tail -3 $OUT/pytest.log; grep -E "^(FAILED|ERROR)" $OUT/pytest.log | head; echo "warm at $(( $(date +%s) - S0 )) s"; grep -h skip $OUT/warm-*.log | head
run() { local d=""; [ "$3" != 0 ] && d="-DPROBE_SPLIT_R=$3"
  GPUSEQ_NVRTC_PROBE_DEFINES="$d" GPUSEQ_CACHE_DIR=/tmp/kc-$1 VIT_W=$2 VIT_M="$4" VIT_PFAM="" EQ=$5 timeout 100 python3 .carry/vprobe.py $1 run 2>&1 | grep -v Warn; }
for r in 1 2; do e=$([ $r = 1 ] && echo 1 || echo 0)
  run W1 1 0 "$ML" $e; run W2 2 0 "$ML" $e; run W3 3 0 "$ML" $e; run W4 4 0 "$ML" $e
  for R in 6 8 10 12; do run W2R$R 2 $R "$MR" $e; done
done > $OUT/split-streamed.log
echo "all at $(( $(date +%s) - S0 )) s"; sort -t= -k2 -n -s $OUT/split-streamed.log | awk '{print}' | sort -k3,3 -s | head -120
