export PYTHONPATH=/tmp/gpuseq:/tmp/site PYTHONUNBUFFERED=1
echo "== Viterbi, static kernels (the default path)"; timeout 60 python3 .carry/occ_probe.py 2>&1 | tee $OUT/viterbi-final.log
t=$(date +%s); timeout 300 python3 benchmarks/bench_hmmsearch.py --examples-dir .carry/hmmer/examples --workdir /tmp/bench --cpu 16 --seqs 1400000 --repeat 3 --many-models 100 --skip hmmsearch_many,pyhmmer --out $OUT/bench_hmmsearch.json > $OUT/bench_hmmsearch.log 2>&1
echo "bench rc $? $(( $(date +%s) - t )) s"; tail -22 $OUT/bench_hmmsearch.log
t=$(date +%s); SECTIONS=fused timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/racecheck-fused.log 2>&1
echo "racecheck rc $? $(( $(date +%s) - t )) s"; tail -3 $OUT/racecheck-fused.log
