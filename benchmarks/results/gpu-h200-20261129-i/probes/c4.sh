# Session 59, call 4: a search's first run with a cold NVRTC cache and again warm, session 52's
# probe (../gpu-h200-20261129-b/probes/cold.py: six hmmer-examples models, and 24 models of M
# 50-2400, against 20 M residues), 320eb36 (.carry/w72, one program a model) against a8484e4's
# change (.carry/w74, the SSV and MSV a program apart from the Viterbi kernel), two rounds.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-4.txt
timeout 500 python3 benchmarks/results/gpu-h200-20261129-b/probes/cold.py $PWD/.carry/w72 $PWD/.carry/w74 2 2>&1 | tee $OUT/cold-4.log
