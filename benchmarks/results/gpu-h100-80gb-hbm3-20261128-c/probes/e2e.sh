# Old (366efb6, .carry/wo) against new (.carry/wp): the packed-database CLI, alternated; the
# in-process cascade phases; a timeline of each.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
nvidia-smi -L | tee $OUT/device.txt; nproc
python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
t=$(date +%s)
PYTHONPATH=$PWD/.carry/wp:/tmp/site python3 - <<'PY'
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
DB=$(ls -d /tmp/bench/db-1400000-*/targets.gsdb | head -1); MANY=$(ls /tmp/bench/models/globins4-*-x100.hmm | head -1); SIX=/tmp/bench/queries.hmm
cli() { # tag hmmfile label
  GPUSEQ_CACHE_DIR=/tmp/kc-$1 PYTHONPATH=$PWD/.carry/w$1:/tmp/site python3 -c "
import subprocess, sys, time
t = time.perf_counter()
subprocess.run([sys.executable, '-m', 'gpuseq.cli', 'hmmsearch', '--cpu', '16', '--noali', '--tblout', '/tmp/ab$1.tbl', '-o', '/tmp/ab$1.out', '--backend', 'cuda', '--no-progress', '$2', '$DB'], check=True)
print('variant [$1] $3:', round(time.perf_counter() - t, 3), 's')"; }
for w in o p; do cli $w $SIX warm-six; cli $w $MANY warm-many; done 2>&1 | tee $OUT/e2e-warm.log
for r in 1 2 3 4 5; do cli o $SIX six; cli p $SIX six; done 2>&1 | tee $OUT/e2e-six-ab.log
cmp <(grep -v "^#" /tmp/abo.tbl) <(grep -v "^#" /tmp/abp.tbl) && echo "tblout equal" | tee -a $OUT/e2e-six-ab.log
for r in 1 2 3; do cli o $MANY many; cli p $MANY many; done 2>&1 | tee $OUT/e2e-many-ab.log
for r in 1 2; do for w in o p; do GPUSEQ_CACHE_DIR=/tmp/kc-$w PYTHONPATH=$PWD/.carry/w$w:/tmp/site timeout 60 python3 .carry/phases.py $w $DB $SIX 4; done; done 2>&1 | tee $OUT/phases-six.log
for w in o p; do for r in 1 2; do echo "== [$w]"; GPUSEQ_CACHE_DIR=/tmp/kc-$w PYTHONPATH=$PWD/.carry/w$w:/tmp/site /usr/bin/time -f "%e s wall" python3 .carry/cli_timed.py hmmsearch --cpu 16 --noali --tblout /tmp/t.tbl -o /tmp/t.out --backend cuda --no-progress $SIX $DB; done; done 2>&1 | tee $OUT/timeline-six.log
