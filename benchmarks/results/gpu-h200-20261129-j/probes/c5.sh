# Session 60, call 5: .carry/w79 (this tree: four fused Viterbi targets a warp on the launches
# with rows enough for them, viterbi_by_launch): every cuda-marked test, fused-section memcheck
# and racecheck beside them, then bench_hmm_filters.py's Viterbi rows up to M = 256 and the
# short Pfam models on 100 M residues, and a search's choice on 10 M.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
S0=$(date +%s)
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-5.txt
export PYTHONPATH=$PWD/.carry/w79:/tmp/site
( GPUSEQ_CACHE_DIR=/tmp/kc-m SECTIONS=fused timeout 400 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-fused-5.log 2>&1; echo "memcheck rc $? at $(( $(date +%s) - S0 )) s" >> /tmp/rc-5.txt ) &
( GPUSEQ_CACHE_DIR=/tmp/kc-r SECTIONS=fused timeout 400 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/racecheck-fused-5.log 2>&1; echo "racecheck rc $? at $(( $(date +%s) - S0 )) s" >> /tmp/rc-5.txt ) &
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 400 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests > $OUT/pytest-cuda-5.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s"
wait; cat /tmp/rc-5.txt; tail -1 $OUT/pytest-cuda-5.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-cuda-5.log | head
M=50,71,100,129,150,200,256
PF=RRM_1,2OG-FeII_Oxy_3,Caudal_act,globins4,Pkinase
timeout 300 python3 benchmarks/bench_hmm_filters.py --filters viterbi --models $M --pfam-models $PF --thread-models 0 --cpu-residues 0 --repeat 3 --out $OUT/bench_viterbi-5.json > $OUT/bench_viterbi-5.log 2>&1; echo "bench rc $? at $(( $(date +%s) - S0 )) s"
grep -E "by-launch|fused/T2 |fused/T4 " $OUT/bench_viterbi-5.log | grep -v "/warp_fused" | head -60
timeout 200 python3 benchmarks/bench_hmm_filters.py --filters viterbi --models 50,150 --pfam-models RRM_1,globins4 --thread-models 0 --cpu-residues 0 --repeat 3 --residues 10e6 --out $OUT/bench_viterbi-10e6-5.json > $OUT/bench_viterbi-10e6-5.log 2>&1; echo "bench 10e6 rc $? at $(( $(date +%s) - S0 )) s"
grep -E "by-launch|fused/T2 |fused/T4 " $OUT/bench_viterbi-10e6-5.log | grep -v "/warp_fused"
echo "done at $(( $(date +%s) - S0 )) s"
