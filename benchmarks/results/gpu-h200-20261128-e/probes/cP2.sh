# Session 45: is the S-lane SSV at S = 16 slow at H <= 28 because 2-3 blocks share an SM?
# Forced to one block an SM (shared memory padded) in both row orders (w45x: unrolled at S >= 16
# = HEAD; w45xu: the loop with the maximum first for every S).
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
CASES=16:13,16:16,16:18,16:20,16:22,16:24,16:26,16:28,16:29,16:31,16:34,16:38,16:40,8:25,8:28,8:29,4:29
for r in 1 2; do for w in w45x w45xu; do echo "== $w round $r"; GPUSEQ_CACHE_DIR=/tmp/kc-$w PYTHONPATH=$PWD/.carry/$w:/tmp/site timeout 200 python3 .carry/pad_probe.py $CASES 0,120000 2>&1 | grep -v Warn; echo "at $(( $(date +%s) - S0 )) s"; done; done | tee $OUT/pad-probe.log
