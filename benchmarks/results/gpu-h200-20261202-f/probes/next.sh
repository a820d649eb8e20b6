# For the next GPU session (written in session 77, not yet run): a module built from HEAD as
# .carry/$W (W=w119 unless set). Every cuda-marked test (two workers per GPU would do; eight
# keep the call short), then random commands until S0 + 470 s (cases running then may take
# up to 60 s more; call 1 of session 77 ended at 560 s and passed its 600 s limit).
set -uo pipefail
W=${W:-w119} N=${N:-1}; . benchmarks/results/gpu-h200-20261201-d/probes/setup.sh
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 280 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests \
  > $OUT/pytest-$N.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; grep -E "passed|failed" $OUT/pytest-$N.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-$N.log | head
# (Session 78: the seeds may be set from outside; these defaults are what call 1 of session 78
# ran.)
BLASTP_SEEDS=${BLASTP_SEEDS:-"14010000 14020000 14030000 14040000 14050000 14060000"} \
HMMSEARCH_SEEDS=${HMMSEARCH_SEEDS:-"14110000 14120000 14130000 14140000"} \
  . benchmarks/results/gpu-h200-20261201-d/probes/fuzz.sh 470
