t=$(date +%s)
timeout 400 python3 benchmarks/bench_hmm_filters.py --filters ssv,msv --models 150,200,400,800,1200,1600,2048,2400,3000 --residues 100e6 --cpu-residues 0 --repeat 3 --examples .carry/hmmer/examples --out $OUT/bench_ssv_msv.json > $OUT/bench_ssv_msv.log 2>&1; echo "bench rc $? $(( $(date +%s) - t )) s"
tail -45 $OUT/bench_ssv_msv.log
