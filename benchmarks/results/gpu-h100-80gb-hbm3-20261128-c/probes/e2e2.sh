set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
DB=$(ls -d /tmp/bench/db-1400000-*/targets.gsdb | head -1); MANY=$(ls /tmp/bench/models/globins4-*-x100.hmm | head -1); SIX=/tmp/bench/queries.hmm
for w in o p; do GPUSEQ_CACHE_DIR=/tmp/kc-$w PYTHONPATH=$PWD/.carry/w$w:/tmp/site timeout 90 python3 .carry/phases.py $w $DB $SIX 3; done 2>&1 | tee $OUT/phases-six.log
for n in 1 2 3 8; do for r in 1 2; do echo "== [p] INFLIGHT=$n"; INFLIGHT=$n GPUSEQ_CACHE_DIR=/tmp/kc-p PYTHONPATH=$PWD/.carry/wp:/tmp/site /usr/bin/time -f "%e s wall" python3 .carry/cli_timed.py hmmsearch --cpu 16 --noali --tblout /tmp/t.tbl -o /tmp/t.out --backend cuda --no-progress $SIX $DB; done; done 2>&1 | tee $OUT/timeline-six-inflight.log | grep -v 'close\|atexit\|add_query\|first  '
