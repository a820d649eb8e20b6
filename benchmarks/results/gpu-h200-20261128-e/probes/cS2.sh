# Session 45: bench_hmm_filters on f08b171 (w45b), the SSV/MSV command of
# results/gpu-h100-80gb-hbm3-20261128-b with the short models added, then its Viterbi command.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" PYTHONUNBUFFERED=1 GPUSEQ_CACHE_DIR=/tmp/kc-45b PYTHONPATH=$PWD/.carry/w45b:/tmp/site
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
t=$(date +%s); timeout 260 python3 benchmarks/bench_hmm_filters.py --filters ssv,msv --models 50,71,100,150,200,224,400,800,1142,1200,1600,2048,2400,3000 --residues 100e6 --cpu-residues 0 --repeat 3 --examples .carry/hmmer/examples --out $OUT/bench_ssv_msv.json > $OUT/bench_ssv_msv.log 2>&1; echo "ssv/msv rc $? $(( $(date +%s) - t )) s"
t=$(date +%s); timeout 150 python3 benchmarks/bench_hmm_filters.py --filters viterbi --models 100,150,200,256,300,400,520,640,800,1024,1200,1400,1600,2400 --residues 1e6 --cpu-residues 0 --thread-models 0 --repeat 3 --examples .carry/hmmer/examples --out $OUT/bench_viterbi.json > $OUT/bench_viterbi.log 2>&1; echo "viterbi rc $? $(( $(date +%s) - t )) s"
