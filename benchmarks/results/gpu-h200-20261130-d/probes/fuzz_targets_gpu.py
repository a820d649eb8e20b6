"""Targets fuzzed on a GPU host: globins45.fa with 1-6 random edits (tests/test_fuzz.py's
FASTA pieces replaced, inserted or deleted; now and then a sequence repeated to 1,000-60,000
residues), searched with globins4.hmm by gpuseq (the GPU backend where there is one: the file
whole, in small blocks, or packed with makedb and searched in small chunks) and by
hmmsearch --tformat fasta: the same tblout rows, or a typed FormatError where
hmmsearch rejects the file (SequenceTooLongError past 100,000 residues, where hmmsearch
aborts). Seed argv[1], argv[2] seconds, argv[3] (optional) the only mode searched (the
examples drawn are the same; others are skipped). Failing files go to
$OUT/targets-fail-SEED-N.fa, the example under way to $OUT/targets-at-SEED.txt; an example
that runs past 90 s dumps every thread's Python stack to stderr and ends the process.
SIGUSR1 dumps them too, and any process may ptrace this one (PR_SET_PTRACER_ANY), so that a
watcher takes native stacks with py-spy first (session 66, the hang of call 6 in
gpu-h200-20261130-b)."""

import ctypes
import faulthandler
import io
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, "tests")
import test_fuzz  # noqa: E402

import gpuseq  # noqa: E402
from test_hmmsearch import rows, same_rows  # noqa: E402

BASE = test_fuzz.TARGETS.read_bytes()
HMM = str(test_fuzz.HMMER_EXAMPLES / "tutorial" / "globins4.hmm")


def mutated(rng: random.Random) -> bytes:
    data = bytearray(BASE)
    for _ in range(rng.randint(1, 6)):
        at = rng.randint(0, len(data) - 1)
        what = rng.choice(["replace", "insert", "delete", "repeat"])
        piece = rng.choice(test_fuzz.FASTA_PIECES)
        if what == "replace":
            data[at : at + len(piece)] = piece
        elif what == "insert":
            data[at:at] = piece
        elif what == "delete":
            del data[at : at + rng.randint(1, 60)]
        else:
            data[at:at] = b"ACDEFGHIKLMNPQRSTVWYLLVVKE" * rng.randint(40, 2300)
    return bytes(data)


def hmmsearch_rows(path: str):
    with tempfile.TemporaryDirectory(prefix="gpuseq-fuzz-") as tmp:
        tbl = os.path.join(tmp, "ref.tbl")
        proc = subprocess.run([test_fuzz.HMMSEARCH, "--cpu", "0", "--tformat", "fasta",
                               "--tblout", tbl, "-o", os.devnull, HMM, path],
                              capture_output=True, timeout=120)
        if proc.returncode != 0:
            return None
        with open(tbl, "rb") as f:
            return rows(f.read().decode("utf-8", "surrogateescape"))


def search(path: str, mode: int, block: int, tmp: str):
    """mode 0: the file whole; 1: in blocks of `block` bytes (chunks streamed through the
    GPU); 2: packed with makedb, then searched in chunks of `block` residues."""
    if mode == 0:
        return gpuseq.hmmsearch(HMM, path, cpus=2, tformat="fasta")
    if mode == 1:
        return gpuseq.hmmsearch(HMM, path, cpus=2, tformat="fasta", block_bytes=block)
    db = gpuseq.makedb(path, os.path.join(tmp, "db.gsdb"), format="fasta", block_bytes=block)
    return gpuseq.hmmsearch(HMM, gpuseq.open_database(db), cpus=2, block_bytes=block)


def check(data: bytes, mode: int, block: int) -> None:
    fd, path = tempfile.mkstemp(suffix=".fa", prefix="gpuseq-fuzz-")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    try:
        ref = hmmsearch_rows(path)
        try:
            with tempfile.TemporaryDirectory(prefix="gpuseq-fuzz-") as tmp:
                res = search(path, mode, block, tmp)
        except gpuseq.errors.GpuseqError as exc:
            assert ref is None and isinstance(
                exc, (gpuseq.FormatError, gpuseq.errors.SequenceTooLongError)), exc
            return
        assert ref is not None, "hmmsearch rejects these targets, we searched them"
        buf = io.StringIO()
        res.write_tblout(buf)
        assert same_rows(rows(buf.getvalue()), ref), "tblout differs"
        SEARCHED[mode] += 1
    finally:
        os.unlink(path)


SEARCHED = [0, 0, 0]  # files searched (not rejected by both), per mode
faulthandler.enable()
faulthandler.register(signal.SIGUSR1, all_threads=True)
ctypes.CDLL(None).prctl(0x59616D61, ctypes.c_ulong(2**64 - 1), 0, 0, 0)  # PR_SET_PTRACER, ANY
seed, seconds = int(sys.argv[1]), float(sys.argv[2])
only_mode = int(sys.argv[3]) if len(sys.argv) > 3 else None
rng = random.Random(seed)
end = time.monotonic() + seconds
n = failed = 0
while time.monotonic() < end:
    data = mutated(rng)
    mode, block = rng.randint(0, 2), rng.choice([700, 3000, 20000])
    n += 1
    if only_mode is not None and mode != only_mode:
        continue
    with open(os.path.join(os.environ["OUT"], f"targets-at-{seed}.txt"), "w") as f:
        f.write(f"{n} {mode} {block}\n")
    # A search that hangs: every thread's Python stack to stderr, and the process ends.
    faulthandler.dump_traceback_later(90, exit=True)
    try:
        check(data, mode, block)
    except Exception as exc:  # noqa: BLE001
        failed += 1
        if failed <= 5:
            with open(os.path.join(os.environ["OUT"], f"targets-fail-{seed}-{n}.fa"), "wb") as f:
                f.write(data)
        print(f"seed {seed} example {n} (mode {mode}, block {block}): {type(exc).__name__}: "
              f"{str(exc)[:300]}", flush=True)
faulthandler.cancel_dump_traceback_later()
print(f"seed {seed}: {n} target files, {failed} failed; searched whole, in blocks, packed: "
      f"{SEARCHED}")
