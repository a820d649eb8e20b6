# Session 69, call 1: cli_fuzz.py with --backend cuda on .carry/w102 (a8a619f's module):
# 8 processes for 400 s, --cpu 2 each, one kernel cache shared by all (as a user's is).
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device.txt; nproc >> $OUT/device.txt
python3 -m pip install -q --no-index --no-deps --target /tmp/site1 .carry/wh-min/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w102:/tmp/site1:$PWD/tests GPUSEQ_CACHE_DIR=/tmp/kc-f1
O=/tmp/o1; mkdir -p $O; t=$(date +%s)
for s in $(seq 101 108); do
  timeout 480 python3 -W ignore benchmarks/results/gpu-h200-20261130-f/probes/cli_fuzz.py $s ${SECS:-400} cuda 2 > $O/fuzz-$s.log 2>&1 &
done
wait; echo "fuzzing ended after $(( $(date +%s) - t )) s"
tail -q -n 1 $O/fuzz-*.log; grep -h "DIFFERENT\|Error\|Traceback" $O/fuzz-*.log | head -20
for s in $(seq 101 108); do
  for d in /tmp/clifuzz-$s/c*; do [ -d "$d" ] || continue
    mkdir -p $O/cases/$s-$(basename $d); cp $d/*.hmm $d/*.out $d/*.tbl $d/*.dom $O/cases/$s-$(basename $d)/ 2>/dev/null
    gzip -c $d/db.fa > $O/cases/$s-$(basename $d)/db.fa.gz; done
done
du -sh $O/cases 2>/dev/null
tar -C $O -czf $OUT/fuzz-1.tar.gz --exclude='cases/*/db.fa.gz' . ; tar -C $O -czf $OUT/cases-1.tar.gz cases 2>/dev/null
ls -la $OUT
