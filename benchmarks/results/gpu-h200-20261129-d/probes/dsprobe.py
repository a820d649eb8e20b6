"""Session 53 probe (copied for session 54, the base variant only): HMMER's downstream in `gpuseq hmmsearch`, its parts and their threads.

python3 dsprobe.py timeline VARIANT -- hmmsearch ARGS...   in process, events printed
python3 dsprobe.py run VARIANT -- hmmsearch ARGS...        as the gpuseq command (os._exit)
VARIANT: base (the package as it is) or cap<K>:<P> (survivors past the GPU's Forward bound in
up to K x threads parts of at least P targets, where the package takes threads parts of 4).
"""
import os
import sys
import threading
import time

T0 = time.perf_counter()
mode, variant = sys.argv[1], sys.argv[2]
argv = sys.argv[sys.argv.index("--") + 1:]

import importlib  # noqa: E402

hs = importlib.import_module("gpuseq.hmmsearch")  # (gpuseq.hmmsearch is also the function)

events = []
if variant.startswith("cost"):
    # Parts of at least min_cost seconds of estimated work (a hit's domain definition: ~1.7 ms
    # + 37 ns per model node x residue, fitted to call 1's hits alone), at most a part per
    # thread, cut where the running cost crosses k x total / parts.
    min_cost = float(variant[4:]) / 1000

    def submit(self, q, survivors, nseqs_so_far, bounded=False):
        if not bounded:
            parts = hs._split(survivors, self.MIN_PART, self.threads)
        else:
            M = self.hmms[q].M
            costs = [1.7e-3 + 37e-9 * M * len(s) for s in survivors]
            total = sum(costs)
            n = max(1, min(self.threads, int(total / min_cost), len(survivors)))
            parts, start, run, k = [], 0, 0.0, 1
            for i, c in enumerate(costs):
                run += c
                if k < n and run >= k * total / n:
                    parts.append(survivors[start:i + 1])
                    start, k = i + 1, k + 1
            if start < len(survivors):
                parts.append(survivors[start:])
        for part in parts:
            future = self.pool.submit(hs._run_hmmer_downstream, self.hmms[q], part, self.options,
                                      nseqs_so_far)
            self.parts[q].append(future)
            self.chunk_futures.append(future)

    hs._Downstream.submit = submit
elif variant != "base":
    mult, min_part = (int(x) for x in variant[3:].split(":"))

    def submit(self, q, survivors, nseqs_so_far, bounded=False):
        parts = hs._split(survivors, min_part if bounded else self.MIN_PART,
                          self.threads * (mult if bounded else 1))
        for part in parts:
            future = self.pool.submit(hs._run_hmmer_downstream, self.hmms[q], part, self.options,
                                      nseqs_so_far)
            self.parts[q].append(future)
            self.chunk_futures.append(future)

    hs._Downstream.submit = submit

if mode == "timeline":
    run_downstream = hs._run_hmmer_downstream

    def timed(hmm, sequences, options, Z):
        t = time.perf_counter()
        out = run_downstream(hmm, sequences, options, Z)
        events.append(("ds", threading.current_thread().name, hmm.name, len(sequences),
                       t - T0, time.perf_counter() - T0, len(out)))
        return out

    hs._run_hmmer_downstream = timed
    filters_run = hs._Filters.run

    def run(self, *a, **k):
        for q, r in filters_run(self, *a, **k):
            events.append(("cascade", q, self.profiles[q].M, time.perf_counter() - T0,
                           r.get("seconds")))
            yield q, r

    hs._Filters.run = run

    def span(owner, name, label):
        inner = getattr(owner, name, None)
        if inner is None:
            return

        def timed_call(*a, **k):
            t = time.perf_counter()
            try:
                return inner(*a, **k)
            finally:
                events.append(("span", label(*a), threading.current_thread().name, t - T0,
                               time.perf_counter() - T0))

        setattr(owner, name, timed_call)

    span(hs._core, "cuda_initialize", lambda *a: "cuda_initialize")
    span(hs, "_upload", lambda *a: "upload")
    span(hs, "search_profile", lambda hmm: f"search_profile {hmm.name}")
    span(hs, "_gpu_tables", lambda profile: f"gpu_tables M={profile.M}")
    span(hs._Filters, "_cascade", lambda self, q, *a: f"cascade q={q} M={self.profiles[q].M}")
    span(hs._ModelStream, "first", lambda *a: "models.first")
    span(hs._Downstream, "_final", lambda self, q, *a: f"final q={q}")
    span(hs._Downstream, "finish", lambda *a: "downstream.finish")
    from gpuseq.hmmsearch_results import HmmsearchWriter

    span(HmmsearchWriter, "add", lambda self, result: "writer.add")
    span(HmmsearchWriter, "__exit__", lambda *a: "writer.__exit__")
    from gpuseq import cli

    t = time.perf_counter()
    code = cli.main(argv)
    end = time.perf_counter() - T0
    print(f"[{variant}] main {t - T0:.3f} -> {end:.3f} s, code {code}")
    for e in sorted((e for e in events if e[0] == "span"), key=lambda e: e[3]):
        print(f"  {e[3]:.3f} -> {e[4]:.3f} {e[1]} [{e[2]}]")
    for e in events:
        if e[0] == "cascade":
            phases = " ".join(f"{k} {v * 1000:.1f}" for k, v in (e[4] or {}).items())
            print(f"  cascade q={e[1]} M={e[2]} done at {e[3]:.3f}; ms: {phases}")
    ds = [e for e in events if e[0] == "ds"]
    by_model = {}
    for e in ds:
        by_model.setdefault(e[2], []).append(e)
    for name, es in by_model.items():
        d = sorted(x[5] - x[4] for x in es)
        print(f"  {name}: {len(es)} parts, {sum(x[3] for x in es)} targets, {sum(x[6] for x in es)} hits, "
              f"start {min(x[4] for x in es):.3f}, end {max(x[5] for x in es):.3f}, "
              f"thread-s {sum(d):.3f}, part s min/median/max {d[0]:.4f}/{d[len(d) // 2]:.4f}/{d[-1]:.4f}")
    if ds:
        first, last = min(x[4] for x in ds), max(x[5] for x in ds)
        total = sum(x[5] - x[4] for x in ds)
        print(f"  downstream {first:.3f} -> {last:.3f}: {total:.3f} thread-s over "
              f"{len({x[1] for x in ds})} threads; busy threads per 20 ms:")
        step, t, row = 0.02, first, []
        while t < last:
            row.append(sum(1 for x in ds if x[4] < t + step and x[5] > t))
            t += step
        print("   ", " ".join(str(n) for n in row))
        if variant.startswith("cap8"):
            for name, es in by_model.items():
                one = sorted((x[5] - x[4]) for x in es if x[3] == 1 and x[6] == 1)
                if one:
                    print(f"  {name}: a hit alone, s: min {one[0]:.4f} median {one[len(one)//2]:.4f} "
                          f"max {one[-1]:.4f} ({len(one)})")
else:
    sys.argv = ["gpuseq", *argv]
    from gpuseq import cli

    sys.exit(cli.main())
