# Session 38, call C: the final tree (D->D floors apart only past 16 stripes; SSV slow counts 42, 43).
t=$(date +%s)
timeout 220 python3 -m pytest -q -ra -p no:cacheprovider -n 8 tests/test_gpu_viterbi_fused.py tests/test_gpu_filters.py tests/test_gpu_walters.py tests/test_gpu_nvrtc.py > $OUT/pytest-final.log 2>&1
echo "pytest rc $? $(( $(date +%s) - t )) s"; tail -4 $OUT/pytest-final.log
for tool in memcheck racecheck; do
  SECTIONS=fused timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/$tool-fused-final.log 2>&1
  echo "$tool rc $?"; tail -2 $OUT/$tool-fused-final.log
done
timeout 60 python3 benchmarks/sweep_warp_stripes.py --first 40 --last 44 > $OUT/sweep_40_44.log 2>&1; echo "sweep rc $?"; cat $OUT/sweep_40_44.log
echo "== final tree"; timeout 100 python3 .carry/vit_ab.py
t=$(date +%s)
timeout 200 python3 benchmarks/bench_hmm_filters.py --filters viterbi --models 200,400,800,1024,1200,1600,2400 --residues 1e6 --cpu-residues 0 --thread-models 0 --repeat 3 --examples .carry/hmmer/examples --out $OUT/bench_viterbi_final.json > $OUT/bench_viterbi_final.log 2>&1; echo "bench rc $? $(( $(date +%s) - t )) s"
grep -E "warp_fused|fused/T|^ +[0-9]+ +[0-9.-]+ +[0-9.-]+" $OUT/bench_viterbi_final.log | head -80
