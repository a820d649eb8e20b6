# Session 80, call 3: module w125 (efbb160: blastp -qcov_hsp_perc). Every test of
# test_blastp_api.py, cuda-marked and not (the qcov test runs the keyword with backend "auto",
# on the GPU here), then random blastp commands from new seeds, which draw -qcov_hsp_perc at
# times, until S0 + 150 s (the session's device time is nearly spent).
set -uo pipefail
W=${W:-w125} N=${N:-3}; . benchmarks/results/gpu-h200-20261201-d/probes/setup.sh
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 100 python3 -m pytest -n 8 -q -ra -p no:cacheprovider \
  tests/test_blastp_api.py > $OUT/pytest-$N.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -n 2 $OUT/pytest-$N.log
BLASTP_SEEDS="15900000 15910000 15920000 15930000 15940000 15950000 15960000 15970000" \
HMMSEARCH_SEEDS="" . benchmarks/results/gpu-h200-20261201-d/probes/fuzz.sh 150
