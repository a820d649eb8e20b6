set -uo pipefail
source .carry/data.sh
for w in o p n; do cli $w $SIX warm; done
GPUSEQ_CACHE_DIR=/tmp/kc-n PYTHONPATH=$PWD/.carry/wn:/tmp/site timeout 90 python3 .carry/first.py n $DB $SIX 2>&1 | grep 'rep 0\|cuda_init' | tee $OUT/first-n.log
for r in 1 2 3 4 5; do cli o $SIX six; cli p $SIX six; cli n $SIX six; done 2>&1 | tee $OUT/e2e-six-abn.log
cmp <(grep -v "^#" /tmp/abo.tbl) <(grep -v "^#" /tmp/abn.tbl) && echo "tblout equal" | tee -a $OUT/e2e-six-abn.log
cmp <(grep -v "^#" /tmp/abo.out) <(grep -v "^#" /tmp/abn.out) && echo "text equal" | tee -a $OUT/e2e-six-abn.log
for r in 1 2 3; do cli p $MANY many; cli n $MANY many; done 2>&1 | tee $OUT/e2e-many-abn.log
for n in 8 3 2; do for r in 1 2; do echo "== [n] INFLIGHT=$n"; INFLIGHT=$n GPUSEQ_CACHE_DIR=/tmp/kc-n PYTHONPATH=$PWD/.carry/wn:/tmp/site /usr/bin/time -f "%e s wall" python3 .carry/cli_timed.py hmmsearch --cpu 16 --noali --tblout /tmp/t.tbl -o /tmp/t.out --backend cuda --no-progress $SIX $DB; done; done 2>&1 | tee $OUT/timeline-six-n.log | grep -v 'close\|atexit\|add_query\|first  '
