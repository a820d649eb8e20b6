# The fused Viterbi's targets per warp chosen up to M = 320 (tree after 9f2bd12, final wheel).
set -u
export PYTHONUNBUFFERED=1 GPUSEQ_HMMER_EXAMPLES=$PWD/.carry/hmmer/examples PATH=$PWD/.carry/hmmer/bin:$PATH
export GPUSEQ_CACHE_DIR=/tmp/kcache PYTHONPATH=$PWD/.carry/wp:/tmp/site
nvidia-smi -L
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
t=$(date +%s); timeout 110 python3 -m pytest -q -ra -p no:cacheprovider -n 8 -m cuda tests/test_gpu_viterbi_fused.py > $OUT/pytest-viterbi-fused.log 2>&1; echo "pytest rc $? $(( $(date +%s) - t )) s"; tail -n 3 $OUT/pytest-viterbi-fused.log
VIT_M="256 257 280 300 320 352" VIT_PFAM="Pkinase" timeout 40 python3 .carry/vit_ab2.py auto 2>&1 | tee $OUT/viterbi-auto-targets.log
