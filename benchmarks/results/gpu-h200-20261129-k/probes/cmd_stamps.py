"""Session 62 probe: `gpuseq hmmsearch ARGS` as the command runs it (main with argv=None,
nothing imported before it), with stamps from this script's first line: functions of
gpuseq's modules are wrapped as each module is first imported (an __import__ hook), so the
imports happen where the command has them. The summary is printed as the command ends
(before its os._exit). Usage: python3 cmd_stamps.py hmmsearch ARGS..."""
import time

T0 = time.perf_counter()
import builtins  # noqa: E402
import functools  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402

events, lock = [], threading.Lock()
TARGETS = {
    "gpuseq._core": ["cuda_initialize", "gpu_run_cascade"],
    "gpuseq.hmmsearch": ["_upload", "_run_hmmer_downstream", "_gpu_tables",
                         "_ModelStream.first", "_Downstream._final", "_Filters.run"],
    "gpuseq.hmmsearch_results": ["HmmsearchWriter.close"],
    "gpuseq.hmm": ["search_profile"],
    "gpuseq.sequences": ["iter_sequence_chunks"],
    "pyhmmer.plan7": [],  # (when it is imported)
}
loaded = {}


def wrap(owner, name):
    f = getattr(owner, name)

    @functools.wraps(f)
    def w(*a, **k):
        t = time.perf_counter()
        try:
            return f(*a, **k)
        finally:
            with lock:
                events.append((name, t - T0, time.perf_counter() - T0))

    setattr(owner, name, w)


original_import = builtins.__import__


def hook(name, *args, **kwargs):
    module = original_import(name, *args, **kwargs)
    for mod, names in TARGETS.items():
        m = sys.modules.get(mod)
        if mod not in loaded and m is not None and not getattr(m.__spec__, "_initializing", False) \
                and all(hasattr(m, q.split(".")[0]) for q in names):
            loaded[mod] = time.perf_counter() - T0
            for qual in names:
                owner = sys.modules[mod]
                *path, attr = qual.split(".")
                for p in path:
                    owner = getattr(owner, p)
                wrap(owner, attr)
    return module


builtins.__import__ = hook
import gpuseq.cli  # noqa: E402


def summary(code):
    t_end = time.perf_counter() - T0
    by = {}
    for name, a, b in events:
        by.setdefault(name, []).append((a, b))
    out = [f"modules wrapped at: " + ", ".join(f"{m} {t:.3f}" for m, t in loaded.items())]
    for name, spans in sorted(by.items(), key=lambda kv: min(a for a, _ in kv[1])):
        out.append(f"  {name:22s} n={len(spans):4d} first {min(a for a, _ in spans):.3f} "
                   f"first end {min(b for _, b in spans):.3f} last end "
                   f"{max(b for _, b in spans):.3f} busy {sum(b - a for a, b in spans):.3f}")
    out.append(f"  exit called at {t_end:.3f}")
    print("\n".join(out), file=sys.stderr, flush=True)
    return exit_now(code)


exit_now = gpuseq.cli._exit_now
gpuseq.cli._exit_now = summary
sys.argv = ["gpuseq", *sys.argv[1:]]
sys.exit(gpuseq.cli.main())
