# Session 78: the carried files remade on the build machine (its .carry/ was gone), after
# apt-get install hmmer hmmer-examples ncbi-blast+. Run from the repository's root; .carry/ is
# ignored by git. MODULE=wNN packs python/gpuseq (with its built _core) as .carry/wNN.tar.xz.
set -euo pipefail
S=$(mktemp -d); mkdir -p .carry "$S/hmmer/bin" "$S/blastpkg/bin" "$S/blastpkg/lib"
for b in $(dpkg -L hmmer | grep "^/usr/bin/"); do cp "$b" "$S/hmmer/bin/"; done
mkdir "$S/hmmer/examples"; cp -rL /usr/share/doc/hmmer/examples/{tutorial,testsuite} "$S/hmmer/examples/"
cp /usr/bin/blastp /usr/bin/makeblastdb "$S/blastpkg/bin/"
for l in $(ldd /usr/bin/blastp /usr/bin/makeblastdb | awk '/=>/{print $3}' | sort -u); do
  case $l in */libc.so*|*/libm.so*|*/libstdc++*|*/libgcc_s*|*/ld-linux*) ;; *) cp -L "$l" "$S/blastpkg/lib/";; esac
done
tar -C "$S" -cJf .carry/hmmer.tar.xz hmmer; tar -C "$S" -cJf .carry/blast.tar.xz blastpkg; rm -rf "$S"
P="--no-deps --only-binary=:all: --python-version 3.12 --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 --platform any"
python3 -m pip download -q $P -d .carry/wheels-search pyhmmer==0.12.3 biopython
python3 -m pip download -q $P -d .carry/wheels-data bed-reader cyvcf2 coloredlogs humanfriendly nibabel pynrrd pydicom
if [ -n "${MODULE:-}" ]; then
  rm -rf ".carry/$MODULE"; mkdir ".carry/$MODULE"; cp -rL python/gpuseq ".carry/$MODULE/gpuseq"
  find ".carry/$MODULE" -name __pycache__ -prune -exec rm -rf {} +; tar -C .carry -cJf ".carry/$MODULE.tar.xz" "$MODULE"
fi
