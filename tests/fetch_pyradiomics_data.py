"""Fetch the test volumes that pyradiomics ships in its source distribution (two chest CTs,
two brain MRIs, a breast MRI, NRRD files with their tumour labels): the sdist from PyPI, its
SHA-256 checked against PyPI's index, only ``data/*.nrrd`` unpacked.

usage: python tests/fetch_pyradiomics_data.py [DEST]
DEST defaults to $GPUSEQ_PYRADIOMICS_DATA or ~/.cache/gpuseq/pyradiomics-data; the files end up
directly in it (lung1_image.nrrd ...). Does nothing when they are already there.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tarfile
import tempfile
import urllib.request
from pathlib import Path

VERSION = "3.1.0"  # the sdist whose data/ the tests were written against
WANTED = ("lung1_image.nrrd", "lung1_label.nrrd", "lung2_image.nrrd", "lung2_label.nrrd")


def default_dest() -> Path:
    return Path(os.environ.get("GPUSEQ_PYRADIOMICS_DATA",
                               Path.home() / ".cache" / "gpuseq" / "pyradiomics-data"))


def fetch(dest: Path) -> Path:
    if all((dest / name).is_file() for name in WANTED):
        return dest
    # PyPI's simple index in JSON (PEP 691): every file with its SHA-256.
    index = urllib.request.Request("https://pypi.org/simple/pyradiomics/",
                                   headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    with urllib.request.urlopen(index, timeout=60) as r:
        files = json.load(r)["files"]
    (sdist,) = [f for f in files if f["filename"] == f"pyradiomics-{VERSION}.tar.gz"]
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        archive = Path(tmp) / sdist["filename"]
        with urllib.request.urlopen(sdist["url"], timeout=300) as r, open(archive, "wb") as f:
            while block := r.read(1 << 20):
                f.write(block)
        digest = hashlib.sha256(archive.read_bytes()).hexdigest()
        if digest != sdist["hashes"]["sha256"]:
            raise SystemExit(f"{sdist['filename']}: SHA-256 {digest} is not PyPI's")
        with tarfile.open(archive) as tar:
            for member in tar.getmembers():
                parts = Path(member.name).parts
                if member.isfile() and len(parts) == 3 and parts[1] == "data" \
                        and parts[2].endswith(".nrrd"):
                    with tar.extractfile(member) as src, open(dest / parts[2], "wb") as out:
                        shutil.copyfileobj(src, out)
    return dest


if __name__ == "__main__":
    where = fetch(Path(sys.argv[1]) if len(sys.argv) > 1 else default_dest())
    print(f"pyradiomics {VERSION} test volumes in {where}")
