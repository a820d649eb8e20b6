# Session 65, call 5: .carry/w92: the sanitizer block of benchmarks/run_on_gpu_host.sh as
# committed (every workload section a process, side by side), memcheck only.
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w92:/tmp/site SANITIZERS=memcheck LOGS=$OUT
fail() { echo "FAILED: $2 (see $1)"; tail -40 "$1"; exit 1; }
t=$(date +%s)
eval "$(sed -n '/^# Every GPU kernel under compute-sanitizer/,/^done$/p' benchmarks/run_on_gpu_host.sh)"
echo "after $(( $(date +%s) - t )) s"; grep -E "^== |SUMMARY|differing" $OUT/memcheck.log
