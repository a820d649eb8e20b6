t=$(date +%s)
timeout 230 python3 benchmarks/bench_hmm_filters.py --filters viterbi --models 200,400,640,800,1024,1100,1200,1300,1400,1600,2048,2400 --residues 1e6 --cpu-residues 0 --thread-models 400 --repeat 3 --examples .carry/hmmer/examples --out $OUT/bench_viterbi.json > $OUT/bench_viterbi.log 2>&1; echo "bench rc $? $(( $(date +%s) - t )) s"
cat $OUT/bench_viterbi.log
t=$(date +%s)
timeout 200 python3 benchmarks/sweep_warp_stripes.py --exact --first 36 --last 41 > $OUT/sweep_exact_36_41.log 2>&1; echo "sweep rc $? $(( $(date +%s) - t )) s"
cat $OUT/sweep_exact_36_41.log
