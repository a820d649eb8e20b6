# Session 60, call 6: .carry/w79 as call 5: bench_hmm_filters.py's Viterbi rows (call 5's
# runs stopped at once: --examples was not given), up to M = 256 and the short Pfam models on
# 100 M residues, and on 10 M (about a search's launch).
set -uo pipefail
export GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
S0=$(date +%s)
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-6.txt
export PYTHONPATH=$PWD/.carry/w79:/tmp/site
EX="--examples $GPUSEQ_HMMER_EXAMPLES"
timeout 330 python3 benchmarks/bench_hmm_filters.py --filters viterbi --models 50,71,100,129,150,200,256 --pfam-models RRM_1,2OG-FeII_Oxy_3,Caudal_act,globins4,Pkinase $EX --thread-models 0 --cpu-residues 0 --repeat 3 --out $OUT/bench_viterbi-6.json > $OUT/bench_viterbi-6.log 2>&1; echo "bench rc $? at $(( $(date +%s) - S0 )) s"
grep -E "by-launch|fused/T2 |fused/T4 " $OUT/bench_viterbi-6.log | grep -v "/warp_fused" | head -60
timeout 200 python3 benchmarks/bench_hmm_filters.py --filters viterbi --models 50,150 --pfam-models RRM_1,globins4 $EX --thread-models 0 --cpu-residues 0 --repeat 3 --residues 10e6 --out $OUT/bench_viterbi-10e6-6.json > $OUT/bench_viterbi-10e6-6.log 2>&1; echo "bench 10e6 rc $? at $(( $(date +%s) - S0 )) s"
grep -E "by-launch|fused/T2 |fused/T4 " $OUT/bench_viterbi-10e6-6.log | grep -v "/warp_fused"
echo "done at $(( $(date +%s) - S0 )) s"
