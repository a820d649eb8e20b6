# Session 48 call 2: S = 16 at H 44-56 against S = 8 (probe wheel .carry/w48a: exact H <= 56).
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
export PYTHONPATH=$PWD/.carry/w48a:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-48a
# warm the NVRTC cache in parallel (one process a few M)
for part in "176,180,184,188" "192,196,200,204" "208,212,216,220" "224,232,240,248"; do
  timeout 200 python3 .carry/p48/s16_probe.py $part 16,8 > $OUT/warm-${part//,/_}.log 2>&1 &
done; wait; echo "warm at $(( $(date +%s) - S0 )) s"
for r in 1 2; do timeout 200 python3 .carry/p48/s16_probe.py 176,180,184,188,192,196,200,204,208,212,216,220,224,232,240,248 16,8; done > $OUT/s16-past-48.log 2>&1
echo "all at $(( $(date +%s) - S0 )) s"
