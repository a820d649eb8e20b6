# Session 69, call 3: tests/test_random_commands.py (the fuzzers' generators as a test: 14
# hmmsearch and 14 blastp cases, each with --backend cpu and cuda) on .carry/w102, three times
# with the kernel cache cold then warm.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -x /tmp/blastpkg/bin/blastp ] || tar xJf .carry/blast.tar.xz -C /tmp
mkdir -p /tmp/blastpkg/wrap  # (the libraries for the two programs only, not for python3)
for p in blastp makeblastdb; do
  printf '#!/bin/sh\nLD_LIBRARY_PATH=/tmp/blastpkg/lib exec /tmp/blastpkg/bin/%s "$@"\n' $p > /tmp/blastpkg/wrap/$p
  chmod +x /tmp/blastpkg/wrap/$p; done
export PATH="/tmp/blastpkg/wrap:$PATH"
python3 -m pip install -q --no-index --no-deps --target /tmp/site3 .carry/wh-min/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w102:/tmp/site3:$PWD/tests GPUSEQ_CACHE_DIR=/tmp/kc-f3
for i in 1 2 3; do
  t=$(date +%s)
  timeout 200 python3 -m pytest -n 8 -q -ra -p no:cacheprovider tests/test_random_commands.py > $OUT/pytest-3-$i.log 2>&1
  echo "run $i: rc $? after $(( $(date +%s) - t )) s"; tail -n 1 $OUT/pytest-3-$i.log
done
