# A/B of the fused Viterbi: base wheel (HEAD d633e73) vs probe wheel variants, one host.
set -u
export PYTHONUNBUFFERED=1
nvidia-smi -L
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export GPUSEQ_CACHE_DIR=/tmp/kcache
run() { tag=$1; shift; t=$(date +%s); env "$@" timeout 150 python3 .carry/vit_ab2.py $tag 2>&1; echo "[$tag] $(( $(date +%s) - t )) s"; }
run base PYTHONPATH=.carry/wb:/tmp/site
run pipe PYTHONPATH=.carry/wp:/tmp/site
run shfl PYTHONPATH=.carry/wp:/tmp/site GPUSEQ_NVRTC_PROBE_DEFINES=-DGPUSEQ_PROBE_SHFL_MAX
run nopipe PYTHONPATH=.carry/wp:/tmp/site GPUSEQ_NVRTC_PROBE_DEFINES=-DGPUSEQ_PROBE_NO_PIPE
run minb0 PYTHONPATH=.carry/wp:/tmp/site VIT_M=300 VIT_PFAM=Pkinase GPUSEQ_NVRTC_PROBE_DEFINES=-DGPUSEQ_PROBE_MINB5=0
run base2 PYTHONPATH=.carry/wb:/tmp/site VIT_M="150 200 300 800" VIT_PFAM="globins4 Pkinase"
