# Session 69, call 5: repro406.py for 240 s on .carry/w102 (the one case api_fuzz.py found,
# where the CPU backend gave 4,571 hits and the GPU hmmsearch's 4,596).
set -uo pipefail
export PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --target /tmp/site5 .carry/wh-min/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w102:/tmp/site5:$PWD/tests GPUSEQ_CACHE_DIR=/tmp/kc-f5
timeout 300 python3 -W ignore benchmarks/results/gpu-h200-20261130-f/probes/repro406.py .carry/case406 240 > $OUT/repro406-5.log 2>&1
echo "rc $?"; cut -c1-300 $OUT/repro406-5.log | tail -40
