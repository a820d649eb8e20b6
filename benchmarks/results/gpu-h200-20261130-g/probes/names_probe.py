"""Session 70: targets with names of 1-150 characters of every punctuation, descriptions with tabs,
runs of spaces and non-ASCII, on the random commands' models, targets and flags; every output file
against hmmsearch on one thread (--cpu 1 both), the tables' lines whole (rows starting with '#'
too). Found the leading-'#' rows (e0539cf) and the kept hits' widths (7f92ba8).

    python3 names_probe.py FIRST COUNT"""
import numpy as np, shutil, sys
from pathlib import Path
import test_random_commands as t
from synthetic import write_fasta, require_tool
from test_cli import assert_same_hmmsearch_files
root = Path("/tmp/names70")
bad = 0
first, count = int(sys.argv[1]), int(sys.argv[2])
for seed in range(first, first + count):
    rng = np.random.default_rng([7000, seed])
    work = root / f"s{seed}"; shutil.rmtree(work, ignore_errors=True); work.mkdir()
    q = t.random_queries(rng, work)
    recs = t.random_targets(rng, q)
    chars = np.array(list("ABCxyz0123456789_-.|:;/\\()[]{}<>=+*&^%$#@!~`'\",?"))
    out = []
    for name, seq in recs:
        n = "".join(rng.choice(chars, size=int(rng.choice([1, 5, 20, 40, 80, 150]))))
        d = ""
        r = rng.random()
        if r < 0.3: d = " " + "\t".join(["desc"] * int(rng.integers(1, 5)))
        elif r < 0.5: d = "   lots   of  space   " + "D" * int(rng.integers(0, 300))
        elif r < 0.6: d = " " + "ü é 漢字"
        out.append((n + d, seq))
    db = write_fasta(work / "db.fa", out)
    flags = t.random_hmmsearch_flags(rng)
    ref, ro = t.hmmsearch_outputs([require_tool("hmmsearch"), "--cpu", "1"], flags, work / "ref", q, db)
    ours, oo = t.hmmsearch_outputs([*t.GPUSEQ, "hmmsearch", "--cpu", "1", "--backend", "cpu", "--no-progress"], flags, work / "ours", q, db)
    try:
        assert ref.returncode == ours.returncode, (ref.returncode, ours.returncode, ours.stderr[-300:], ref.stderr[-300:])
        if ref.returncode == 0:
            assert_same_hmmsearch_files(oo, ro, " ".join(flags))
            for ext in ("tbl", "dom"):  # rows starting with '#' too (rows() skips them)
                assert oo[ext].split("# Program:")[0] == ro[ext].split("# Program:")[0], ext
        print(seed, "same", len(out), flags, flush=True)
        shutil.rmtree(work)
    except AssertionError as e:
        bad += 1
        print(seed, "DIFF", str(e)[:1500], flush=True)
print("bad", bad)
