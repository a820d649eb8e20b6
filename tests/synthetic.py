"""Test data made on the fly: background sequences, homologs emitted by HMMER's hmmemit and
planted in background, and the filter stress corpus of the spec (section 9). Nothing large is
committed; everything here is generated from a seed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np

AMINO = "ACDEFGHIKLMNPQRSTVWY"
# HMMER's background frequencies (p7_AminoFrequencies), to draw realistic random proteins.
BACKGROUND = np.array(
    [
        0.0787945,
        0.0151600,
        0.0535222,
        0.0668298,
        0.0397062,
        0.0695071,
        0.0229198,
        0.0590092,
        0.0594422,
        0.0963728,
        0.0237718,
        0.0414386,
        0.0482904,
        0.0395639,
        0.0540978,
        0.0683364,
        0.0540687,
        0.0673417,
        0.0114135,
        0.0304133,
    ]
)
BACKGROUND = BACKGROUND / BACKGROUND.sum()
_AMINO_BYTES = np.frombuffer(AMINO.encode(), dtype=np.uint8)


def random_protein(rng: np.random.Generator, length: int) -> str:
    return _AMINO_BYTES[rng.choice(20, size=length, p=BACKGROUND)].tobytes().decode()


def random_proteins(
    rng, n: int, mean_length: float = 300.0, min_length: int = 10, max_length: int = 3000
) -> list[str]:
    """n background proteins with log-normal lengths (like real protein databases)."""
    lengths = np.clip(
        rng.lognormal(np.log(mean_length) - 0.18, 0.6, size=n), min_length, max_length
    ).astype(int)
    codes = rng.choice(20, size=int(lengths.sum()), p=BACKGROUND)
    text = _AMINO_BYTES[codes].tobytes().decode()
    out, pos = [], 0
    for L in lengths:
        out.append(text[pos : pos + L])
        pos += L
    return out


def hmmemit(hmm_path: Path, n: int, seed: int, extra: tuple[str, ...] = ()) -> list[str]:
    """n sequences emitted from a model by Debian's hmmemit (HMMER 3.3.2)."""
    exe = require_tool("hmmemit")
    out = subprocess.run(
        [exe, "-N", str(n), "--seed", str(seed), *extra, str(hmm_path)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return ["".join(block.split("\n")[1:]) for block in out.split(">")[1:]]


def mutate(rng, seq: str, rate: float) -> str:
    """Substitute a fraction of positions with background residues (weakens a homolog)."""
    chars = np.frombuffer(seq.encode(), dtype=np.uint8).copy()
    hit = rng.random(len(chars)) < rate
    chars[hit] = _AMINO_BYTES[rng.choice(20, size=int(hit.sum()), p=BACKGROUND)]
    return chars.tobytes().decode()


def plant(rng, homolog: str, flank_mean: int = 80) -> str:
    """A homolog with random background flanks on both sides."""
    left, right = (int(x) for x in rng.integers(0, 2 * flank_mean, size=2))
    return random_protein(rng, left) + homolog + random_protein(rng, right)


def stress_corpus(rng, hmm_path: Path, consensus: str) -> list[tuple[str, str]]:
    """Sequences that exercise every branch of the filters (spec 9): background, planted and
    weakened homologs, repeated consensus (byte/word overflow, J state), every residue code,
    very short and very long targets, low complexity, lower case and the odd FASTA symbols."""
    seqs: list[str] = []
    seqs += random_proteins(rng, 60, mean_length=250)
    emitted = hmmemit(hmm_path, 24, seed=int(rng.integers(1, 1 << 30)))
    seqs += [plant(rng, s) for s in emitted[:8]]
    seqs += [
        plant(rng, mutate(rng, s, rate)) for s, rate in zip(emitted[8:], np.linspace(0.2, 0.8, 16))
    ]
    seqs += [consensus * r for r in (1, 2, 3, 6)]
    seqs += [plant(rng, consensus, 2000) for _ in range(2)]  # long targets
    seqs += ["ACDEFGHIKLMNPQRSTVWYBJZOUX*" * 8, "X" * 300, "XXXX"]  # every code; all-X
    seqs += [random_protein(rng, n) for n in (1, 1, 2, 3, 4)]  # very short
    seqs += ["KE" * 200, "A" * 150, "GS" * 500]  # low complexity
    seqs += [random_protein(rng, 200).lower(), plant(rng, consensus.lower())]
    seqs += ["AC.DE_F~G*" * 20, "*~" * 30, "MK" + "~" * 40 + "LV"]
    seqs += [random_protein(rng, 9000)]
    return [(f"s{i}", s) for i, s in enumerate(seqs)]


def write_fasta(path: Path, records, width: int = 60) -> Path:
    with open(path, "w") as f:
        for name, seq in records:
            f.write(f">{name}\n")
            for i in range(0, len(seq), width):
                f.write(seq[i : i + width] + "\n")
    return path


def require_tool(name: str) -> str:
    """Path of a reference program; a missing one is a setup error, not a skip."""
    exe = shutil.which(name)
    if exe is None:
        raise RuntimeError(
            f"{name} not found: the tests compare against Debian's HMMER "
            "(apt-get install hmmer hmmer-examples)"
        )
    return exe
