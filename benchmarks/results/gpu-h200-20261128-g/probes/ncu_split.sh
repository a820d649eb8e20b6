#!/usr/bin/env bash
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w47e:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-n PYTHONUNBUFFERED=1
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
S=smsp__average_warps_issue_stalled
M="gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__t_sector_hit_rate.pct,l1tex__throughput.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum"
M="$M,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_global_ld.sum"; for r in long_scoreboard short_scoreboard wait math_pipe_throttle mio_throttle lg_throttle not_selected selected barrier dispatch_stall no_instruction branch_resolving; do M="$M,${S}_${r}_per_issue_active.ratio"; done
timeout 300 $NCU --clock-control none --profile-from-start off --kernel-name "regex:viterbi_(fused|split)" --csv --print-units base --metrics $M \
  python3 .carry/ncu_split_probe.py > $OUT/ncu-split.csv 2> $OUT/ncu-split.err
echo "ncu rc=$?"; tail -3 $OUT/ncu-split.err
python3 - <<'PY'
import csv, os, collections
rows = [r for r in csv.reader(open(os.environ["OUT"] + "/ncu-split.csv")) if len(r) > 10]
h = rows[0]; rows = rows[1:]
ki, mi, vi, idi = h.index("Kernel Name"), h.index("Metric Name"), h.index("Metric Value"), h.index("ID")
by = collections.OrderedDict()
for r in rows:
    by.setdefault((r[idi], r[ki][:48]), {})[r[mi]] = r[vi].replace(",", "")
for (i, k), m in by.items():
    print(i, k)
    for name, v in m.items():
        print(f"   {name.replace('smsp__average_warps_issue_stalled_', 'stall.').replace('_per_issue_active.ratio',''):60s} {v}")
PY
