# Session 80, call 2: module w124 (7fc7c7e: -outfmt 7 leaves out "# N hits found" for the
# queries blastp does not search). Call 1's failed case (15540173) again, and 15050058 (cut at
# 240 s in session 79: blastp alone takes minutes there) with 450 s, beside the cuda-marked
# blastp tests of test_blastp_api.py and test_random_commands.py; then random blastp commands
# from new seeds until S0 + 470 s.
set -uo pipefail
W=${W:-w124} N=${N:-2}; . benchmarks/results/gpu-h200-20261201-d/probes/setup.sh
R=/tmp/reruns; mkdir -p $R
for s in 15540173 15050058; do
  ( GPUSEQ_CACHE_DIR=/tmp/kc-r$s timeout 450 python3 -W ignore \
      benchmarks/results/gpu-h200-20261130-g/probes/seeds.py blastp cuda $s 1 1 > $R/rerun-$s.log 2>&1
    echo "rerun $s rc $? at $(( $(date +%s) - S0 )) s" >> $R/rc.txt ) &
done
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 200 python3 -m pytest -n 6 -q -ra -p no:cacheprovider -m cuda \
  tests/test_blastp_api.py tests/test_random_commands.py -k blastp > $OUT/pytest-$N.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -n 2 $OUT/pytest-$N.log
BLASTP_SEEDS="15700000 15710000 15720000 15730000 15740000 15750000 15760000" HMMSEARCH_SEEDS="" \
  . benchmarks/results/gpu-h200-20261201-d/probes/fuzz.sh 470
wait; cat $R/rc.txt; tail -q -n 1 $R/rerun-*.log; tar -C $R -czf $OUT/reruns-$N.tar.gz .
