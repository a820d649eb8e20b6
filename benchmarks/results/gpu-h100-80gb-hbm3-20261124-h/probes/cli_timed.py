# `gpuseq hmmsearch ARGS` with a timeline from this script's first line: imports, the search's
# stages (wrapped), the outputs; the caller times the whole process (start-up and exit too).
import time
T0 = time.perf_counter()
import functools, importlib, sys, threading, atexit
import gpuseq.cli
from gpuseq import _core
hs = importlib.import_module("gpuseq.hmmsearch")
import os
if os.environ.get("INFLIGHT"):
    hs.GPU_CASCADES_IN_FLIGHT = int(os.environ["INFLIGHT"])
T_IMPORT = time.perf_counter()
events = []
def wrap(owner, name, label=None):
    f = getattr(owner, name)
    @functools.wraps(f)
    def w(*a, **k):
        t = time.perf_counter()
        try:
            return f(*a, **k)
        finally:
            events.append((label or name, t, time.perf_counter()))
    setattr(owner, name, w)
wrap(_core, "cuda_initialize")
wrap(hs, "_upload")
wrap(hs._ModelStream, "first")
wrap(hs._Filters, "_cascade")
wrap(hs, "_run_hmmer_downstream")
wrap(hs._Downstream, "finish")
wrap(hs._Downstream, "close")
import gpuseq.hmmsearch_results as hr
for n in ("write_text", "write_tblout"):
    wrap(hr.HmmsearchResult, n)
if hasattr(hr, "HmmsearchWriter"):
    wrap(hr.HmmsearchWriter, "add_query")
    wrap(hr.HmmsearchWriter, "close")
wrap(hs, "hmmsearch", "hmmsearch()")
rc = gpuseq.cli.main(sys.argv[1:])
T_END = time.perf_counter()
print(f"imports {T_IMPORT - T0:.3f} s, main {T_END - T_IMPORT:.3f} s", file=sys.stderr)
by = {}
for name, a, b in events:
    by.setdefault(name, []).append((a - T0, b - T0))
for name, spans in sorted(by.items(), key=lambda kv: min(s for s, _ in kv[1])):
    print(f"  {name:24s} n={len(spans):4d} first {min(a for a, _ in spans):.3f} "
          f"last end {max(b for _, b in spans):.3f} busy {sum(b - a for a, b in spans):.3f}",
          file=sys.stderr)
atexit.register(lambda: print(f"atexit at {time.perf_counter() - T0:.3f} s", file=sys.stderr))
if os.environ.get("EXIT") == "os":
    sys.stdout.flush(); sys.stderr.flush()
    os._exit(rc or 0)
sys.exit(rc)
