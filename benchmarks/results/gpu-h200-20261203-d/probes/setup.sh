# Session 83: what every call sources first (session 75's setup.sh, with blastp's matrices in
# BLASTMAT: this session's .carry/blast.tar.xz holds Debian's blastp 2.12, makeblastdb, their
# libraries and /usr/share/ncbi/data's BLOSUM and PAM files). Unpacks the module
# (.carry/$W.tar.xz), HMMER 3.3.2 with its tutorial and testsuite examples, the wheels
# (pyhmmer, biopython); sets PATH and PYTHONPATH; writes the device to $OUT/device-$N.txt.
S0=$(date +%s)
tar xJf .carry/$W.tar.xz -C /tmp
[ -x /tmp/hmmer/bin/hmmsearch ] || tar xJf .carry/hmmer.tar.xz -C /tmp
if [ ! -x /tmp/blastpkg/bin/blastp ]; then
  tar xJf .carry/blast.tar.xz -C /tmp; mkdir -p /tmp/blastpkg/wrap
  for p in blastp makeblastdb; do
    printf '#!/bin/sh\nBLASTMAT=/tmp/blastpkg/data LD_LIBRARY_PATH=/tmp/blastpkg/lib exec /tmp/blastpkg/bin/%s "$@"\n' $p > /tmp/blastpkg/wrap/$p
    chmod +x /tmp/blastpkg/wrap/$p; done
fi
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site1 .carry/wheels/*.whl 2>&1 | grep -v "already exists" | tail -2
export PATH="/tmp/blastpkg/wrap:/tmp/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES=/tmp/hmmer/examples PYTHONUNBUFFERED=1
export PYTHONPATH=/tmp/$W:/tmp/site1:$PWD/tests
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-$N.txt; nproc >> $OUT/device-$N.txt
python3 -c 'import gpuseq, json; print(json.dumps(gpuseq.build_info()))' >> $OUT/device-$N.txt; cat $OUT/device-$N.txt
blastp -version | head -1
