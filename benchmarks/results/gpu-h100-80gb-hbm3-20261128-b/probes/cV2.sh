# Fused Viterbi: which of the row changes costs at Q = 5, 7 (T = 1). Base wheel vs probe wheel.
set -u
export PYTHONUNBUFFERED=1
nvidia-smi -L
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export GPUSEQ_CACHE_DIR=/tmp/kcache VIT_M="150 200 300 400 800 1200" VIT_PFAM="globins4 Pkinase LuxC Patched SMC_N"
run() { tag=$1; shift; t=$(date +%s); env "$@" timeout 150 python3 .carry/vit_ab2.py $tag 2>&1; echo "[$tag] $(( $(date +%s) - t )) s"; }
run base PYTHONPATH=.carry/wb:/tmp/site
run new PYTHONPATH=.carry/wp:/tmp/site
run sepvote PYTHONPATH=.carry/wp:/tmp/site GPUSEQ_NVRTC_PROBE_DEFINES=-DGPUSEQ_PROBE_SEPVOTE
run liveold PYTHONPATH=.carry/wp:/tmp/site GPUSEQ_NVRTC_PROBE_DEFINES=-DGPUSEQ_PROBE_LIVE_OLD
run row64 PYTHONPATH=.carry/wp:/tmp/site GPUSEQ_NVRTC_PROBE_DEFINES=-DGPUSEQ_PROBE_ROW64
run eaddr PYTHONPATH=.carry/wp:/tmp/site GPUSEQ_NVRTC_PROBE_DEFINES=-DGPUSEQ_PROBE_EADDR_OLD
run sv_lo PYTHONPATH=.carry/wp:/tmp/site "GPUSEQ_NVRTC_PROBE_DEFINES=-DGPUSEQ_PROBE_SEPVOTE -DGPUSEQ_PROBE_LIVE_OLD"
run allold PYTHONPATH=.carry/wp:/tmp/site "GPUSEQ_NVRTC_PROBE_DEFINES=-DGPUSEQ_PROBE_SEPVOTE -DGPUSEQ_PROBE_LIVE_OLD -DGPUSEQ_PROBE_ROW64 -DGPUSEQ_PROBE_EADDR_OLD"
run base2 PYTHONPATH=.carry/wb:/tmp/site
