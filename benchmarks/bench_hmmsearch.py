#!/usr/bin/env python3
"""Benchmark gpuseq.hmmsearch against Debian's hmmsearch (HMMER 3.3.2) and pyhmmer (HMMER 3.4).

One run times the three tools on the same generated protein database and the same query
models, checks that they report the same hits and the same filter pass counts (a fast wrong
answer is not a result), prints a table and writes a JSON record to benchmarks/results/.

What is timed, for each thread count N of ``--cpu``:

* ``gpuseq fasta``    ``gpuseq.hmmsearch(models, "targets.fa", cpus=N, backend=B)`` (B:
                      ``--backend``, ``cpu`` or ``cuda``; ``auto``: the GPU when there is one)
* ``gpuseq db``       the same over the packed database made by ``gpuseq.makedb`` (no parsing)
* ``gpuseq filters``  only our filters (the cascade, CPU or GPU) over the packed database, called
                      as the library calls them: what is left of ``gpuseq db`` is pyhmmer's
                      downstream pipeline on the survivors, plus glue
* ``hmmsearch``       ``hmmsearch --cpu N --noali --tblout ... -o ...`` (one process per model
                      file format: HMMER cannot read HMMER3/e and HMMER3/f models from one file)
* ``pyhmmer``         ``SequenceFile(...).read_block()`` then ``pyhmmer.hmmsearch(cpus=N)``;
                      the read and the search are timed apart and both reported

The database (never committed) is generated from ``--seed``: ``--seqs`` background proteins
with log-normal lengths (mean ``--mean-length``) drawn from HMMER's background amino-acid
frequencies, plus ``--homologs`` sequences per model emitted by Debian's ``hmmemit`` and planted
in random flanks (half of them mutated). It is cached in ``--workdir`` and reused when the
parameters match.

Run ``python benchmarks/bench_hmmsearch.py --help``; see benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import hashlib
import io
import json
import os
import platform
import re
import shlex
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from provenance import source_info  # benchmarks/provenance.py, beside this script

REPO = Path(__file__).resolve().parent.parent
DEFAULT_EXAMPLES = Path("/usr/share/doc/hmmer/examples")
# Protein models of Debian's hmmer-examples spanning typical Pfam lengths (M = 71 .. 1142).
DEFAULT_MODELS = "RRM_1,globins4,Pkinase,LuxC,Patched,SMC_N"
COUNTERS = ("nseqs", "nres", "n_past_msv", "n_past_bias", "n_past_vit", "n_past_fwd")
FILTER_COUNTERS = ("n_past_msv", "n_past_bias", "n_past_vit")
# The library's defaults, used by every tool here: hmmsearch's F1, F2 and its bias filter.
F1, F2, BIAS_FILTER = 0.02, 1e-3, True


# ---- synthetic database ---------------------------------------------------------------------
# Copied from tests/synthetic.py rather than imported, so that the benchmark database stays
# what it was for a given seed even if the test generators change.

AMINO = np.frombuffer(b"ACDEFGHIKLMNPQRSTVWY", dtype=np.uint8)
# HMMER's background frequencies (p7_AminoFrequencies).
BACKGROUND = np.array(
    [0.0787945, 0.0151600, 0.0535222, 0.0668298, 0.0397062, 0.0695071, 0.0229198, 0.0590092,
     0.0594422, 0.0963728, 0.0237718, 0.0414386, 0.0482904, 0.0395639, 0.0540978, 0.0683364,
     0.0540687, 0.0673417, 0.0114135, 0.0304133]
)
BACKGROUND = BACKGROUND / BACKGROUND.sum()


def random_protein(rng: np.random.Generator, length: int) -> bytes:
    """One protein of the given length drawn from the background frequencies."""
    return AMINO[rng.choice(20, size=length, p=BACKGROUND)].tobytes()


def random_proteins(rng: np.random.Generator, n: int, mean_length: float) -> list[bytes]:
    """n background proteins with log-normal lengths of the given mean (clipped to 10..3000),
    like the length distribution of real protein databases."""
    lengths = np.clip(rng.lognormal(np.log(mean_length) - 0.18, 0.6, size=n), 10, 3000)
    lengths = lengths.astype(np.int64)
    text = AMINO[rng.choice(20, size=int(lengths.sum()), p=BACKGROUND)].tobytes()
    ends = np.cumsum(lengths)
    return [text[e - L : e] for e, L in zip(ends, lengths)]


def mutate(rng: np.random.Generator, seq: bytes, rate: float) -> bytes:
    """Substitute a fraction of positions with background residues (weakens a homolog)."""
    chars = np.frombuffer(seq, dtype=np.uint8).copy()
    hit = rng.random(len(chars)) < rate
    chars[hit] = AMINO[rng.choice(20, size=int(hit.sum()), p=BACKGROUND)]
    return chars.tobytes()


def plant(rng: np.random.Generator, homolog: bytes, flank_mean: int = 80) -> bytes:
    """A homolog with random background flanks on both sides."""
    left, right = (int(x) for x in rng.integers(0, 2 * flank_mean, size=2))
    return random_protein(rng, left) + homolog + random_protein(rng, right)


def hmmemit(exe: str, hmm_path: Path, n: int, seed: int) -> list[bytes]:
    """n sequences sampled from a model's core by hmmemit (deterministic for a seed > 0)."""
    out = subprocess.run([exe, "-N", str(n), "--seed", str(seed), str(hmm_path)],
                         check=True, capture_output=True).stdout
    return [b"".join(block.split(b"\n")[1:]) for block in out.split(b">")[1:]]


def write_record(fh, name: str, seq: bytes, width: int = 60) -> None:
    """One FASTA record, wrapped like most real FASTA files (the readers' cost depends on it)."""
    lines = [seq[i : i + width] for i in range(0, len(seq), width)]
    fh.write(b">" + name.encode() + b"\n" + b"\n".join(lines) + b"\n")


def generate_fasta(path: Path, params: dict, models: list[Model], hmmemit_exe: str) -> dict:
    """Write the benchmark FASTA: background proteins with the homologs of every model planted
    at random positions. Returns the counts written."""
    rng = np.random.default_rng(params["seed"])
    homologs: list[tuple[str, bytes]] = []
    for k, model in enumerate(models):
        n = params["homologs"]
        emitted = hmmemit(hmmemit_exe, model.path, n, seed=params["seed"] * 1000 + k + 1)
        # Half exact emissions (easy hits), half mutated at rising rates: near-threshold
        # targets that exercise the Viterbi and Forward filters and the domain code.
        n_mut = n // 2
        rates = np.linspace(0.1, 0.5, n_mut) if n_mut else []
        for j, seq in enumerate(emitted):
            if j >= n - n_mut:
                seq = mutate(rng, seq, float(rates[j - (n - n_mut)]))
            homologs.append((f"{model.name}_hom{j:04d}", plant(rng, seq)))
    total = params["seqs"] + len(homologs)
    slots = set(rng.choice(total, size=len(homologs), replace=False).tolist())
    order = rng.permutation(len(homologs))

    batch: list[bytes] = []
    n_bg = n_hom = residues = 0
    with open(path, "wb") as fh:
        for i in range(total):
            if i in slots:
                name, seq = homologs[order[n_hom]]
                n_hom += 1
            else:
                if not batch:  # generate background in batches to bound memory
                    batch = random_proteins(rng, min(20_000, params["seqs"] - n_bg),
                                            params["mean_length"])[::-1]
                seq = batch.pop()
                name = f"bg{n_bg:08d}"
                n_bg += 1
            write_record(fh, name, seq)
            residues += len(seq)
    return {"sequences": total, "background": n_bg, "homologs": n_hom, "residues": residues}


# ---- inputs -------------------------------------------------------------------------------


@dataclass
class Model:
    """One query model file (decompressed into the work folder)."""

    name: str
    path: Path
    M: int
    format: str  # "HMMER3/e", "HMMER3/f", ...
    source: str


def prepare_models(spec: str, examples: Path, out_dir: Path) -> list[Model]:
    """Resolve ``--models`` (names from hmmer-examples, or paths) into single-model protein
    files under out_dir; compressed examples are decompressed."""
    from pyhmmer.plan7 import HMMFile

    out_dir.mkdir(parents=True, exist_ok=True)
    models = []
    for item in [s.strip() for s in spec.split(",") if s.strip()]:
        src = Path(item)
        if not src.exists():
            candidates = [examples / "testsuite" / f"{item}.hmm.gz",
                          examples / "testsuite" / f"{item}.hmm",
                          examples / "tutorial" / f"{item}.hmm",
                          # decompressed by an earlier run: carry this folder to machines
                          # without hmmer-examples
                          out_dir / f"{item}.hmm"]
            found = [c for c in candidates if c.exists()]
            if not found:
                sys.exit(f"model {item!r}: not a file, and not in {examples}/testsuite, "
                         f"{examples}/tutorial or {out_dir} (install hmmer-examples, or pass "
                         "--examples-dir or a path)")
            src = found[0]
        stem = src.name.removesuffix(".gz").removesuffix(".hmm")
        target = out_dir / f"{stem}.hmm"
        opener = gzip.open if src.suffix == ".gz" else open
        with opener(src, "rb") as fin:
            data = fin.read()
        if src.resolve() != target.resolve() and (not target.exists()
                                                    or target.read_bytes() != data):
            target.write_bytes(data)
        with HMMFile(target) as f:
            hmms = list(f)
        if len(hmms) != 1 or hmms[0].alphabet.K != 20:
            sys.exit(f"{src}: need exactly one protein model per file")
        models.append(Model(stem, target, hmms[0].M, data.split(b"\n", 1)[0].split()[0].decode(),
                            str(src)))
    return models


def hmmsearch_query_files(models: list[Model], out_dir: Path) -> list[Path]:
    """Concatenate the model files of each format into one query file per format (HMMER stops
    at a model whose format differs from the first one of a file)."""
    groups: dict[str, list[Model]] = {}
    for m in models:
        groups.setdefault(m.format, []).append(m)
    files = []
    for fmt, members in groups.items():
        path = out_dir / f"queries-{fmt.replace('/', '-')}-{len(members)}.hmm"
        path.write_bytes(b"".join(m.path.read_bytes() for m in members))
        files.append(path)
    return files


def ensure_database(args, models: list[Model], hmmemit_exe: str) -> dict:
    """Generate (or reuse) the FASTA file and its packed database; returns their description."""
    import gpuseq

    params = {"seqs": args.seqs, "seed": args.seed, "mean_length": args.mean_length,
              "homologs": args.homologs,
              "models": [(m.name, hashlib.sha256(m.path.read_bytes()).hexdigest()[:16])
                         for m in models],
              "generator": 1}
    tag = hashlib.sha256(json.dumps(params, sort_keys=True).encode()).hexdigest()[:10]
    folder = Path(args.workdir) / f"db-{args.seqs}-s{args.seed}-{tag}"
    fasta, gsdb, meta_path = folder / "targets.fa", folder / "targets.gsdb", folder / "meta.json"
    if meta_path.exists():
        meta = json.loads(meta_path.read_text())
        if meta.get("params") == json.loads(json.dumps(params)) and gsdb.exists():
            log(f"reusing database {folder}")
            meta["reused"] = True
            return meta
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    log(f"generating {args.seqs} background sequences + {args.homologs} homologs per model "
        f"in {folder} ...")
    t0 = time.perf_counter()
    counts = generate_fasta(fasta, params, models, hmmemit_exe)
    gen_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    gpuseq.makedb(str(fasta), str(gsdb))
    makedb_s = time.perf_counter() - t0
    meta = {"params": params, "fasta": str(fasta), "gsdb": str(gsdb), **counts,
            "fasta_bytes": fasta.stat().st_size,
            "gsdb_bytes": sum(p.stat().st_size for p in gsdb.iterdir()),
            "generate_s": round(gen_s, 3), "makedb_s": round(makedb_s, 3)}
    meta_path.write_text(json.dumps(meta, indent=2) + "\n")
    meta["reused"] = False
    log(f"  {counts['sequences']} sequences, {counts['residues']} residues "
        f"(generated in {gen_s:.1f} s, makedb {makedb_s:.1f} s)")
    return meta


# ---- the runs -----------------------------------------------------------------------------
# Each runner returns (timings dict, hits, counts): hits maps query name to its tblout rows
# (token lists), counts maps query name to the pipeline counters of COUNTERS.


def tblout_rows(text: str) -> dict[str, list[list[str]]]:
    """tblout text -> {query name: rows}, each row split into tokens (column 3 is the query)."""
    out: dict[str, list[list[str]]] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            row = line.split()
            out.setdefault(row[2], []).append(row)
    return out


def run_gpuseq(source: str, hmms: list, cpus: int, backend: str):
    """gpuseq.hmmsearch end to end (reading targets, filters, pyhmmer downstream)."""
    import gpuseq

    t0 = time.perf_counter()
    res = gpuseq.hmmsearch(hmms, source, cpus=cpus, backend=backend, progress=False)
    seconds = time.perf_counter() - t0
    buf = io.StringIO()
    res.write_tblout(buf)
    counts = {r["query_name"]: {k: int(r[k]) for k in COUNTERS}
              for r in res.pipeline.to_dict("records")}
    return {"seconds": seconds}, tblout_rows(buf.getvalue()), counts


def run_gpuseq_filters(gsdb: str, hmms: list, cpus: int, backend: str):
    """Only our filter cascade over the packed database, chunk by chunk and query by query as
    gpuseq.hmmsearch calls it (its own runner, CPU or GPU); per-model times give GCUPS."""
    import gpuseq
    from gpuseq.backend import resolve_backend
    from gpuseq.hmm import search_profile
    from gpuseq.hmmsearch import _filter_runner
    from gpuseq.sequences import DEFAULT_BLOCK_BYTES

    profiles = [(h.name if isinstance(h.name, str) else h.name.decode(), search_profile(h))
                for h in hmms]
    where = resolve_backend(backend, "hmm_filters")
    db = gpuseq.SequenceDatabase.open(gsdb)
    per_model = {name: 0.0 for name, _ in profiles}
    counts = {name: dict.fromkeys(("nseqs", "nres", *FILTER_COUNTERS), 0) for name, _ in profiles}

    def count(name, chunk, r):
        c = counts[name]
        c["nseqs"] += len(chunk)
        c["nres"] += chunk.total_residues
        for k in FILTER_COUNTERS:
            c[k] += int(r[k])

    t0 = time.perf_counter()
    if where == "cuda":
        # One runner for every model, as the library runs it (each chunk uploaded once); a
        # model's time is the wall time of its cascade's phases, the upload is left out of it.
        runner = _filter_runner(where, [p for _, p in profiles], F1, F2, BIAS_FILTER)
        for chunk in db.chunks(DEFAULT_BLOCK_BYTES):
            for (name, _), r in zip(profiles, runner(chunk, cpus)):
                per_model[name] += sum(r.get("seconds", {}).values())
                count(name, chunk, r)
    else:
        runners = [_filter_runner(where, [p], F1, F2, BIAS_FILTER) for _, p in profiles]
        for chunk in db.chunks(DEFAULT_BLOCK_BYTES):
            for (name, _), run in zip(profiles, runners):
                t1 = time.perf_counter()
                (r,) = run(chunk, cpus)
                per_model[name] += time.perf_counter() - t1
                count(name, chunk, r)
    seconds = time.perf_counter() - t0
    return {"seconds": seconds, "per_model_s": per_model}, None, counts


def run_hmmsearch(exe: str, query_files: list[Path], fasta: str, cpus: int, tmp: Path):
    """Debian's hmmsearch, one process per query file; the text report (with --noali it is
    small) is kept because only it holds the pass counts."""
    seconds, per_file, hits, counts = 0.0, [], {}, {}
    for qf in query_files:
        tbl, report = tmp / "hmmsearch.tbl", tmp / "hmmsearch.out"
        cmd = [exe, "--cpu", str(cpus), "--noali", "--tblout", str(tbl), "-o", str(report),
               str(qf), fasta]
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True)
        dt = time.perf_counter() - t0
        seconds += dt
        per_file.append({"queries": qf.name, "seconds": dt})
        hits.update(tblout_rows(tbl.read_text()))
        counts.update(parse_hmmsearch_counts(report.read_text()))
    return {"seconds": seconds, "per_process": per_file}, hits, counts


_REPORT_PATTERNS = {
    "nseqs": r"Target sequences:\s+(\d+)\s+\((\d+) residues",
    "n_past_msv": r"Passed MSV filter:\s+(\d+)",
    "n_past_bias": r"Passed bias filter:\s+(\d+)",
    "n_past_vit": r"Passed Vit filter:\s+(\d+)",
    "n_past_fwd": r"Passed Fwd filter:\s+(\d+)",
}


def parse_hmmsearch_counts(text: str) -> dict[str, dict[str, int]]:
    """Pass counts per query from hmmsearch's "Internal pipeline statistics summary"."""
    out = {}
    for block in text.split("Query:")[1:]:
        name = block.split()[0]
        c = {}
        for key, pattern in _REPORT_PATTERNS.items():
            m = re.search(pattern, block)
            if m is None:
                raise RuntimeError(f"hmmsearch report for {name}: no {key!r} line")
            c[key] = int(m.group(1))
            if key == "nseqs":
                c["nres"] = int(m.group(2))
        out[name] = c
    return out


def run_pyhmmer(fasta: str, hmms: list, cpus: int):
    """pyhmmer's usual recipe: read all targets into a DigitalSequenceBlock, then
    pyhmmer.hmmsearch (which parallelises over queries, one thread each)."""
    import pyhmmer
    from pyhmmer.easel import Alphabet, SequenceFile

    from gpuseq._pyhmmer_state import pipeline_state

    t0 = time.perf_counter()
    with SequenceFile(fasta, digital=True, alphabet=Alphabet.amino()) as f:
        block = f.read_block()
    read_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    tops = list(pyhmmer.hmmsearch(hmms, block, cpus=cpus))
    search_s = time.perf_counter() - t0
    del block
    hits, counts = {}, {}
    for top in tops:
        name = top.query.name if isinstance(top.query.name, str) else top.query.name.decode()
        buf = io.BytesIO()
        top.write(buf, format="targets", header=False)
        hits[name] = tblout_rows(buf.getvalue().decode()).get(name, [])
        state = pipeline_state(top)
        counts[name] = {k: int(state[k]) for k in COUNTERS}
    return ({"seconds": read_s + search_s, "read_s": read_s, "search_s": search_s},
            hits, counts)


# ---- checks -------------------------------------------------------------------------------


def _tiny(token: str) -> bool:
    """E-values below ~1e-307 print as 0 in hmmsearch 3.3.2 (flush-to-zero) and as a tiny
    number in HMMER 3.4: both count as the same value."""
    try:
        return float(token) <= 1e-300
    except ValueError:
        return False


def compare_hits(label: str, got: dict, ref: dict, ref_label: str) -> list[str]:
    """Differences between two {query: tblout rows} (rows compared token by token, ordered
    by target name so that ties in HMMER's sort cannot matter)."""
    problems = []
    for query in sorted(set(got) | set(ref)):
        a = sorted(got.get(query, []), key=lambda r: r[0])
        b = sorted(ref.get(query, []), key=lambda r: r[0])
        if len(a) != len(b):
            problems.append(f"{label} vs {ref_label}, {query}: {len(a)} hits vs {len(b)}")
            continue
        for x, y in zip(a, b):
            if len(x) != len(y) or any(s != t and not (_tiny(s) and _tiny(t))
                                       for s, t in zip(x, y)):
                problems.append(f"{label} vs {ref_label}, {query}:\n  {' '.join(x)}\n  "
                                f"{' '.join(y)}")
                break
    return problems


def compare_counts(label: str, got: dict, ref: dict, ref_label: str) -> list[str]:
    """Differences in pass counts (only the counters both sides have)."""
    problems = []
    for query in sorted(set(got) | set(ref)):
        a, b = got.get(query), ref.get(query)
        if a is None or b is None:
            problems.append(f"{label} vs {ref_label}: query {query} missing")
            continue
        diff = {k: (a[k], b[k]) for k in a if k in b and a[k] != b[k]}
        if diff:
            problems.append(f"{label} vs {ref_label}, {query}: counts differ {diff}")
    return problems


# ---- environment --------------------------------------------------------------------------


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def tool_version(exe: str) -> str:
    """'HMMER 3.3.2 (Nov 2020)' from a HMMER program's -h banner."""
    out = subprocess.run([exe, "-h"], capture_output=True, text=True).stdout
    m = re.search(r"# (HMMER \S+ \([^)]*\))", out)
    return m.group(1) if m else out.splitlines()[1] if out else "unknown"


def resolve_exe(given: str | None, name: str) -> str:
    exe = given or shutil.which(name)
    if not exe or not os.access(exe, os.X_OK):
        sys.exit(f"{name} not found: install Debian's hmmer, put it on PATH, or pass --{name}")
    return os.path.abspath(exe) if os.path.exists(exe) else exe


def device_info() -> dict:
    """CPU model, cores, memory, gpuseq's build (kernels, CUDA) and the GPU if there is one."""
    import gpuseq

    info: dict = {"hostname": socket.gethostname(), "platform": platform.platform(),
                  "cpu_count": os.cpu_count()}
    try:
        info["cpu_affinity"] = len(os.sched_getaffinity(0))
    except AttributeError:
        pass
    try:
        text = Path("/proc/cpuinfo").read_text()
        m = re.search(r"^model name\s*:\s*(.+)$", text, re.M)
        info["cpu_model"] = m.group(1).strip() if m else None
        m = re.search(r"^MemTotal:\s*(\d+) kB", Path("/proc/meminfo").read_text(), re.M)
        info["memory_gib"] = round(int(m.group(1)) / 2**20, 1) if m else None
    except OSError:
        pass
    info["gpuseq_build"] = gpuseq.build_info()
    if shutil.which("nvidia-smi"):
        r = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total",
                            "--format=csv,noheader"], capture_output=True, text=True)
        info["nvidia_smi"] = r.stdout.strip().splitlines() if r.returncode == 0 else r.stderr
    return info


# ---- report -------------------------------------------------------------------------------

TOOLS = [  # (key, label in the table)
    ("gpuseq_fasta", "gpuseq (FASTA)"),
    ("gpuseq_db", "gpuseq (packed db)"),
    ("gpuseq_filters", "  filters only (db)"),
    ("hmmsearch", "hmmsearch 3.3.2"),
    ("pyhmmer", "pyhmmer (read+search)"),
    ("pyhmmer_search", "  search only"),
]


def summarize(runs: list[dict], cpu_list: list[int], cells: float,
              skipped: set[str]) -> list[dict]:
    """Median wall time per tool and thread count, GCUPS, and time ratios to gpuseq (tools
    left out with --skip are left out here too)."""
    tools = [(k, v) for k, v in TOOLS if k.removesuffix("_search") not in skipped]
    def times(tool, cpus, key="seconds"):
        src = "pyhmmer" if tool == "pyhmmer_search" else tool
        key = "search_s" if tool == "pyhmmer_search" else key
        return [r[key] for r in runs if r["tool"] == src and r["cpus"] == cpus]

    rows = []
    for cpus in cpu_list:
        med = {tool: statistics.median(times(tool, cpus)) for tool, _ in tools}
        for tool, label in tools:
            t = times(tool, cpus)
            rows.append({
                "tool": tool, "label": label.strip(), "cpus": cpus, "median_s": med[tool],
                "min_s": min(t), "max_s": max(t), "repeats": len(t),
                "gcups": cells / med[tool] / 1e9,
                "ratio_to_gpuseq_fasta": med[tool] / med["gpuseq_fasta"],
                "ratio_to_gpuseq_db": med[tool] / med["gpuseq_db"],
            })
    return rows


def print_table(summary: list[dict], breakdown: dict, db: dict, models: list[Model]) -> None:
    """The short human-readable table, printed last."""
    print()
    print(f"hmmsearch benchmark: {db['sequences']:,} sequences, {db['residues']:,} residues; "
          f"models {', '.join(f'{m.name}({m.M})' for m in models)}")
    print("ratio = tool time / gpuseq time (above 1: gpuseq is faster)")
    head = (f"{'tool':<24}{'cpus':>5}{'median s':>10}{'GCUPS':>8}"
            f"{'/gpuseq fa':>12}{'/gpuseq db':>12}")
    print(head)
    print("-" * len(head))
    for row in summary:
        label = dict(TOOLS)[row["tool"]]
        ratios = ""
        if row["tool"] in ("hmmsearch", "pyhmmer", "pyhmmer_search"):
            ratios = (f"{row['ratio_to_gpuseq_fasta']:>12.2f}"
                      f"{row['ratio_to_gpuseq_db']:>12.2f}")
        print(f"{label:<24}{row['cpus']:>5}{row['median_s']:>10.2f}{row['gcups']:>8.1f}{ratios}")
    print()
    for cpus, b in breakdown.items():
        print(f"gpuseq at {cpus} cpu(s): filters {b['filters_s']:.2f} s "
              f"({100 * b['filters_fraction']:.0f}% of the packed-db search), downstream + glue "
              f"{b['downstream_s']:.2f} s, FASTA reading adds {b['reader_s']:.2f} s")


# ---- main ---------------------------------------------------------------------------------


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seqs", type=int, default=None,
                   help="background sequences (default 200000; 5000 with --quick)")
    p.add_argument("--homologs", type=int, default=None,
                   help="hmmemit homologs planted per model (default 100; 20 with --quick)")
    p.add_argument("--mean-length", type=float, default=350.0,
                   help="mean background length (log-normal; default 350)")
    p.add_argument("--seed", type=int, default=1, help="database seed (default 1)")
    p.add_argument("--models", default=DEFAULT_MODELS,
                   help="comma-separated hmmer-examples model names or .hmm[.gz] paths "
                        f"(default {DEFAULT_MODELS})")
    p.add_argument("--examples-dir", type=Path, default=DEFAULT_EXAMPLES,
                   help="Debian hmmer-examples folder (default %(default)s)")
    p.add_argument("--cpu", default=str(os.cpu_count() or 1),
                   help="comma-separated thread counts, e.g. 1,2 or 16 (default: all cores)")
    p.add_argument("--repeat", type=int, default=None,
                   help="timed runs per tool and thread count; the median is reported "
                        "(default 3; 1 with --quick)")
    p.add_argument("--quick", action="store_true", help="small database: a smoke run")
    p.add_argument("--backend", default="auto", choices=("auto", "cpu", "cuda"),
                   help="where gpuseq runs its filters (default auto: the GPU when there is one)")
    p.add_argument("--workdir", type=Path, default=REPO / "benchmarks" / "data",
                   help="where the database is generated and cached (default %(default)s)")
    p.add_argument("--out", type=Path, default=None,
                   help="JSON output (default benchmarks/results/hmmsearch-<host>-<date>.json)")
    p.add_argument("--hmmsearch", default=None, help="hmmsearch binary (default: on PATH)")
    p.add_argument("--hmmemit", default=None, help="hmmemit binary (default: on PATH)")
    p.add_argument("--skip", default="",
                   help="comma-separated tools not to time: hmmsearch, pyhmmer (the checks "
                        "then compare only what ran)")
    args = p.parse_args(argv)
    args.seqs = args.seqs if args.seqs is not None else (5000 if args.quick else 200_000)
    args.homologs = args.homologs if args.homologs is not None else (20 if args.quick else 100)
    args.repeat = args.repeat if args.repeat is not None else (1 if args.quick else 3)
    args.cpu_list = [int(c) for c in args.cpu.split(",") if c.strip()]
    args.skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    if args.skip - {"hmmsearch", "pyhmmer"}:
        p.error("--skip takes hmmsearch and/or pyhmmer")
    if not args.cpu_list or min(args.cpu_list) < 1 or args.repeat < 1 or args.seqs < 1:
        p.error("--cpu, --repeat and --seqs must be positive")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    import pyhmmer
    from pyhmmer.plan7 import HMMFile

    import gpuseq
    from gpuseq.backend import resolve_backend

    backend_used = resolve_backend(args.backend, "hmm_filters")
    log(f"gpuseq filters on: {backend_used}")
    hmmemit_exe = resolve_exe(args.hmmemit, "hmmemit")
    hmmsearch_exe = None if "hmmsearch" in args.skip else resolve_exe(args.hmmsearch, "hmmsearch")
    started = datetime.datetime.now().astimezone()
    load_before = os.getloadavg()
    if load_before[0] > 0.25 * (os.cpu_count() or 1):
        # Other work on the machine skews every timing; say so rather than hide it.
        log(f"warning: load average {load_before[0]:.2f} before the benchmark; timings will "
            "be disturbed by other processes")

    models = prepare_models(args.models, args.examples_dir, args.workdir / "models")
    db = ensure_database(args, models, hmmemit_exe)
    hmms = []
    for m in models:
        with HMMFile(m.path) as f:
            hmms.extend(f)
    sum_m = sum(m.M for m in models)
    cells = float(db["residues"]) * sum_m  # DP cells per full search of all models

    runs: list[dict] = []
    results: dict[tuple, tuple] = {}  # (tool, cpus, repeat) -> (hits, counts)
    problems: list[str] = []
    tmp = Path(tempfile.mkdtemp(prefix="bench-hmmsearch-", dir=args.workdir))
    try:
        query_files = hmmsearch_query_files(models, tmp)
        for cpus in args.cpu_list:
            # Repeats are interleaved across tools so that slow drift (thermal, other load)
            # does not favour the tool that happens to run first.
            for rep in range(args.repeat):
                be = args.backend
                plan = [("gpuseq_fasta",
                         lambda cpus=cpus, be=be: run_gpuseq(db["fasta"], hmms, cpus, be)),
                        ("gpuseq_db",
                         lambda cpus=cpus, be=be: run_gpuseq(db["gsdb"], hmms, cpus, be)),
                        ("gpuseq_filters",
                         lambda cpus=cpus, be=be: run_gpuseq_filters(db["gsdb"], hmms, cpus, be))]
                if "hmmsearch" not in args.skip:
                    plan.append(("hmmsearch", lambda cpus=cpus: run_hmmsearch(
                        hmmsearch_exe, query_files, db["fasta"], cpus, tmp)))
                if "pyhmmer" not in args.skip:
                    plan.append(("pyhmmer", lambda cpus=cpus: run_pyhmmer(db["fasta"], hmms, cpus)))
                for tool, fn in plan:
                    timing, hits, counts = fn()
                    runs.append({"tool": tool, "cpus": cpus, "repeat": rep, **timing})
                    results[(tool, cpus, rep)] = (hits, counts)
                    log(f"  cpus={cpus} rep={rep} {tool:<15} {timing['seconds']:8.2f} s")
                    # Every run is checked against gpuseq's first FASTA run: any thread count
                    # or repeat giving other hits or counts is an error, not noise.
                    ref_hits, ref_counts = results[("gpuseq_fasta", args.cpu_list[0], 0)]
                    ref = "gpuseq_fasta"
                    label = f"{tool}(cpus={cpus},rep={rep})"
                    if hits is not None:
                        problems += compare_hits(label, hits, ref_hits, ref)
                    problems += compare_counts(label, counts, ref_counts, ref)
                    if problems:
                        log("RESULTS DIFFER -- no timings are reported:")
                        for line in problems[:20]:
                            log("  " + line)
                        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    summary = summarize(runs, args.cpu_list, cells, args.skip)

    breakdown = {}
    for cpus in args.cpu_list:
        med = {r["tool"]: r["median_s"] for r in summary if r["cpus"] == cpus}
        filt = [r for r in runs if r["tool"] == "gpuseq_filters" and r["cpus"] == cpus]
        per_model = {m.name: statistics.median(r["per_model_s"][m.name] for r in filt)
                     for m in models}
        breakdown[cpus] = {
            "filters_s": med["gpuseq_filters"],
            "filters_fraction": med["gpuseq_filters"] / med["gpuseq_db"],
            "downstream_s": med["gpuseq_db"] - med["gpuseq_filters"],
            "reader_s": med["gpuseq_fasta"] - med["gpuseq_db"],
            "filters_per_model": {m.name: {"M": m.M, "seconds": per_model[m.name],
                                           "gcups": db["residues"] * m.M / per_model[m.name] / 1e9}
                                  for m in models},
        }

    hits, counts = results[("gpuseq_fasta", args.cpu_list[0], 0)]
    per_query = []
    for m in models:
        c = counts[m.name]
        rows = hits.get(m.name, [])
        per_query.append({
            "query": m.name, "M": m.M, **c,
            "survivor_fraction": c["n_past_vit"] / c["nseqs"],
            "reported": len(rows),
            "planted_reported": sum(r[0].startswith(f"{m.name}_hom") for r in rows),
            "planted": args.homologs,
        })

    out = args.out or (REPO / "benchmarks" / "results" /
                       f"hmmsearch-{socket.gethostname()}-{started:%Y%m%d-%H%M%S}.json")
    record = {
        "benchmark": "hmmsearch",
        "started": started.isoformat(timespec="seconds"),
        "finished": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "command": shlex.join([sys.executable, *sys.argv]),
        "load_average": {"before": load_before, "after": os.getloadavg()},
        "device": device_info(),
        "software": {
            "gpuseq": {"version": gpuseq.__version__, "git": source_info()},
            "hmmsearch": (None if hmmsearch_exe is None else
                          {"path": hmmsearch_exe, "version": tool_version(hmmsearch_exe)}),
            "hmmemit": {"path": hmmemit_exe, "version": tool_version(hmmemit_exe)},
            "pyhmmer": {"version": pyhmmer.__version__, "hmmer": "3.4 (bundled)"},
            "python": platform.python_version(),
            "numpy": np.__version__,
        },
        "database": {k: db[k] for k in ("sequences", "background", "homologs", "residues",
                                        "fasta_bytes", "gsdb_bytes", "generate_s", "makedb_s",
                                        "reused", "fasta", "gsdb")}
                    | {"seed": args.seed, "n_background": args.seqs,
                       "mean_length": args.mean_length, "homologs_per_model": args.homologs},
        "models": [asdict(m) | {"path": str(m.path)} for m in models],
        "options": {"F1": F1, "F2": F2, "bias_filter": BIAS_FILTER, "repeat": args.repeat,
                    "backend": args.backend,
                    "backend_used": backend_used,
                    "cpus": args.cpu_list, "quick": args.quick, "skipped": sorted(args.skip)},
        "cells": cells,
        "gcups_definition": "total residues x sum of model lengths / median wall time / 1e9",
        "agreement": "all runs: same tblout rows and pass counts as gpuseq (FASTA), "
                     "checked per run",
        "summary": summary,
        "gpuseq_breakdown": {str(k): v for k, v in breakdown.items()},
        "per_query": per_query,
        "runs": runs,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=2) + "\n")
    print_table(summary, breakdown, db, models)
    if load_before[0] > 0.25 * (os.cpu_count() or 1):
        print(f"warning: load average was {load_before[0]:.2f} at the start (other processes)")
    print(f"\nwrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
