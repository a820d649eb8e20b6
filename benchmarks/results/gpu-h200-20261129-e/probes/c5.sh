# Session 55, call 5: what the split Viterbi kernel's row barrier costs. w57 against wprobe
# (w57 with probes/no-row-barrier.patch: the barrier a __syncwarp, results then racy), alternated.
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
P=benchmarks/results/gpu-h200-20261129-e/probes/nobarrier.py
for round in 1 2; do
  for w in w57 wprobe; do
    GPUSEQ_CACHE_DIR=/tmp/kc-$w PYTHONPATH=$PWD/.carry/$w:/tmp/site timeout 200 python3 $P $w /tmp/$w.npz 2>&1 | grep -v Warn
  done
done | tee $OUT/no-row-barrier-5.log
python3 - <<'PY' | tee -a $OUT/no-row-barrier-5.log
import numpy as np
a, b = np.load("/tmp/w57.npz"), np.load("/tmp/wprobe.npz")
for k in a.files:
    print(k, "scores equal to w57's:", f"{np.mean(a[k] == b[k]) * 100:.2f}%")
PY
