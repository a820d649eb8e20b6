# Session 79, call 2: the three random blastp cases that call 1's timeout cut short, then
# compute-sanitizer on HEAD's kernels (.carry/w121 = a9051e8): session 78's c3.sh, run as written.
set -uo pipefail
W=${W:-w121} N=${N:-2}; . benchmarks/results/gpu-h200-20261201-d/probes/setup.sh
for s in 15010189 15030088 15050058; do
  GPUSEQ_CACHE_DIR=/tmp/kc-f timeout 60 python3 -W ignore benchmarks/results/gpu-h200-20261130-g/probes/seeds.py \
    blastp cuda $s 1 30 > $OUT/rerun-$s.log 2>&1; tail -n 1 $OUT/rerun-$s.log
done
W=$W N=$N . benchmarks/results/gpu-h200-20261202-g/probes/c3.sh
