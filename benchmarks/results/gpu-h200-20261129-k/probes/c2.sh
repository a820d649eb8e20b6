# Session 62, call 2: where the packed commands' time goes as the command runs them
# (probes/cmd_stamps.py: nothing imported before main), .carry/w83; each process timed whole.
set -uo pipefail
S0=$(date +%s)
P=benchmarks/results/gpu-h200-20261129-k/probes
DATA_WHEEL=w82 source $P/data.sh
echo "data at $(( $(date +%s) - S0 )) s"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-2.txt
export GPUSEQ_CACHE_DIR=/tmp/kc-62 PYTHONPATH=$PWD/.carry/w83:/tmp/site
ARGS="hmmsearch --cpu 16 --noali --backend cuda --no-progress"
python3 -m gpuseq.cli $ARGS --tblout /tmp/warm.tbl -o /dev/null $MANY $DB
python3 -m gpuseq.cli $ARGS --tblout /tmp/warm.tbl -o /dev/null $SIX $DB
stamp() { python3 -c "
import subprocess, sys, time
t = time.perf_counter()
subprocess.run([sys.executable, '$P/cmd_stamps.py', *'$ARGS'.split(), '--tblout', '/tmp/s.tbl', '-o', '/dev/null', '$2', '$DB'], check=True)
print('process $1:', round(time.perf_counter() - t, 3), 's', file=sys.stderr)"; }
{ for r in 0 1 2 3 4 5; do echo "== six $r"; stamp six $SIX; done
  for r in 0 1 2; do echo "== 100 $r"; stamp 100 $MANY; done; } > $OUT/stamps-2.log 2>&1
cat $OUT/stamps-2.log | grep -v "^  _Downstream\|HmmsearchWriter" | head -80
