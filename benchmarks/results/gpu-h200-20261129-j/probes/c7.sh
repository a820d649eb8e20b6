# Session 60, call 7: .carry/w79 with this tree's bench_hmm_filters.py (a search's rows for
# the sampled models it runs by launch, their stripes those run): the Viterbi rows of every
# default model length and 71, 129, 256, and the default Pfam models, on 100 M residues.
set -uo pipefail
export GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
S0=$(date +%s)
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-7.txt
export PYTHONPATH=$PWD/.carry/w79:/tmp/site
timeout 540 python3 benchmarks/bench_hmm_filters.py --filters viterbi --models 50,71,100,129,150,200,256,400,520,700,800,1200,1600,1900,2400,3000,3500,4096 --examples $GPUSEQ_HMMER_EXAMPLES --thread-models 0 --cpu-residues 0 --repeat 3 --out $OUT/bench_viterbi-7.json > $OUT/bench_viterbi-7.log 2>&1; echo "bench rc $? at $(( $(date +%s) - S0 )) s"
grep -E "by-launch" $OUT/bench_viterbi-7.log
echo "done at $(( $(date +%s) - S0 )) s"
