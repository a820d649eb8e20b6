# `gpuseq hmmsearch ARGS` with experiment knobs from the environment (session 42's plan for the
# next device session; monkeypatches only):
#   SWITCH=s       sys.setswitchinterval(s) (CPython's default 0.005: how long a thread that
#                  holds the GIL may keep it while others wait)
#   DS_THREADS=n   HMMER's downstream on n threads instead of --cpu's
#   LOOKAHEAD=k    _Filters.run keeps k cascades submitted (GPU_CASCADES_IN_FLIGHT of them
#                  running, the others queued in the pool), not GPU_CASCADES_IN_FLIGHT: the
#                  workers then take the next model without waiting for the main thread,
#                  which hands each result to the downstream first (GIL-bound)
#   PHASES=1       at exit: the cascades' mean ssv_wait (the SSV lock's queue) and msv phase
import atexit, importlib, os, sys
from concurrent.futures import ThreadPoolExecutor
import gpuseq.cli
from gpuseq import _core
hs = importlib.import_module("gpuseq.hmmsearch")
if os.environ.get("SWITCH"):
    sys.setswitchinterval(float(os.environ["SWITCH"]))
if os.environ.get("DS_THREADS"):
    n = int(os.environ["DS_THREADS"])
    init = hs._Downstream.__init__
    def __init__(self, options, threads, report=None):
        init(self, options, n, report)
    hs._Downstream.__init__ = __init__
if os.environ.get("LOOKAHEAD"):
    limit = int(os.environ["LOOKAHEAD"])
    def run(self, chunk, targets, threads, batches, first_alone=False):
        uploaded = [targets]
        def one(q):
            if self.gpu[q] is None:
                return self._cascade(q, chunk.residues, chunk.offsets, None, threads)
            if uploaded[0] is None:
                return self._split(q, chunk.residues, chunk.offsets, threads)
            try:
                return self._cascade(q, chunk.residues, chunk.offsets, uploaded[0], threads)
            except _core.DeviceOutOfMemory:
                if chunk.device_copies:
                    chunk.device_copies.clear()
                uploaded[0] = None
                return self._split(q, chunk.residues, chunk.offsets, threads)
        def ordered():
            for batch in batches:
                batch = list(batch)
                self._share_ssv_blocks(batch)
                yield from sorted(batch, key=lambda q: -self.profiles[q].M)
        in_flight = hs.GPU_CASCADES_IN_FLIGHT if targets is not None and self.where == "cuda" else 1
        if in_flight == 1:
            for q in ordered():
                yield q, one(q)
            return
        with ThreadPoolExecutor(max_workers=in_flight) as pool:
            pending = []
            for i, q in enumerate(ordered()):
                pending.append((q, pool.submit(one, q)))
                if (first_alone and i == 0) or len(pending) >= max(limit, in_flight):
                    q0, future = pending.pop(0)
                    yield q0, future.result()
            for q0, future in pending:
                yield q0, future.result()
    hs._Filters.run = run
if os.environ.get("PHASES"):
    waits = []
    cascade = hs._Filters._cascade
    def _cascade(self, *a, **k):
        r = cascade(self, *a, **k)
        waits.append(r.get("seconds", {}))
        return r
    hs._Filters._cascade = _cascade
    def report():
        if waits:
            keys = sorted({k for w in waits for k in w})
            print("phases a model (ms): " + " ".join(f"{k}={sum(w.get(k, 0) for w in waits) / len(waits) * 1e3:.2f}" for k in keys), file=sys.stderr)
    atexit.register(report)
sys.exit(gpuseq.cli.main(sys.argv[1:]))
