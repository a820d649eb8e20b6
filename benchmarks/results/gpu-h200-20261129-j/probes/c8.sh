# Session 60, call 8: a search before (.carry/w76, aeb3cba) and after (.carry/w79, this tree)
# the Viterbi's targets per warp chosen by launch: one round of cold.py (its 490 M-residue
# database, query files and each module's caches), then warm commands alternated (warmab.py:
# six hmmer-examples models, and 24 models of M 50-2400), and the last round's tblouts compared.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
S0=$(date +%s)
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-8.txt
R=benchmarks/results
{ timeout 250 python3 $R/gpu-h200-20261129-b/probes/cold.py $PWD/.carry/w76 $PWD/.carry/w79 1 2>&1 | tail -6
  timeout 250 python3 $R/gpu-h200-20261129-i/probes/warmab.py $PWD/.carry/w76 $PWD/.carry/w79 8 2>&1
  echo "tblout rows old / new / differing:"; grep -vc "^#" /tmp/cold/ab-old.tbl; grep -vc "^#" /tmp/cold/ab-new.tbl
  diff <(grep -v "^#" /tmp/cold/ab-old.tbl) <(grep -v "^#" /tmp/cold/ab-new.tbl) | grep -c "^[<>]"; } | tee $OUT/search-ab-8.log
echo "done at $(( $(date +%s) - S0 )) s"
