export PYTHONPATH=/tmp/gpuseq:/tmp/site PYTHONUNBUFFERED=1
export GPUSEQ_CACHE_DIR=/tmp/kcache GPUSEQ_PROBE_FORCE_NVRTC=1
env -u GPUSEQ_PROBE_FORCE_NVRTC timeout 100 python3 .carry/occ_probe.py | sed "s/^\[base\]/[static]/"
run() { # K KQ R2 MINB
  GPUSEQ_PROBE_K=$1 GPUSEQ_PROBE_KQ=$2 GPUSEQ_NVRTC_PROBE_DEFINES="-DGPUSEQ_PROBE_K=$1 -DGPUSEQ_PROBE_KQ=$2 -DGPUSEQ_PROBE_R2=$3 -DGPUSEQ_PROBE_MINB=$4" timeout 100 python3 .carry/occ_probe.py
}
run 1 64 99 0
run 2 8 99 0
run 2 10 4 0
run 2 12 0 0
run 2 8 4 3
