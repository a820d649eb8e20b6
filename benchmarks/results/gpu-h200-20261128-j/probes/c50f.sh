# Session 50, call 6: ncu of the systolic prototype (M = 50 B=2 G=32; M = 150 B=10 G=16; 10M).
set -uo pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD/.carry/w50a:/tmp/site
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
python3 .carry/sys/mkinput.py /tmp/i50 50 32 2 & python3 .carry/sys/mkinput.py /tmp/i150 150 16 10 & wait
which ncu; ncu --version | tail -1
for c in "/tmp/i50 2 32" "/tmp/i150 10 16"; do
  set -- $c
  ./.carry/sys/sysvit $1 $2 $3 3
  timeout 120 ncu --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy --section InstructionStats --section MemoryWorkloadAnalysis -c 1 ./.carry/sys/sysvit $1 $2 $3 0 > $OUT/ncu-B$2.txt 2>&1
  grep -E "Duration|Warp Cycles Per Issued|Issued Warp|No Eligible|Active Warps Per|Eligible Warps|Achieved Occ|Executed Ipc|L1/TEX Hit|Stall|Compute \(SM\)|Memory Through" $OUT/ncu-B$2.txt | head -40
done
