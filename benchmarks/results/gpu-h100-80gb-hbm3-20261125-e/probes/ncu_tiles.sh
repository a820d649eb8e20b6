# ncu over the tile kernels of a small blastp run (SUBJECTS subjects, 99 queries).
set -uo pipefail
R=$OUT/${TAG:-run}; mkdir -p $R
export PYTHONPATH=/tmp/gpuseq:/tmp/site PATH=/tmp/blastpkg/bin:$PATH LD_LIBRARY_PATH=/tmp/blastpkg/lib
python3 - <<'PY'
import sys, subprocess
sys.path.insert(0, "benchmarks")
import bench_blastp
from pathlib import Path
f = Path("/tmp/ncudb"); f.mkdir(exist_ok=True)
print(bench_blastp.write_database(f, 20000, 1, 33)["residues"])
subprocess.run([sys.executable, "-m", "gpuseq.cli", "makedb", f / "subjects.fa", f / "subjects.gsdb"], check=True)
PY
cat > /tmp/ncu_run.py <<'PY'
import gpuseq, os, json
opts = json.loads(os.environ.get("OPTS", "{}"))
gpuseq.blastp("/tmp/ncudb/queries.fa", "/tmp/ncudb/subjects.gsdb", num_threads=16, backend="cuda", gpu_options=opts)
PY
timeout 400 ncu --kernel-name regex:"${KERNELS:-place_tile_hits|count_tile_hits}" --launch-count ${NCU_COUNT:-2} \
  --section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats \
  --section MemoryWorkloadAnalysis --section SchedulerStats --section InstructionStats \
  python3 /tmp/ncu_run.py > $R/ncu.txt 2>&1
echo "ncu rc $?"; grep -E "==PROF==|Duration|Throughput|Warp Cycles Per|Achieved Occ|Theoretical Occ|Stall|Issued Ipc|Registers|Block Limit|One or More|No Eligible|Executed Ipc|Hit Rate|Dynamic Shared|Branch Instr|Avg. Active|Avg. Not" $R/ncu.txt | head -120
