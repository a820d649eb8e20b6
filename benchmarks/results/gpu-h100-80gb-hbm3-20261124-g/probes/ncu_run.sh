#!/usr/bin/env bash
# ncu over one alone cascade (probe in ncu_probe.py); prints per-kernel durations.
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=/tmp/gpuseq:/tmp/site
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
echo "ncu: $NCU"
timeout 300 $NCU --clock-control none --profile-from-start off --csv --print-units base \
  --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,sm__warps_active.avg.pct_of_peak_sustained_active \
  python3 .carry/ncu_probe.py > $OUT/ncu.csv 2> $OUT/ncu.err
echo "ncu rc=$?"; tail -5 $OUT/ncu.err
python3 - <<'PY'
import csv, os, collections
rows = [r for r in csv.reader(open(os.environ["OUT"] + "/ncu.csv")) if len(r) > 10]
h = rows[0]; rows = rows[1:]
ki, mi, vi, idi = h.index("Kernel Name"), h.index("Metric Name"), h.index("Metric Value"), h.index("ID")
by = collections.OrderedDict()
for r in rows:
    by.setdefault((r[idi], r[ki][:70]), {})[r[mi]] = r[vi].replace(",", "")
for (i, k), m in by.items():
    print(f"{i:>4} {float(m.get('gpu__time_duration.sum', 0))/1e3:9.1f} us grid {m.get('launch__grid_size')} block {m.get('launch__block_size')} warps% {m.get('sm__warps_active.avg.pct_of_peak_sustained_active')}  {k}")
PY
