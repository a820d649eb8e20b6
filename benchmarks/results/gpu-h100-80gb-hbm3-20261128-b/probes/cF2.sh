# Benchmarks of d06cc3c (final wheel): Viterbi and SSV/MSV kernel GCUPS, then hmmsearch end to end.
set -u
export PYTHONUNBUFFERED=1 GPUSEQ_HMMER_EXAMPLES=$PWD/.carry/hmmer/examples PATH=$PWD/.carry/hmmer/bin:$PATH
export GPUSEQ_CACHE_DIR=/tmp/kcache PYTHONPATH=$PWD/.carry/wp:/tmp/site
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
t=$(date +%s); timeout 120 python3 benchmarks/bench_hmm_filters.py --filters viterbi --models 100,150,200,256,300,400,520,640,800,1024,1200,1400,1600,2400 --residues 1e6 --cpu-residues 0 --thread-models 0 --repeat 3 --examples .carry/hmmer/examples --out $OUT/bench_viterbi.json > $OUT/bench_viterbi.log 2>&1; echo "viterbi rc $? $(( $(date +%s) - t )) s"
t=$(date +%s); timeout 200 python3 benchmarks/bench_hmm_filters.py --filters ssv,msv --models 150,200,400,800,1200,1600,2048,2400,3000 --residues 100e6 --cpu-residues 0 --repeat 3 --examples .carry/hmmer/examples --out $OUT/bench_ssv_msv.json > $OUT/bench_ssv_msv.log 2>&1; echo "ssv/msv rc $? $(( $(date +%s) - t )) s"
t=$(date +%s); timeout 250 python3 benchmarks/bench_hmmsearch.py --examples-dir .carry/hmmer/examples --workdir /tmp/bench --cpu 16 --seqs 1400000 --repeat 3 --many-models 100 --skip hmmsearch_many,pyhmmer --out $OUT/bench_hmmsearch.json > $OUT/bench_hmmsearch.log 2>&1; echo "hmmsearch bench rc $? $(( $(date +%s) - t )) s"; tail -n 22 $OUT/bench_hmmsearch.log
