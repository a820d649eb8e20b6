#!/usr/bin/env bash
# A/B of CLI processes: A = this tree; B = this tree with HEAD's python/gpuseq/$B_FILES (default cli.py).
# 6 models (queries.hmm) and 100 models, packed database, alternated; then a timeline of A.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl
t0=$(date +%s)
python3 -m pip install -q --no-build-isolation --no-deps --target /tmp/gpuseq \
  -Ccmake.define.GPUSEQ_CUDA=ON -Ccmake.define.CMAKE_CUDA_ARCHITECTURES=90a -Cbuild-dir=/tmp/gpuseq-build . > $OUT/build-early.log 2>&1 || { tail -30 $OUT/build-early.log; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
rm -rf /tmp/gpuseq-b && cp -r /tmp/gpuseq /tmp/gpuseq-b
for f in ${B_FILES:-cli.py}; do git show HEAD:python/gpuseq/$f > /tmp/gpuseq-b/gpuseq/$f; done
export PYTHONPATH=/tmp/gpuseq:/tmp/site
python3 - <<'PY'
import sys; sys.path.insert(0, "benchmarks")
import bench_hmmsearch as bench
args = bench.parse_args(["--cpu", "16", "--seqs", "1400000", "--many-models", "100", "--examples-dir", ".carry/hmmer/examples", "--workdir", "/tmp/bench"])
models = bench.prepare_models(args.models, args.examples_dir, args.workdir / "models")
db = bench.ensure_database(args, models, bench.resolve_exe(None, "hmmemit"))
bench.write_query_file(models, args.workdir / "queries.hmm")
(src,) = bench.prepare_models(args.many_from, args.examples_dir, args.workdir / "models")
bench.many_models_file(src, args.many_models, bench.resolve_exe(None, "hmmemit"), bench.resolve_exe(None, "hmmbuild"), args.workdir / "models")
PY
DB=$(ls -d /tmp/bench/db-1400000-*/targets.gsdb | head -1); MANY=$(ls /tmp/bench/models/globins4-*-x100.hmm | head -1); SIX=/tmp/bench/queries.hmm
cli() { python3 -c "
import subprocess, sys, time, os
env = dict(os.environ, PYTHONPATH='/tmp/gpuseq$1:/tmp/site')
t = time.perf_counter()
subprocess.run([sys.executable, '-m', 'gpuseq.cli', 'hmmsearch', '--cpu', '16', '--noali', '--tblout', '/tmp/ab$1.tbl', '-o', '/tmp/ab$1.out', '--backend', 'cuda', '--no-progress', '$2', '$DB'], env=env, check=True)
print('variant [$1] $3:', round(time.perf_counter() - t, 3), 's')
"; }
for r in 1 2 3 4 5; do cli "" $SIX six; cli -b $SIX six; cli "" $MANY many; cli -b $MANY many; done 2>&1 | tee $OUT/early-ab.log
cmp <(grep -v "^#" /tmp/ab.tbl) <(grep -v "^#" /tmp/ab-b.tbl) && echo "tblout equal"; cmp <(grep -v "^#" /tmp/ab.out) <(grep -v "^#" /tmp/ab-b.out) && echo "text equal"
for r in 1 2; do /usr/bin/time -f "%e s wall" python3 .carry/cli_timed.py hmmsearch --cpu 16 --noali --tblout /tmp/t.tbl -o /tmp/t.out --backend cuda --no-progress $MANY $DB; done 2>&1 | tee $OUT/timeline-many.log
