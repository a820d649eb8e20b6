# `gpuseq hmmsearch ARGS` timing the process's exit (session 43): prints when main returned,
# when the last atexit handler ran (after non-daemon threads were joined) and, with FASTEXIT=1,
# leaves by os._exit after flushing (no interpreter teardown, no C++ static destructors).
import time
T0 = time.perf_counter()
import atexit, os, sys
import gpuseq.cli
atexit.register(lambda: print(f"exit: atexit {time.perf_counter() - T0:.3f}", file=sys.stderr))
rc = gpuseq.cli.main(sys.argv[1:])
print(f"exit: main {time.perf_counter() - T0:.3f}", file=sys.stderr)
if os.environ.get("FASTEXIT"):
    sys.stdout.flush(); sys.stderr.flush(); os._exit(rc)
sys.exit(rc)
