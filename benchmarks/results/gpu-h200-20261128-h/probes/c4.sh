# Session 48 call 3: ncu pipe utilisation of the fused/split Viterbi kernels (HEAD's kernels, .carry/w47h).
set -uo pipefail
export PYTHONPATH=$PWD/.carry/w47h:/tmp/site PYTHONUNBUFFERED=1 GPUSEQ_CACHE_DIR=/tmp/kc-h GPUSEQ_HMMER_EXAMPLES=$PWD/.carry/hmmer/examples
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
echo "ncu: $NCU"
M="gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__cycles_elapsed.avg.per_second"
M="$M,regex:^sm__inst_executed_pipe_[a-z_]+\.avg\.pct_of_peak_sustained_active$,regex:^sm__pipe_[a-z_]+_cycles_active\.avg\.pct_of_peak_sustained_active$,regex:^smsp__inst_executed_pipe_[a-z_]+\.sum$"
S=smsp__average_warps_issue_stalled
for r in long_scoreboard short_scoreboard wait math_pipe_throttle mio_throttle not_selected selected barrier dispatch_stall no_instruction branch_resolving; do M="$M,${S}_${r}_per_issue_active.ratio"; done
timeout 400 $NCU --clock-control none --profile-from-start off --kernel-name regex:viterbi --csv --print-units base --metrics "$M" \
  python3 .carry/p48/ncu_pipes_probe.py > $OUT/ncu-pipes.csv 2> $OUT/ncu-pipes.err
echo "ncu rc=$?"; tail -5 $OUT/ncu-pipes.err; grep -v '^"' $OUT/ncu-pipes.csv | head -20
python3 - <<'PY'
import csv, os, collections
rows = [r for r in csv.reader(open(os.environ["OUT"] + "/ncu-pipes.csv")) if len(r) > 10]
h = rows[0]; rows = rows[1:]
ki, mi, vi, idi = h.index("Kernel Name"), h.index("Metric Name"), h.index("Metric Value"), h.index("ID")
by = collections.OrderedDict()
for r in rows:
    by.setdefault((r[idi], r[ki][:70]), {})[r[mi]] = r[vi].replace(",", "")
with open(os.environ["OUT"] + "/ncu-pipes.txt", "w") as f:
    for (i, k), m in by.items():
        print(i, k, file=f)
        for name, v in m.items():
            try:
                if float(v) == 0: continue
            except ValueError: pass
            print(f"   {name.replace('smsp__average_warps_issue_stalled_', 'stall.').replace('_per_issue_active.ratio',''):70s} {v}", file=f)
PY
cat $OUT/ncu-pipes.txt | head -150
