"""Session 62 probe: the end of `gpuseq hmmsearch` (after its outputs are closed) in parts.
Runs the command as cmd_stamps.py does (main with argv=None); where the command would call
os._exit it writes a stamp, then, with MODE=reset, resets the CUDA primary context through
the driver API (cuDevicePrimaryCtxReset: the GPU memory and context freed) and stamps again,
then os._exit. The parent (this script without args after --parent) times wait()'s return.
Usage: exit_parts.py --parent ROUNDS ARGS... (the hmmsearch command's arguments)."""
import os
import sys
import time

if sys.argv[1] == "--parent":
    import statistics
    import subprocess
    import tempfile

    rounds, args = int(sys.argv[2]), sys.argv[3:]
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    print(f"python -c pass: {time.perf_counter() - t:.3f} s")
    got = {"plain": [], "reset": []}
    for r in range(rounds):
        for mode in ("plain", "reset") if r % 2 == 0 else ("reset", "plain"):
            with tempfile.NamedTemporaryFile("r", suffix=".stamps") as f:
                env = dict(os.environ, EXIT_MODE=mode, EXIT_STAMPS=f.name)
                t0 = time.time()
                subprocess.run([sys.executable, __file__, "--child", *args], env=env, check=True)
                t_end = time.time()
                stamps = [float(x) for x in f.read().split()]
            closed = stamps[0]
            parts = {"closed->end": t_end - closed}
            if mode == "reset":
                parts["ctx reset"] = stamps[1] - closed
                parts["after reset->end"] = t_end - stamps[1]
            parts["start->closed"] = closed - t0
            parts["rss_MB"] = stamps[-1]
            got[mode].append(parts)
            print(mode, r, {k: round(v, 3) for k, v in parts.items()}, flush=True)
    for mode, runs in got.items():
        keys = runs[0].keys()
        print(mode, "medians", {k: round(statistics.median(p[k] for p in runs), 3) for k in keys})
    sys.exit(0)

# --child: the command
sys.argv = ["gpuseq", *sys.argv[2:]]
import gpuseq.cli  # noqa: E402

exit_now = gpuseq.cli._exit_now


def ending(code):
    stamps = [time.time()]
    rss = 0.0
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) / 1024
    if os.environ["EXIT_MODE"] == "reset":
        import ctypes

        cuda = ctypes.CDLL("libcuda.so.1")
        rc = cuda.cuDevicePrimaryCtxReset(ctypes.c_int(0))
        stamps.append(time.time())
        if rc != 0:
            print("cuDevicePrimaryCtxReset:", rc, file=sys.stderr)
    with open(os.environ["EXIT_STAMPS"], "w") as f:
        f.write(" ".join(str(s) for s in [*stamps, rss]))
    return exit_now(code)


gpuseq.cli._exit_now = ending
sys.exit(gpuseq.cli.main())
