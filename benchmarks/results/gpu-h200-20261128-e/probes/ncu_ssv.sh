#!/usr/bin/env bash
# Session 45: why S-lane SSV H = 28-29, 37, 46 run slow (stall reasons, shared-memory bank
# conflicts, instructions) against 27, 30, 38, 47; S = 8, w45b.
export PYTHONPATH=$PWD/.carry/w45b:/tmp/site PYTHONUNBUFFERED=1 GPUSEQ_CACHE_DIR=/tmp/kc-ncu
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
S=smsp__average_warps_issue_stalled
M="gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_op_shared_ld.sum,l1tex__throughput.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,smsp__sass_inst_executed_op_shared_ld.sum,sm__instruction_throughput.avg.pct_of_peak_sustained_active"
for r in long_scoreboard short_scoreboard wait math_pipe_throttle mio_throttle lg_throttle not_selected selected barrier dispatch_stall no_instruction branch_resolving imc_miss; do M="$M,${S}_${r}_per_issue_active.ratio"; done
timeout 300 $NCU --clock-control none --profile-from-start off --kernel-name regex:ssv_multi --csv --print-units base --metrics $M \
  python3 .carry/ncu_ssv_probe.py > $OUT/ncu-ssv.csv 2> $OUT/ncu-ssv.err
echo "ncu rc=$?"; tail -3 $OUT/ncu-ssv.err
python3 - <<'PY' | tee $OUT/ncu-ssv.txt
import csv, os, collections
rows = [r for r in csv.reader(open(os.environ["OUT"] + "/ncu-ssv.csv")) if len(r) > 10]
h = rows[0]; rows = rows[1:]
ki, mi, vi, idi = h.index("Kernel Name"), h.index("Metric Name"), h.index("Metric Value"), h.index("ID")
by = collections.OrderedDict()
for r in rows:
    by.setdefault((r[idi], r[ki][:60]), {})[r[mi]] = r[vi].replace(",", "")
names = list(next(iter(by.values())).keys())
print("metric".ljust(58), " ".join(k[1].split("<")[1][:9].rjust(9) for k in by))
for n in names:
    print(n.replace('smsp__average_warps_issue_stalled_', 'stall.').replace('_per_issue_active.ratio','')[:58].ljust(58), " ".join(str(m.get(n, ''))[:9].rjust(9) for m in by.values()))
PY
