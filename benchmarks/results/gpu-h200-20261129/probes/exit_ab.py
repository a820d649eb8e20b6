# Alternated runs of the command through exit_stamp.py: whole wall time, and from the outputs
# closed to the process's end (the teardown the quick exit skips), per variant.
import os, re, statistics, subprocess, sys, time
queries, db, label, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
res = {"quick": [], "full": []}
for r in range(rounds + 1):
    for name, full in (("quick", "0"), ("full", "1")):
        cmd = [sys.executable, ".carry/exit_stamp.py", "hmmsearch", "--cpu", "16", "--noali",
               "--tblout", f"/tmp/x-{name}-{label}.tbl", "-o", f"/tmp/x-{name}-{label}.out",
               "--backend", "cuda", "--no-progress", queries, db]
        t0 = time.time()
        p = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, GPUSEQ_FULL_EXIT=full))
        t1 = time.time()
        assert p.returncode == 0, p.stderr
        end = float(re.search(r"END ([\d.]+)", p.stderr).group(1))
        if r:  # round 0 warms up
            res[name].append((t1 - t0, t1 - end))
            print(f"{label} [{name}] wall {t1 - t0:.3f} s, outputs closed to exit {t1 - end:.3f} s", flush=True)
for name, v in res.items():
    print(f"{label} {name}: wall median {statistics.median(w for w, _ in v):.3f} s, end median {statistics.median(e for _, e in v):.3f} s ({min(e for _, e in v):.3f}-{max(e for _, e in v):.3f})")
