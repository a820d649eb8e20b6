"""Shared fixtures: the reference models and tools, and the HMMER driver built against
pyhmmer's own libhmmer (tests/reference)."""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent / "reference"))

from build_hmmer_driver import build_hmmer_driver  # noqa: E402

# Debian's hmmer-examples; GPUSEQ_HMMER_EXAMPLES points elsewhere (e.g. an unpacked copy).
HMMER_EXAMPLES = Path(os.environ.get("GPUSEQ_HMMER_EXAMPLES", "/usr/share/doc/hmmer/examples"))
REPO = Path(__file__).resolve().parent.parent
# The volumes of pyradiomics' source distribution (two chest CTs with a tumour label, brain and
# breast MRIs), unpacked by tests/fetch_pyradiomics_data.py (.ci/run does it).
PYRADIOMICS_DATA = Path(os.environ.get("GPUSEQ_PYRADIOMICS_DATA",
                                       Path.home() / ".cache" / "gpuseq" / "pyradiomics-data"))


def pyhmmer_data() -> Path:
    import pyhmmer

    return Path(pyhmmer.__file__).parent / "tests" / "data"


def pytest_collection_modifyitems(config, items):
    import gpuseq

    has_gpu = bool(gpuseq.cuda_devices())
    skip = pytest.mark.skip(reason="needs a CUDA build of gpuseq and an NVIDIA GPU")
    for item in items:
        if "cuda" in item.keywords and not has_gpu:
            item.add_marker(skip)


def _is_amino_model_file(path: Path) -> bool:
    from pyhmmer.plan7 import HMMFile

    with HMMFile(path) as f:
        return all(h.alphabet.K == 20 for h in f)


@pytest.fixture(scope="session")
def example_models(tmp_path_factory) -> dict[str, Path]:
    """Every protein model file of Debian's hmmer-examples (tutorial and testsuite),
    decompressed, by stem."""
    if not HMMER_EXAMPLES.is_dir():
        raise RuntimeError(
            "Debian's hmmer-examples is not installed (apt-get install hmmer-examples)"
        )
    out = tmp_path_factory.mktemp("hmmer_examples")
    models = {}
    candidates = sorted(HMMER_EXAMPLES.glob("tutorial/*.hmm")) + sorted(
        HMMER_EXAMPLES.glob("testsuite/*.hmm*")
    )
    for path in candidates:
        name = path.name.removesuffix(".gz").removesuffix(".hmm")
        target = out / f"{name}.hmm"
        if path.suffix == ".gz":
            with gzip.open(path, "rb") as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst)
        else:
            shutil.copy(path, target)
        if _is_amino_model_file(target):
            models[name] = target
    return models


@pytest.fixture(scope="session")
def pyhmmer_models() -> dict[str, Path]:
    """The protein model files pyhmmer ships for its own tests."""
    folder = pyhmmer_data() / "hmms" / "txt"
    return {p.stem: p for p in sorted(folder.glob("*.hmm")) if _is_amino_model_file(p)}


@pytest.fixture(scope="session")
def synthetic_models(tmp_path_factory) -> dict[str, Path]:
    """Random models of sizes that straddle SIMD vector boundaries, plus M = 2000 (spec 9)."""
    from pyhmmer.easel import Alphabet
    from pyhmmer.plan7 import HMM

    out = tmp_path_factory.mktemp("synthetic_models")
    abc = Alphabet.amino()
    models = {}
    for seed, M in enumerate((1, 2, 3, 16, 17, 33, 2000), start=1):
        hmm = HMM.sample(abc, M, seed)
        hmm.name = f"random{M}"
        hmm.set_composition()
        path = out / f"random{M}.hmm"
        with open(path, "wb") as f:
            hmm.write(f)
        models[hmm.name] = path
    return models


@pytest.fixture(scope="session")
def hmmer_driver(tmp_path_factory) -> Path:
    """HMMER 3.4's own filter scores (pyhmmer's libhmmer), see tests/reference."""
    return build_hmmer_driver(tmp_path_factory.mktemp("driver"))


def run_driver(driver: Path, hmm_path: Path, fasta_path: Path) -> dict[str, np.ndarray]:
    """Per model name: float32 array (n_sequences, 6) of null1, ssv, msv, vf, bias, fwd
    (NaN where HMMER gives no value)."""
    out = subprocess.run(
        [str(driver), str(hmm_path), str(fasta_path)], check=True, capture_output=True, text=True
    ).stdout
    rows: dict[str, list] = {}
    for line in out.splitlines():
        fields = line.split("\t")
        rows.setdefault(fields[0], []).append([_hexfloat(v) for v in fields[4:10]])
    return {name: np.array(r, dtype=np.float32) for name, r in rows.items()}


def _hexfloat(text: str) -> float:
    if text == "-":
        return float("nan")
    if text in ("nan", "inf", "-inf"):
        return float(text)
    return float.fromhex(text)


def bit_equal(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Element-wise: the same float32 bits, or both NaN."""
    a = np.asarray(a, dtype=np.float32)
    b = np.asarray(b, dtype=np.float32)
    return (a.view(np.uint32) == b.view(np.uint32)) | (np.isnan(a) & np.isnan(b))


def assert_cascades_equal(gpu: dict, cpu: dict, label) -> None:
    """Every entry of the CPU cascade's result (_core.run_cascade) in the GPU's: floats bit for
    bit, the rest (stages, counts, survivors) equal."""
    for key, value in cpu.items():
        if isinstance(value, np.ndarray) and value.dtype.kind == "f":
            assert bit_equal(gpu[key], value).all(), (label, key)
        else:
            assert np.array_equal(gpu[key], value), (label, key)


@pytest.fixture(scope="session")
def corpora(tmp_path_factory, example_models, pyhmmer_models, synthetic_models):
    """(model path, FASTA path of its stress corpus) for every model file: every branch of the
    filters (tests/synthetic.py), shared by the CPU and GPU filter tests."""
    from pyhmmer.plan7 import HMMFile

    from synthetic import stress_corpus, write_fasta

    rng = np.random.default_rng(20261122)
    out = tmp_path_factory.mktemp("corpora")
    pairs = []
    for group in (example_models, pyhmmer_models, synthetic_models):
        for name, path in group.items():
            with HMMFile(path) as f:
                first = next(iter(f))
            records = stress_corpus(rng, path, first.consensus.upper())
            pairs.append((path, write_fasta(out / f"{name}.fa", records)))
    return pairs
