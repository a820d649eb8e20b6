#!/usr/bin/env bash
# ncu sections of the cascade's Viterbi (fused) and SSV kernels, one cascade (ncu_probe.py).
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=/tmp/gpuseq:/tmp/site
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
timeout 400 $NCU --clock-control none --profile-from-start off --kernel-name regex:"viterbi_fused|ssv_multi|forward|bias" \
  --section SpeedOfLight --section SchedulerStats --section WarpStateStats --section Occupancy --section LaunchStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
  python3 .carry/ncu_probe.py > $OUT/ncu-vit.txt 2> $OUT/ncu-vit.err
echo "ncu rc=$?"; tail -3 $OUT/ncu-vit.err
grep -E "viterbi_fused|ssv_multi|forward|bias_|Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Issued Warp Per|No Eligible|Active Warps Per|Eligible Warps|Warp Cycles Per Issued|Compute \(SM\) Throughput|Memory Throughput|Block Limit|Executed Ipc A" $OUT/ncu-vit.txt | head -90
