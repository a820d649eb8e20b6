# Old (366efb6, .carry/wo) against new (.carry/wp): the packed-database CLI, alternated; the
# in-process cascade phases; a timeline of each.
set -uo pipefail
# (As it ran, this call had data.sh's set-up inline, with .carry/wp on PYTHONPATH.)
nvidia-smi -L | tee $OUT/device.txt; nproc
source .carry/data.sh
for w in o p; do cli $w $SIX warm-six; cli $w $MANY warm-many; done 2>&1 | tee $OUT/e2e-warm.log
for r in 1 2 3 4 5; do cli o $SIX six; cli p $SIX six; done 2>&1 | tee $OUT/e2e-six-ab.log
cmp <(grep -v "^#" /tmp/abo.tbl) <(grep -v "^#" /tmp/abp.tbl) && echo "tblout equal" | tee -a $OUT/e2e-six-ab.log
for r in 1 2 3; do cli o $MANY many; cli p $MANY many; done 2>&1 | tee $OUT/e2e-many-ab.log
for r in 1 2; do for w in o p; do GPUSEQ_CACHE_DIR=/tmp/kc-$w PYTHONPATH=$PWD/.carry/w$w:/tmp/site timeout 60 python3 .carry/phases.py $w $DB $SIX 4; done; done 2>&1 | tee $OUT/phases-six.log
for w in o p; do for r in 1 2; do echo "== [$w]"; GPUSEQ_CACHE_DIR=/tmp/kc-$w PYTHONPATH=$PWD/.carry/w$w:/tmp/site /usr/bin/time -f "%e s wall" python3 .carry/cli_timed.py hmmsearch --cpu 16 --noali --tblout /tmp/t.tbl -o /tmp/t.out --backend cuda --no-progress $SIX $DB; done; done 2>&1 | tee $OUT/timeline-six.log
