# Recreate the B and C wheels on the device from w47h (same Python) and the compressed _core builds.
for v in b d; do rm -rf .carry/w48$v; mkdir -p .carry/w48$v; cp -r .carry/w47h/gpuseq .carry/w48$v/; xz -dc .carry/p48/so/$v.so.xz > .carry/w48$v/gpuseq/_core.cpython-312-x86_64-linux-gnu.so; done
