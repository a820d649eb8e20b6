# Session 62: as ../gpu-h100-80gb-hbm3-20261128-d/probes/cli_timeline.py, with GPUSEQ_PROBE_PART_SECONDS
# setting _Downstream.PART_SECONDS (the smallest estimated work of a downstream part).
# `gpuseq hmmsearch ARGS` with a timeline from this script's first line: imports, the search's
# stages (wrapped), the outputs; the caller times the whole process (start-up and exit too).
import time
T0 = time.perf_counter()
import functools, importlib, sys, atexit, os
import gpuseq.cli
from gpuseq import _core
hs = importlib.import_module("gpuseq.hmmsearch")
import gpuseq.hmmsearch_results as hr
if os.environ.get("GPUSEQ_PROBE_PART_SECONDS"):
    hs._Downstream.PART_SECONDS = float(os.environ["GPUSEQ_PROBE_PART_SECONDS"])
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
wrap(hs._Filters, "add", "Filters.add")
wrap(hs._Filters, "_cascade")
wrap(hs, "_run_hmmer_downstream")
wrap(hs._Downstream, "_final")
wrap(hs._Downstream, "finish")
wrap(hs._Downstream, "close")
wrap(hs, "_merged")
wrap(hr.HmmsearchWriter, "add_query")
wrap(hr.HmmsearchWriter, "close", "Writer.close")
wrap(hs, "hmmsearch", "hmmsearch()")
rc = gpuseq.cli.main(sys.argv[1:])  # (main ends the process itself unless GPUSEQ_FULL_EXIT=1)
T_END = time.perf_counter()
print(f"imports {T_IMPORT - T0:.3f} s, main {T_END - T_IMPORT:.3f} s", file=sys.stderr)
by = {}
for name, a, b in events:
    by.setdefault(name, []).append((a - T0, b - T0))
for name, spans in sorted(by.items(), key=lambda kv: min(s for s, _ in kv[1])):
    print(f"  {name:24s} n={len(spans):4d} first {min(a for a, _ in spans):.3f} "
          f"last end {max(b for _, b in spans):.3f} busy {sum(b - a for a, b in spans):.3f}",
          file=sys.stderr)
casc = sorted(by.get("_cascade", []), key=lambda s: s[1])
if casc:
    print("  cascade ends: " + " ".join(f"{b:.3f}" for _, b in casc[:3]) + " ... " + " ".join(f"{b:.3f}" for _, b in casc[-10:]), file=sys.stderr)
fin = sorted(by.get("_final", []), key=lambda s: s[0])
if fin:
    print("  last _final spans: " + " ".join(f"{a:.3f}-{b:.3f}" for a, b in fin[-10:]), file=sys.stderr)
aq = sorted(by.get("add_query", []))
if aq:
    print(f"  add_query mean {sum(b - a for a, b in aq) / len(aq) * 1e3:.2f} ms; last: " + " ".join(f"{a:.3f}-{b:.3f}" for a, b in aq[-6:]), file=sys.stderr)
atexit.register(lambda: print(f"atexit at {time.perf_counter() - T0:.3f} s", file=sys.stderr))
sys.exit(rc)
