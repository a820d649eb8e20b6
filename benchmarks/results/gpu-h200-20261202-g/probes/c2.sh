# Session 78, call 2: the hmmsearch benchmark on a module built from HEAD (.carry/w119, 6b0a72c):
# hmmsearch 3.3.2 --cpu 16 and gpuseq from FASTA, from the packed database and with 100 models,
# three repeats each (pyhmmer and hmmsearch's 100 models skipped, as in sessions 70-71), then
# random hmmsearch and blastp commands on the GPU until S0 + 470 s.
set -uo pipefail
W=${W:-w119} N=${N:-2}; . benchmarks/results/gpu-h200-20261201-d/probes/setup.sh
export GPUSEQ_CACHE_DIR=/tmp/kc-b
timeout 360 python3 benchmarks/bench_hmmsearch.py --examples-dir /tmp/hmmer/examples --workdir /tmp/bench \
  --cpu 16 --seqs 1400000 --many-models 100 --repeat 3 --skip hmmsearch_many,pyhmmer \
  --out $OUT/bench_hmmsearch-$N.json > $OUT/bench_hmmsearch-$N.log 2>&1
echo "bench rc $? at $(( $(date +%s) - S0 )) s"; tail -n 25 $OUT/bench_hmmsearch-$N.log
BLASTP_SEEDS="14410000 14420000 14430000 14440000" HMMSEARCH_SEEDS="14510000 14520000 14530000 14540000" \
  . benchmarks/results/gpu-h200-20261201-d/probes/fuzz.sh 470
