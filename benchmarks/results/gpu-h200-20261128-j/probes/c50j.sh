# Session 50, call 11: racecheck of the fused section (systolic cases, interleaved rows) and
# bench_hmm_filters Viterbi with the pipeline's rows (.carry/w50b = 3 commits past 2b6f4d2).
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD/.carry/w50b:/tmp/site
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
GPUSEQ_CACHE_DIR=/tmp/kc-san SECTIONS=fused timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/racecheck-fused.log 2>&1; echo "racecheck rc $?"; tail -n 2 $OUT/racecheck-fused.log
GPUSEQ_CACHE_DIR=/tmp/kc-b timeout 240 python3 benchmarks/bench_hmm_filters.py --filters viterbi --models 100,129,150,200,256,300,384 --pfam-models RRM_1,Caudal_act,globins4,Pkinase --residues 1e6 --cpu-residues 0 --repeat 5 --examples .carry/hmmer/examples --out $OUT/bench_viterbi.json 2>&1 | grep -v Warn | tee $OUT/bench_viterbi.log | grep -E "systolic|fused/T2" | head -40
