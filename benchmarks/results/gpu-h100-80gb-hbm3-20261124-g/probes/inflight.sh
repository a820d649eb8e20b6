#!/usr/bin/env bash
# Cascades in flight (hmmsearch.GPU_CASCADES_IN_FLIGHT) 8 / 12 / 16: the CLI in processes,
# alternated; 100 models and the 6-model set against the packed database, 6 models from FASTA.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl
python3 -m pip install -q --no-build-isolation --no-deps --target /tmp/gpuseq \
  -Ccmake.define.GPUSEQ_CUDA=ON -Ccmake.define.CMAKE_CUDA_ARCHITECTURES=90a -Cbuild-dir=/tmp/gpuseq-build . > /tmp/build.log 2>&1; echo "built rc=$?"
export PYTHONPATH=/tmp/gpuseq:/tmp/site
python3 - <<'PY'
import sys; sys.path.insert(0, "benchmarks")
import bench_hmmsearch as bench
args = bench.parse_args(["--cpu", "16", "--seqs", "1400000", "--many-models", "100", "--examples-dir", ".carry/hmmer/examples", "--workdir", "/tmp/bench"])
models = bench.prepare_models(args.models, args.examples_dir, args.workdir / "models")
db = bench.ensure_database(args, models, bench.resolve_exe(None, "hmmemit"))
(src,) = bench.prepare_models(args.many_from, args.examples_dir, args.workdir / "models")
bench.many_models_file(src, args.many_models, bench.resolve_exe(None, "hmmemit"), bench.resolve_exe(None, "hmmbuild"), args.workdir / "models")
bench.write_query_file(models, args.workdir / "queries.hmm")
PY
DB=$(ls -d /tmp/bench/db-1400000-*/targets.gsdb | head -1); FA=$(dirname $DB)/targets.fa
MANY=$(ls /tmp/bench/models/globins4-*-x100.hmm | head -1); SIX=/tmp/bench/queries.hmm
cli() { python3 -c "
import subprocess, sys, time
code = 'import sys, gpuseq.hmmsearch as h; h.GPU_CASCADES_IN_FLIGHT = $1; from gpuseq.cli import main; sys.exit(main(sys.argv[1:]))'
t = time.perf_counter()
subprocess.run([sys.executable, '-c', code, 'hmmsearch', '--cpu', '16', '--noali', '--tblout', '/tmp/if$1-$2.tbl', '-o', '/tmp/if$1.out', '--backend', 'cuda', '--no-progress', '$3', '$4'], check=True)
print('$2 in flight $1:', round(time.perf_counter() - t, 3), 's')
"; }
for r in 1 2 3 4; do for k in 8 12 16; do cli $k many $MANY $DB; cli $k six $SIX $DB; cli $k fasta $SIX $FA; done; done
for w in many six fasta; do cmp <(grep -v "^#" /tmp/if8-$w.tbl) <(grep -v "^#" /tmp/if12-$w.tbl) && cmp <(grep -v "^#" /tmp/if8-$w.tbl) <(grep -v "^#" /tmp/if16-$w.tbl) && echo "$w tblout equal"; done
