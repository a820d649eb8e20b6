#!/usr/bin/env bash
export PYTHONUNBUFFERED=1 PYTHONPATH=/tmp/gpuseq:/tmp/site
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
timeout ${NCU_S:-300} $NCU --clock-control none --csv --print-units base \
  --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed \
  python3 .carry/ncu_blast_probe.py ${NCU_SUBJECTS:-8000} > $OUT/ncu-blast.csv 2> $OUT/ncu-blast.err
echo "ncu rc=$?"; tail -3 $OUT/ncu-blast.err
python3 - <<'PY'
import csv, os, collections
rows = [r for r in csv.reader(open(os.environ["OUT"] + "/ncu-blast.csv")) if len(r) > 10]
h = rows[0]; rows = rows[1:]
ki, mi, vi, idi = h.index("Kernel Name"), h.index("Metric Name"), h.index("Metric Value"), h.index("ID")
by = collections.OrderedDict()
for r in rows:
    by.setdefault((r[idi], r[ki][:60]), {})[r[mi]] = r[vi].replace(",", "")
tot = collections.Counter(); cnt = collections.Counter()
for (i, k), m in by.items():
    t = float(m.get('gpu__time_duration.sum', 0))/1e3
    name = k.split('(')[0].split('<')[0]
    tot[name] += t; cnt[name] += 1
    print(f"{i:>4} {t:9.1f} us grid {m.get('launch__grid_size')} blk {m.get('launch__block_size')} warps% {m.get('sm__warps_active.avg.pct_of_peak_sustained_active')} dram% {m.get('dram__throughput.avg.pct_of_peak_sustained_elapsed')} sm% {m.get('sm__throughput.avg.pct_of_peak_sustained_elapsed')} l2% {m.get('lts__throughput.avg.pct_of_peak_sustained_elapsed')} {k}")
print("--- totals")
for n, t in tot.most_common(): print(f"{t/1e3:9.2f} ms  x{cnt[n]:4d}  {n}")
PY
