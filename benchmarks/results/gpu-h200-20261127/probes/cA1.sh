t=$(date +%s)
timeout 330 python3 benchmarks/bench_hmmsearch.py --examples-dir .carry/hmmer/examples --workdir /tmp/bench --cpu 16 --seqs 1400000 --repeat 3 --many-models 100 --skip hmmsearch_many,pyhmmer --out $OUT/bench_hmmsearch.json > $OUT/bench_hmmsearch.log 2>&1
echo "bench_hmmsearch rc $? $(( $(date +%s) - t )) s"; tail -22 $OUT/bench_hmmsearch.log
t=$(date +%s)
bash .carry/ncu_vit2.sh 2>&1 | tail -150 > $OUT/ncu-vit.txt; echo "ncu $(( $(date +%s) - t )) s"; cat $OUT/ncu-vit.txt
