# Compile a kernel instantiation with NVRTC from headers in a directory (as runtime_compile.cpp
# does with the embedded ones), disassemble it; argv: cuda_dir name_expression out_prefix
import ctypes, sys, subprocess
nv = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
root, expr, out = sys.argv[1], sys.argv[2], sys.argv[3]
hdrs = ["hmm/warp_lanes.cuh", "hmm/msv.cuh", "hmm/viterbi_filter.cuh", "hmm/viterbi_fused.cuh", "hmm/msv_multi.cuh"]
texts = [open(f"{root}/{h}").read().encode() for h in hdrs]
src = "".join(f'#include "{h}"\n' for h in hdrs).encode()
prog = ctypes.c_void_p()
arr = lambda xs: (ctypes.c_char_p * len(xs))(*xs)
assert nv.nvrtcCreateProgram(ctypes.byref(prog), src, b"k.cu", len(hdrs), arr(texts), arr([h.encode() for h in hdrs])) == 0
assert nv.nvrtcAddNameExpression(prog, expr.encode()) == 0
opts = [b"--gpu-architecture=sm_90a", b"-std=c++17"]
rc = nv.nvrtcCompileProgram(prog, len(opts), arr(opts))
if rc:
    n = ctypes.c_size_t(); nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n)); b = ctypes.create_string_buffer(n.value); nv.nvrtcGetProgramLog(prog, b); print(b.value.decode()); sys.exit(1)
n = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n)); b = ctypes.create_string_buffer(n.value); nv.nvrtcGetCUBIN(prog, b)
open(out + ".cubin", "wb").write(b.raw)
open(out + ".sass", "w").write(subprocess.run(["/tmp/cuobj/x/nvidia/cu13/bin/nvdisasm", "-c", out + ".cubin"], capture_output=True, text=True).stdout)
