"""Session 73, call 2: the random blastp case call 1 found on the GPU (seed 10150132, packed
database, -evalue 1000 -max_target_seqs 5 -comp_based_stats 1 -threshold 0.5), which the CPU
backend passes. blastp's rows against gpuseq's on the CPU and on the GPU with each GPU stage
setting, to find the stage that differs; then the GPU's ungapped HSPs and seed extensions
against the CPU's for every query.

    python3 case_10150132.py CASE_FOLDER OUT_FOLDER"""

import io
import subprocess
import sys
from pathlib import Path

import numpy as np

from gpuseq import _core, blast

case, out = Path(sys.argv[1]), Path(sys.argv[2])
q, db = case / "q.fa", case / "db.gsdb"
opts = dict(evalue=1000.0, max_target_seqs=5, comp_based_stats=1, threshold=0.5)
fields = "6 std qlen slen score"
ref = subprocess.run(["blastp", "-db", case / "db", "-query", q, "-outfmt", fields,
                      "-evalue", "1000", "-max_target_seqs", "5", "-comp_based_stats", "1",
                      "-threshold", "0.5"], capture_output=True, text=True, check=True).stdout
(out / "blastp.tsv").write_text(ref)
ref_lines = ref.splitlines()


def run(name, backend, **gpu):
    counters: dict = {}
    hits = blast.blastp(q, db, backend=backend, counters=counters,
                        gpu_options=gpu or None, **opts)
    buf = io.StringIO()
    blast.write_tabular(hits, buf, fields.split()[1:])
    text = buf.getvalue()
    (out / f"{name}.tsv").write_text(text)
    got = text.splitlines()
    same = got == ref_lines
    print(f"{name:40s} {'same' if same else 'DIFFERS'} ({len(got)} rows, blastp {len(ref_lines)})",
          flush=True)
    if not same:
        a, b = set(got), set(ref_lines)
        for line in sorted(b - a)[:6]:
            print("   blastp only:", line)
        for line in sorted(a - b)[:6]:
            print("   gpuseq only:", line)
    return same


run("cpu", "cpu")
run("cuda", "cuda")
run("cuda-no-extend-seeds", "cuda", extend_seeds=False)
for sort in ("tiles", "bins"):
    for extension in ("hit", "diagonal", "window"):
        for scoring in ("pssm", "blosum62"):
            run(f"cuda-{sort}-{extension}-{scoring}", "cuda", sort=sort, extension=extension,
                scoring=scoring)

# The stages alone, per query, at the search's parameters (x-drop and cutoff from the
# counters would need the search's internals: the test's values and the search's typical).
enc = blast._read(q)
dbe = blast._read(db)
for qi in range(len(enc)):
    search, _ = blast._query_buffers(enc.sequence(qi), enc.name(qi), enc.source)
    for x_drop, cutoff in ((16, 20), (16, 41), (15, 40)):
        args = (search, dbe.codes, dbe.offsets, x_drop, cutoff, 40, 1 << 20)
        cpu, cc = _core.blast_ungapped_hsps(*args)
        gpu, gc = _core.gpu_blast_ungapped_hsps(*args)
        same = all(np.array_equal(cpu[c], gpu[c]) for c in ("subject", "q_start", "s_start",
                                                              "length", "score"))
        print(f"query {qi} x_drop {x_drop} cutoff {cutoff}: ungapped HSPs "
              f"{'same' if same else 'DIFFER'} ({len(cpu['score'])} CPU, {len(gpu['score'])} GPU)",
              flush=True)
