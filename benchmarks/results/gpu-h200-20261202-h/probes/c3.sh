# Session 79, call 3: module w122 (bf332a1, blastp -outfmt 7 and 10). The three random blastp
# cases that call 1's timeout cut and call 2's 60 s could not finish (blastp itself takes over
# a minute there on one thread: -evalue 1e300 -dbsize 1e15), each alone with 240 s; the
# cuda-marked blastp tests of test_blastp_api.py and test_random_commands.py; then random
# blastp commands from new seeds until S0 + 380 s. Logs to $OUT/logs-3.tar.gz (8 files come
# back at most).
set -uo pipefail
W=${W:-w122} N=${N:-3}; . benchmarks/results/gpu-h200-20261201-d/probes/setup.sh
R=/tmp/reruns; mkdir -p $R
for s in 15010189 15030088 15050058; do
  ( GPUSEQ_CACHE_DIR=/tmp/kc-r$s timeout 240 python3 -W ignore \
      benchmarks/results/gpu-h200-20261130-g/probes/seeds.py blastp cuda $s 1 1 > $R/rerun-$s.log 2>&1
    echo "rerun $s rc $? at $(( $(date +%s) - S0 )) s" >> $R/rc.txt ) &
done
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 200 python3 -m pytest -n 4 -q -ra -p no:cacheprovider -m cuda \
  tests/test_blastp_api.py tests/test_random_commands.py -k blastp > $OUT/pytest-$N.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -n 2 $OUT/pytest-$N.log
BLASTP_SEEDS="15300000 15310000 15320000 15330000" HMMSEARCH_SEEDS="" \
  . benchmarks/results/gpu-h200-20261201-d/probes/fuzz.sh 380
cat $R/rc.txt; tail -q -n 1 $R/rerun-*.log; tar -C $R -czf $OUT/reruns-$N.tar.gz .
