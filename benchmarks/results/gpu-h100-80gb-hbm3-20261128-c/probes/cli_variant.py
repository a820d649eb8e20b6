# `gpuseq hmmsearch ARGS` with _Filters.run patched when VARIANT=first_alone: the first model of
# each run() (the longest of the first batch) runs alone, then GPU_CASCADES_IN_FLIGHT at once.
import importlib, os, sys
from concurrent.futures import ThreadPoolExecutor
import gpuseq.cli
hs = importlib.import_module("gpuseq.hmmsearch")
if os.environ.get("VARIANT") == "first_alone":
    original = hs._Filters.run
    def run(self, chunk, targets, threads, batches):
        if not (targets is not None and self.where == "cuda"):
            yield from original(self, chunk, targets, threads, batches)
            return
        uploaded = [targets]
        def one(q):
            return self._cascade(q, chunk.residues, chunk.offsets, uploaded[0], threads)
        def ordered():
            for batch in batches:
                batch = list(batch)
                self._share_ssv_blocks(batch)
                yield from sorted(batch, key=lambda q: -self.profiles[q].M)
        in_flight = hs.GPU_CASCADES_IN_FLIGHT
        with ThreadPoolExecutor(max_workers=in_flight) as pool:
            pending, first = [], True
            for q in ordered():
                pending.append((q, pool.submit(one, q)))
                if first or len(pending) == in_flight:
                    first = False
                    q0, future = pending.pop(0)
                    yield q0, future.result()
            for q0, future in pending:
                yield q0, future.result()
    hs._Filters.run = run
sys.exit(gpuseq.cli.main(sys.argv[1:]))
