export PYTHONPATH=/tmp/gpuseq:/tmp/site PYTHONUNBUFFERED=1
timeout 330 python3 .carry/h_sweep2.py 2>&1 | tee $OUT/s-lane-h-sweep.log | tail -5
