# Sourced (as ../gpu-h200-20261129-d/probes/data.sh): tools on PATH, site wheels, and the bench database (made if this host has none).
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
if ! ls -d /tmp/bench/db-1400000-*/targets.gsdb >/dev/null 2>&1; then
t=$(date +%s)
PYTHONPATH=$PWD/.carry/${DATA_WHEEL:-w54}:/tmp/site python3 - <<'PY'
import sys; sys.path.insert(0, "benchmarks")
import bench_hmmsearch as bench
args = bench.parse_args(["--cpu", "16", "--seqs", "1400000", "--many-models", "100", "--examples-dir", ".carry/hmmer/examples", "--workdir", "/tmp/bench"])
models = bench.prepare_models(args.models, args.examples_dir, args.workdir / "models")
db = bench.ensure_database(args, models, bench.resolve_exe(None, "hmmemit"))
bench.write_query_file(models, args.workdir / "queries.hmm")
(src,) = bench.prepare_models(args.many_from, args.examples_dir, args.workdir / "models")
bench.many_models_file(src, args.many_models, bench.resolve_exe(None, "hmmemit"), bench.resolve_exe(None, "hmmbuild"), args.workdir / "models")
PY
echo "data $(( $(date +%s) - t )) s"
fi
DB=$(ls -d /tmp/bench/db-1400000-*/targets.gsdb | head -1); MANY=$(ls /tmp/bench/models/globins4-*-x100.hmm | head -1); SIX=/tmp/bench/queries.hmm
cli() { GPUSEQ_CACHE_DIR=/tmp/kc-$1 PYTHONPATH=$PWD/.carry/w$1:/tmp/site python3 -c "
import subprocess, sys, time
t = time.perf_counter()
subprocess.run([sys.executable, '-m', 'gpuseq.cli', 'hmmsearch', '--cpu', '16', '--noali', '--tblout', '/tmp/ab$1.tbl', '-o', '/tmp/ab$1.out', '--backend', 'cuda', '--no-progress', '$2', '$DB'], check=True)
print('variant [$1] $3:', round(time.perf_counter() - t, 3), 's')"; }
