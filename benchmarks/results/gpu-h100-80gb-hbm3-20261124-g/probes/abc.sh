#!/usr/bin/env bash
# A/B/C of 100-model CLI processes: A = this tree; B = this tree with OPENBLAS_NUM_THREADS=16
# (the CLI's default before 221890d); C = this tree without its uncommitted cuda/ changes.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl
build() { python3 -m pip install -q --no-build-isolation --no-deps --target /tmp/gpuseq$1 \
  -Ccmake.define.GPUSEQ_CUDA=ON -Ccmake.define.CMAKE_CUDA_ARCHITECTURES=90a -Cbuild-dir=/tmp/gpuseq-build$1 . > /tmp/build$1.log 2>&1; echo "built [$1] rc=$?"; }
git diff --quiet -- cuda || { git stash push -q -- cuda && build -c; git stash pop -q; }
build "" 
export PYTHONPATH=/tmp/gpuseq:/tmp/site
python3 - <<'PY'
import sys; sys.path.insert(0, "benchmarks")
import bench_hmmsearch as bench
args = bench.parse_args(["--cpu", "16", "--seqs", "1400000", "--many-models", "100", "--examples-dir", ".carry/hmmer/examples", "--workdir", "/tmp/bench"])
models = bench.prepare_models(args.models, args.examples_dir, args.workdir / "models")
db = bench.ensure_database(args, models, bench.resolve_exe(None, "hmmemit"))
(src,) = bench.prepare_models(args.many_from, args.examples_dir, args.workdir / "models")
bench.many_models_file(src, args.many_models, bench.resolve_exe(None, "hmmemit"), bench.resolve_exe(None, "hmmbuild"), args.workdir / "models")
PY
DB=$(ls -d /tmp/bench/db-1400000-*/targets.gsdb | head -1); MANY=$(ls /tmp/bench/models/globins4-*-x100.hmm | head -1)
cli() { python3 -c "
import subprocess, sys, time, os
env = dict(os.environ, PYTHONPATH='/tmp/gpuseq$1:/tmp/site')
if '$2': env['OPENBLAS_NUM_THREADS'] = '$2'
t = time.perf_counter()
subprocess.run([sys.executable, '-m', 'gpuseq.cli', 'hmmsearch', '--cpu', '16', '--noali', '--tblout', '/tmp/ab$1.tbl', '-o', '/tmp/ab$1.out', '--backend', 'cuda', '--no-progress', '$MANY', '$DB'], env=env, check=True)
print('variant [$1] openblas [$2]:', round(time.perf_counter() - t, 3), 's')
"; }
for r in 1 2 3 4; do cli "" ""; cli "" 16; [ -d /tmp/gpuseq-c ] && cli -c ""; done
[ -f /tmp/ab-c.tbl ] && cmp <(grep -v "^#" /tmp/ab.tbl) <(grep -v "^#" /tmp/ab-c.tbl) && echo "tblout equal"
