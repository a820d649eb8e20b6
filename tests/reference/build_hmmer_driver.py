"""Build ``hmmer_filters``, a C driver that prints HMMER's own filter scores.

The driver links against the HMMER 3.4 / Easel shared libraries bundled in the
pyhmmer wheel (``site-packages/pyhmmer.libs``), so its numbers are exactly the
ones pyhmmer computes. Usage from tests::

    exe = build_hmmer_driver(tmp_path)

or by hand::

    python build_hmmer_driver.py OUTDIR
"""

from __future__ import annotations

import pathlib
import subprocess
import sys

SOURCE = pathlib.Path(__file__).with_name("hmmer_filters.c")


def pyhmmer_libs_dir() -> pathlib.Path:
    """Directory holding liblibhmmer.so, liblibeasel.so and their headers."""
    try:
        import pyhmmer
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise RuntimeError("pyhmmer is not installed") from exc
    libs = pathlib.Path(pyhmmer.__file__).resolve().parent.parent / "pyhmmer.libs"
    for needed in ("liblibhmmer.so", "liblibeasel.so", "include/libhmmer/hmmer.h"):
        if not (libs / needed).exists():
            raise RuntimeError(f"pyhmmer wheel lacks {needed} under {libs}")
    return libs


def build_hmmer_driver(outdir: pathlib.Path) -> pathlib.Path:
    """Compile hmmer_filters.c into ``outdir`` and return the executable's path.

    Plain ``-O2`` with no ``-march`` and FP contraction off, so the driver's own
    (minor) float code is not fused; all filter arithmetic happens inside the
    prebuilt HMMER library anyway.
    """
    outdir = pathlib.Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    libs = pyhmmer_libs_dir()
    inc = libs / "include"
    exe = outdir / "hmmer_filters"
    cmd = [
        "gcc", "-O2", "-std=gnu99", "-ffp-contract=off",
        f"-I{inc / 'libhmmer'}", f"-I{inc / 'libhmmer' / 'impl_sse'}", f"-I{inc / 'libeasel'}",
        str(SOURCE), "-o", str(exe),
        f"-L{libs}", "-llibhmmer", "-llibeasel", f"-Wl,-rpath,{libs}", "-lm",
    ]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True)
    except FileNotFoundError as exc:
        raise RuntimeError("gcc not found") from exc
    if proc.returncode != 0:
        raise RuntimeError(f"compiling {SOURCE.name} failed:\n{' '.join(cmd)}\n{proc.stderr}")
    return exe


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(f"usage: {sys.argv[0]} OUTDIR")
    print(build_hmmer_driver(pathlib.Path(sys.argv[1])))
