# Session 43, call 1: the owed GPU checks of HEAD (518ed62's wheel, .carry/wh): the whole cuda
# suite, memcheck of the whole sanitizer workload, racecheck of it in three section groups, all
# at once on one GPU (16 cores).
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/wh:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-san
nvidia-smi -L | tee $OUT/device.txt; nvidia-smi --query-gpu=driver_version --format=csv,noheader >> $OUT/device.txt
compute-sanitizer --version | tail -1 >> $OUT/device.txt
python3 -c 'import gpuseq, json; print(json.dumps(gpuseq.build_info()))' | tee -a $OUT/device.txt
t0=$(date +%s)
( timeout 540 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests > $OUT/pytest-cuda.log 2>&1; echo "pytest rc $? $(( $(date +%s) - t0 )) s" >> $OUT/rc.txt ) &
( timeout 540 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-whole-workload.log 2>&1; echo "memcheck whole rc $? $(( $(date +%s) - t0 )) s" >> $OUT/rc.txt ) &
for g in distances,b1gemm,filters,warp_tables,claims,streams nvrtc,walters,slane fused,mrf,blast; do
  ( SECTIONS=$g timeout 540 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/racecheck-${g//,/-}.log 2>&1; echo "racecheck $g rc $? $(( $(date +%s) - t0 )) s" >> $OUT/rc.txt ) &
done
wait
cat $OUT/rc.txt; tail -4 $OUT/pytest-cuda.log; for f in $OUT/*check*.log; do echo "== $f"; tail -3 $f; done
