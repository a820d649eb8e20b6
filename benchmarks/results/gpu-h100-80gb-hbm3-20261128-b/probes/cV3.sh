# Fused Viterbi A/B: base wheel (d633e73) vs the probe wheel (every count through NVRTC where
# GPUSEQ_PROBE_FORCE_NVRTC is set, so that the probe macros reach it).
set -u
export PYTHONUNBUFFERED=1
nvidia-smi -L
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export GPUSEQ_CACHE_DIR=/tmp/kcache
run() { tag=$1; shift; t=$(date +%s); env "$@" timeout 150 python3 .carry/vit_ab2.py $tag 2>&1; echo "[$tag] $(( $(date +%s) - t )) s"; }
run base PYTHONPATH=.carry/wb:/tmp/site
run new PYTHONPATH=.carry/wp:/tmp/site
run new_rtc PYTHONPATH=.carry/wp:/tmp/site GPUSEQ_PROBE_FORCE_NVRTC=1
run oldtail PYTHONPATH=.carry/wp:/tmp/site GPUSEQ_PROBE_FORCE_NVRTC=1 GPUSEQ_NVRTC_PROBE_DEFINES=-DGPUSEQ_PROBE_OLDTAIL
run unroll1 PYTHONPATH=.carry/wp:/tmp/site GPUSEQ_PROBE_FORCE_NVRTC=1 GPUSEQ_NVRTC_PROBE_DEFINES=-DGPUSEQ_PROBE_UNROLL1
run base2 PYTHONPATH=.carry/wb:/tmp/site
