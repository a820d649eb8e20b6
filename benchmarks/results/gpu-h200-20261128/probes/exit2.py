# Session 43: how long a CUDA process takes to end after os._exit, by what it holds.
import subprocess, sys, time
code = r'''
import os, sys, time
T0 = time.perf_counter()
what = sys.argv[1]
if what != "none":
    import torch
    torch.cuda.init(); torch.empty(1, device="cuda")
    if what.startswith("dev"):
        x = torch.empty(int(what[3:]) << 20, dtype=torch.uint8, device="cuda"); x.fill_(1)
    if what.startswith("pin"):
        x = torch.empty(int(what[3:]) << 20, dtype=torch.uint8, pin_memory=True); x.fill_(1)
    torch.cuda.synchronize()
print(f"{time.perf_counter():.6f}", flush=True)
os._exit(0)
'''
for r in range(3):
    for what in ["none", "ctx", "dev512", "dev4096", "pin256", "pin1024"]:
        p = subprocess.Popen([sys.executable, "-c", code, what], stdout=subprocess.PIPE, text=True)
        out = p.stdout.readline(); p.wait(); t_end = time.perf_counter()
        print(f"{what:8s} exit after os._exit: {(t_end - float(out)) * 1e3:.1f} ms")
