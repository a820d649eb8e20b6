# `gpuseq hmmsearch ARGS` with the downstream threads' nice value from NICE (GPUSEQ_CUDA_WAIT,
# read by gpuseq.backend.start_cuda, sets how host threads wait for the GPU).
import importlib, os, sys
import gpuseq.cli
hs = importlib.import_module("gpuseq.hmmsearch")
hs.DOWNSTREAM_NICE = int(os.environ.get("NICE", "0"))
sys.exit(gpuseq.cli.main(sys.argv[1:]))
