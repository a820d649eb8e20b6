"""SEG as blastp's composition stage runs it on subjects (window 10, locut 1.8, hicut 2.1;
spec blastp.md 14.2) against NCBI's own segmasker, which runs the same blast_seg.c, on the
whole dolphin proteome of Debian's plast-example."""

from __future__ import annotations

import gzip
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from gpuseq import _core

PLAST = Path("/usr/share/doc/plast-example/db/tursiops.fa.gz")
SEGMASKER = shutil.which("segmasker")
pytestmark = pytest.mark.skipif(
    SEGMASKER is None or not PLAST.exists(),
    reason="needs NCBI BLAST+'s segmasker and Debian's plast-example",
)


def segmasker_intervals(fasta: Path, *flags: str) -> list[list[tuple[int, int]]]:
    out = subprocess.run([SEGMASKER, "-in", fasta, "-outfmt", "interval", *flags],
                         check=True, capture_output=True, text=True).stdout  # fmt: skip
    intervals: list[list[tuple[int, int]]] = []
    for line in out.splitlines():
        if line.startswith(">"):
            intervals.append([])
        else:
            begin, end = (int(v) for v in line.split(" - "))
            intervals[-1].append((begin, end))
    return intervals


CODE = np.zeros(256, dtype=np.uint8)
CODE[np.frombuffer(_core.blast_letters.encode(), dtype=np.uint8)] = np.arange(28)


def mask_of(length: int, intervals) -> np.ndarray:
    mask = np.zeros(length, dtype=bool)
    for begin, end in intervals:
        mask[begin : end + 1] = True
    return mask


@pytest.mark.parametrize(
    "window, locut, hicut",
    [(10, 1.8, 2.1), (12, 2.2, 2.5)],
    ids=["composition_stage", "segmasker_defaults"],
)
def test_seg_equals_segmasker(tmp_path, window, locut, hicut):
    text = gzip.decompress(PLAST.read_bytes()).decode()
    fasta = tmp_path / "tursiops.fa"
    fasta.write_text(text)
    sequences = ["".join(r.split("\n")[1:]).upper() for r in text.split(">")[1:]]
    flags = ["-window", str(window), "-locut", str(locut), "-hicut", str(hicut)]
    expected = segmasker_intervals(fasta, *flags)
    assert len(expected) == len(sequences)
    differ, masked = [], 0
    for i, seq in enumerate(sequences):
        codes = CODE[np.frombuffer(seq.encode(), dtype=np.uint8)]
        ours = _core.blast_seg(codes, window, locut, hicut)
        masked += bool(ours)
        # Masks compared as residue sets (segmasker may join adjacent segments).
        if ours != expected[i] and not np.array_equal(
            mask_of(len(seq), ours), mask_of(len(seq), expected[i])
        ):
            differ.append(i)
    assert masked > 1000  # SEG has work to do here
    assert differ == []
