#!/usr/bin/env python3
"""Benchmark gpuseq hmmsearch against Debian's hmmsearch (HMMER 3.3.2) and pyhmmer (HMMER 3.4).

One run times the tools as a user runs them, each a command in its own process, from the HMM
and sequence files to the output files (start-up, parsing and writing inside the clock), on
the same generated protein database and the same query models; checks from the files each
process wrote that they report the same hits and filter pass counts (a fast wrong answer is
not a result), prints a table and writes a JSON record to benchmarks/results/.

What is timed, for each thread count N of ``--cpu`` (Q: every ``--models`` model in one file):

* ``gpuseq (FASTA)``   ``python -m gpuseq.cli hmmsearch --cpu N --noali --tblout T -o R
                       --backend B Q targets.fa`` (B: ``--backend``; auto: the GPU if any)
* ``gpuseq (packed)``  the same over ``targets.gsdb``, made by ``gpuseq makedb``
* ``filters only``     in-process, not a command: only our filter cascade over the packed
                       database, called as the library calls it (a breakdown of the above)
* ``hmmsearch``        ``hmmsearch --cpu N --noali --tblout T -o R Q targets.fa``
* ``pyhmmer``          ``python pyhmmer_search.py --cpu N --tblout T --counts C Q targets.fa``,
                       a script this benchmark writes: pyhmmer's usual recipe (read the
                       targets into a block, ``pyhmmer.hmmsearch(cpus=N)``, write the tblout)
* ``--many-models K``  gpuseq (packed) and hmmsearch on a file of K models built from
                       ``--many-from`` (one process each: gpuseq's database stays resident for
                       every model)

Every timed process is measured by the wall clock around it and its own rusage (CPU time,
peak RSS). The database (never committed) is generated from ``--seed``: ``--seqs`` background
proteins with log-normal lengths (mean ``--mean-length``) drawn from HMMER's background
amino-acid frequencies, plus ``--homologs`` sequences per model emitted by Debian's
``hmmemit`` and planted in random flanks (half of them mutated). It is cached in ``--workdir``
and reused when the parameters match.

Run ``python benchmarks/bench_hmmsearch.py --help``; see benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import hashlib
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
# What the `gpuseq` console script runs (gpuseq.cli:main); works from a PYTHONPATH checkout too.
GPUSEQ = [sys.executable, "-m", "gpuseq.cli"]


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


def write_query_file(models: list[Model], path: Path) -> Path:
    """All models in one HMMER3/f file, the query file of every tool. hmmer-examples mixes
    HMMER3/e and 3/f files, and HMMER reads one format per file: the models are rewritten as
    hmmconvert would (pyhmmer's HMM.write is HMMER's writer)."""
    from pyhmmer.plan7 import HMMFile

    with open(path, "wb") as out:
        for m in models:
            with HMMFile(m.path) as f:
                for hmm in f:
                    hmm.write(out)
    return path


def many_models_file(model: Model, k: int, hmmemit_exe: str, hmmbuild_exe: str,
                     out_dir: Path) -> Path:
    """k distinct models of one family, made the same on every machine: hmmbuild --hand on k
    alignments of 20 sequences that hmmemit -a samples from ``model`` (seeds 1..k), so each
    has the model's length M. Cached in out_dir (never committed)."""
    digest = hashlib.sha256(model.path.read_bytes()).hexdigest()[:8]
    path = out_dir / f"{model.name}-{digest}-x{k}.hmm"
    if path.exists():
        return path
    log(f"building {k} models from {model.name} with hmmemit -a + hmmbuild --hand ...")
    alignments = []
    for i in range(k):
        sto = subprocess.run([hmmemit_exe, "-a", "-N", "20", "--seed", str(i + 1),
                              str(model.path)], check=True, capture_output=True).stdout
        name = f"{model.name}_{i:03d}".encode()  # hmmbuild names each model by its #=GF ID
        alignments.append(sto.replace(b"# STOCKHOLM 1.0\n",
                                      b"# STOCKHOLM 1.0\n#=GF ID " + name + b"\n", 1))
    sto_path, part = path.with_suffix(".sto"), path.with_suffix(".part")
    sto_path.write_bytes(b"".join(alignments))
    subprocess.run([hmmbuild_exe, "--hand", "--cpu", "0", "-o", os.devnull, str(part),
                    str(sto_path)], check=True)
    sto_path.unlink()
    part.rename(path)
    return path


def ensure_database(args, models: list[Model], hmmemit_exe: str) -> dict:
    """Generate (or reuse) the FASTA file and its packed database (made by ``gpuseq makedb``);
    returns their description."""
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
    makedb = run_command([*GPUSEQ, "makedb", str(fasta), str(gsdb)], folder / "makedb.log")
    meta = {"params": params, "fasta": str(fasta), "gsdb": str(gsdb), **counts,
            "fasta_bytes": fasta.stat().st_size,
            "gsdb_bytes": sum(p.stat().st_size for p in gsdb.iterdir()),
            "generate_s": round(gen_s, 3), "makedb": makedb}
    meta_path.write_text(json.dumps(meta, indent=2) + "\n")
    meta["reused"] = False
    log(f"  {counts['sequences']} sequences, {counts['residues']} residues "
        f"(generated in {gen_s:.1f} s, makedb {makedb['seconds']:.1f} s)")
    return meta


# ---- the runs -----------------------------------------------------------------------------

# Runs one command and reports its wall time and its own rusage (CPU time, peak RSS) in a JSON
# file. It is a separate small process because Linux carries the high-water RSS of the memory
# a process had before exec into its peak RSS, and a child spawned with vfork (as subprocess
# does) had its parent's: this benchmark's own large process would be counted in every tool.
LAUNCHER = """\
import json, os, subprocess, sys, time
t0 = time.perf_counter()
child = subprocess.Popen(sys.argv[2:])
_, status, use = os.wait4(child.pid, 0)
seconds = time.perf_counter() - t0
child.returncode = os.waitstatus_to_exitcode(status)
with open(sys.argv[1], "w") as f:
    json.dump({"seconds": seconds, "cpu_s": use.ru_utime + use.ru_stime,
               "peak_rss_mib": use.ru_maxrss / 1024, "exit": child.returncode}, f)
"""

# pyhmmer's usual recipe as a command: written to the work folder, run as `python SCRIPT ...`.
# pyhmmer writes no text report; the pass counts are in its TopHits pickling state, which the
# script writes to a JSON file (--counts) for the checks.
PYHMMER_SCRIPT = '''\
"""hmmsearch with pyhmmer: pyhmmer_search.py --cpu N --tblout T --counts C HMMFILE SEQFILE"""
import argparse
import json

import pyhmmer
from pyhmmer.easel import Alphabet, SequenceFile
from pyhmmer.plan7 import HMMFile

COUNTERS = ("nseqs", "nres", "n_past_msv", "n_past_bias", "n_past_vit", "n_past_fwd")
p = argparse.ArgumentParser()
p.add_argument("--cpu", type=int, required=True)
p.add_argument("--tblout", required=True)
p.add_argument("--counts", required=True)
p.add_argument("hmmfile")
p.add_argument("seqfile")
args = p.parse_args()
with HMMFile(args.hmmfile) as f:
    hmms = list(f)
with SequenceFile(args.seqfile, digital=True, alphabet=Alphabet.amino()) as f:
    targets = f.read_block()
counts = {}
with open(args.tblout, "wb") as out:
    for i, hits in enumerate(pyhmmer.hmmsearch(hmms, targets, cpus=args.cpu)):
        hits.write(out, format="targets", header=i == 0)
        name = hits.query.name
        name = name if isinstance(name, str) else name.decode()
        state = hits.__getstate__()["pipeline"]
        counts[name] = {k: int(state[k]) for k in COUNTERS}
with open(args.counts, "w") as f:
    json.dump(counts, f)
'''


def run_command(cmd: list[str], log_path: Path) -> dict:
    """Run cmd as its own process (stdout and stderr to log_path) through LAUNCHER; exits
    with the log's tail if it fails."""
    usage = log_path.with_suffix(".usage.json")
    with open(log_path, "wb") as logf:
        done = subprocess.run([sys.executable, "-I", "-S", "-c", LAUNCHER, str(usage), *cmd],
                              stdout=logf, stderr=subprocess.STDOUT)
    result = json.loads(usage.read_text()) if done.returncode == 0 else {"exit": None}
    if result.pop("exit") != 0:
        tail = log_path.read_text(errors="replace")[-3000:]
        sys.exit(f"command failed: {shlex.join(cmd)}\n{tail}")
    return result | {"command": shlex.join(cmd)}


def tblout_rows(text: str) -> dict[str, list[list[str]]]:
    """tblout text -> {query name: rows}, each row split into tokens (column 3 is the query)."""
    out: dict[str, list[list[str]]] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            row = line.split()
            out.setdefault(row[2], []).append(row)
    return out


_REPORT_PATTERNS = {
    "nseqs": r"Target sequences:\s+(\d+)\s+\((\d+) residues",
    "n_past_msv": r"Passed MSV filter:\s+(\d+)",
    "n_past_bias": r"Passed bias filter:\s+(\d+)",
    "n_past_vit": r"Passed Vit filter:\s+(\d+)",
    "n_past_fwd": r"Passed Fwd filter:\s+(\d+)",
}


def parse_report_counts(text: str) -> dict[str, dict[str, int]]:
    """Pass counts per query from an hmmsearch text report's "Internal pipeline statistics
    summary" (gpuseq writes the same report)."""
    out = {}
    for block in text.split("\nQuery:")[1:]:
        name = block.split()[0]
        c = {}
        for key, pattern in _REPORT_PATTERNS.items():
            m = re.search(pattern, block)
            if m is None:
                raise RuntimeError(f"report for {name}: no {key!r} line")
            c[key] = int(m.group(1))
            if key == "nseqs":
                c["nres"] = int(m.group(2))
        out[name] = c
    return out


def timed_commands(cpus: int, args, queries: Path, many: Path | None, db: dict, tmp: Path,
                   exes: dict) -> list[tuple[str, list[str]]]:
    """(tool, command) of every timed process at one thread count. Tool T writes T.tbl and
    T.out (pyhmmer: its pass counts as JSON) in tmp."""
    n = str(cpus)

    def gpuseq(tool, hmmfile, targets):
        return (tool, [*GPUSEQ, "hmmsearch", "--cpu", n, "--noali", "--tblout", tmp / f"{tool}.tbl",
                       "-o", tmp / f"{tool}.out", "--backend", args.backend, "--no-progress",
                       hmmfile, targets])

    def hmmsearch(tool, hmmfile):
        return (tool, [exes["hmmsearch"], "--cpu", n, "--noali", "--tblout", tmp / f"{tool}.tbl",
                       "-o", tmp / f"{tool}.out", hmmfile, db["fasta"]])

    plan = []
    if "main" not in args.skip:
        plan += [gpuseq("gpuseq_fasta", queries, db["fasta"]),
                 gpuseq("gpuseq_db", queries, db["gsdb"])]
        if "hmmsearch" not in args.skip:
            plan.append(hmmsearch("hmmsearch", queries))
        if "pyhmmer" not in args.skip:
            plan.append(("pyhmmer", [sys.executable, tmp / "pyhmmer_search.py", "--cpu", n,
                                     "--tblout", tmp / "pyhmmer.tbl", "--counts",
                                     tmp / "pyhmmer.out", queries, db["fasta"]]))
    if many is not None:
        plan.append(gpuseq("gpuseq_many", many, db["gsdb"]))
        if "hmmsearch_many" not in args.skip:
            plan.append(hmmsearch("hmmsearch_many", many))
    return [(tool, [str(c) for c in cmd]) for tool, cmd in plan]


def run_timed(tool: str, cmd: list[str], tmp: Path):
    """One timed process; returns (timing, hits, counts) read from the files it wrote."""
    tbl, report = tmp / f"{tool}.tbl", tmp / f"{tool}.out"
    for stale in (tbl, report):  # a process that writes nothing must not pass the checks
        stale.unlink(missing_ok=True)
    timing = run_command(cmd, tmp / f"{tool}.log")
    text = report.read_text()
    counts = json.loads(text) if tool == "pyhmmer" else parse_report_counts(text)
    return timing, tblout_rows(tbl.read_text()), counts


def run_gpuseq_filters(gsdb: str, hmms: list, cpus: int, backend: str):
    """Only our filter cascade over the packed database, in this process, chunk by chunk and
    query by query as gpuseq.hmmsearch calls it (its own runner, CPU or GPU); per-model times
    give GCUPS."""
    import gpuseq
    from gpuseq.backend import resolve_backend
    from gpuseq.hmm import search_profile
    from gpuseq.hmmsearch import _Filters, _GpuChunks
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
        filters = _Filters(where, F1, F2, BIAS_FILTER)
        for _, p in profiles:
            filters.add(p)
        every = [range(len(profiles))]
        gpu_chunks = _GpuChunks()
        for chunk, targets in gpu_chunks(db.chunks(DEFAULT_BLOCK_BYTES)):
            for q, r in filters.run(chunk, targets, cpus, every, shrink=gpu_chunks.shrink):
                name = profiles[q][0]
                per_model[name] += sum(r.get("seconds", {}).values())
                count(name, chunk, r)
    else:
        filters = _Filters(where, F1, F2, BIAS_FILTER)
        for _, p in profiles:
            filters.add(p)
        for chunk in db.chunks(DEFAULT_BLOCK_BYTES):
            for q, (name, _) in enumerate(profiles):
                t1 = time.perf_counter()
                ((_, r),) = filters.run(chunk, None, cpus, [[q]])
                per_model[name] += time.perf_counter() - t1
                count(name, chunk, r)
    seconds = time.perf_counter() - t0
    timing = {"seconds": seconds, "per_model_s": per_model,
              "command": f"in-process: gpuseq's filter cascade over {gsdb}"}
    return timing, None, counts


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

TOOLS = {  # key: label in the table ({k}: the number of models of --many-models)
    "gpuseq_fasta": "gpuseq (FASTA)",
    "gpuseq_db": "gpuseq (packed db)",
    "gpuseq_filters": "  filters only, in-process",
    "hmmsearch": "hmmsearch 3.3.2",
    "pyhmmer": "pyhmmer (script)",
    "gpuseq_many": "gpuseq {k} models (db)",
    "hmmsearch_many": "hmmsearch {k} models",
}


def summarize(runs: list[dict], cpu_list: list[int], cells: dict[str, float]) -> list[dict]:
    """Per tool and thread count: median wall time, CPU time and peak RSS of the process, GCUPS,
    and the time ratios to gpuseq (the K-model rows to gpuseq's K-model run)."""
    rows = []
    for cpus in cpu_list:
        mine = [r for r in runs if r["cpus"] == cpus]
        tools = dict.fromkeys(r["tool"] for r in mine)  # in the order they ran
        med = {t: statistics.median(r["seconds"] for r in mine if r["tool"] == t) for t in tools}
        for tool in tools:
            own = [r for r in mine if r["tool"] == tool]
            many = tool.endswith("_many")
            is_process = "cpu_s" in own[0]
            rows.append({
                "tool": tool, "cpus": cpus, "command": own[0]["command"],
                "median_s": med[tool], "min_s": min(r["seconds"] for r in own),
                "max_s": max(r["seconds"] for r in own), "repeats": len(own),
                "cpu_s": statistics.median(r["cpu_s"] for r in own) if is_process else None,
                "peak_rss_mib": max(r["peak_rss_mib"] for r in own) if is_process else None,
                "gcups": cells["many" if many else "main"] / med[tool] / 1e9,
                "ratio_to_gpuseq_fasta": ratio(med, tool, None if many else "gpuseq_fasta"),
                "ratio_to_gpuseq_db": ratio(med, tool, "gpuseq_many" if many else "gpuseq_db"),
            })
    return rows


def ratio(med: dict, tool: str, reference: str | None) -> float | None:
    """tool's median over reference's; None when the reference did not run."""
    return med[tool] / med[reference] if reference in med else None


def speedups(summary: list[dict]) -> dict[str, dict[str, float]]:
    """The headline ratios per thread count: the other tools' time over gpuseq's."""
    out: dict[str, dict[str, float]] = {}
    for row in summary:
        ratios = out.setdefault(str(row["cpus"]), {})
        if row["tool"] in ("hmmsearch", "pyhmmer"):
            ratios[f"{row['tool']} / gpuseq (FASTA)"] = row["ratio_to_gpuseq_fasta"]
            ratios[f"{row['tool']} / gpuseq (packed db)"] = row["ratio_to_gpuseq_db"]
        if row["tool"] == "hmmsearch_many":
            ratios["hmmsearch / gpuseq, K models (packed db)"] = row["ratio_to_gpuseq_db"]
        for name in [n for n, r in ratios.items() if r is None]:  # its gpuseq run is missing
            del ratios[name]
    return out


def print_table(summary: list[dict], breakdown: dict, db: dict, models: list[Model],
                many: dict | None, repeat: int) -> None:
    """The short human-readable table, printed last."""
    k = many["k"] if many else 0
    print()
    print(f"hmmsearch benchmark: {db['sequences']:,} sequences, {db['residues']:,} residues; "
          f"models {', '.join(f'{m.name}({m.M})' for m in models)}"
          + (f"; {k} models from {many['from']}({many['M']})" if many else ""))
    print(f"each tool a command in its own process: median of its runs ({repeat} here, more "
          "where --previous joined earlier ones: 'repeats' in the JSON); CPU s and peak RSS "
          "from the process's rusage; ratio = tool time / gpuseq time")
    head = (f"{'tool':<27}{'cpus':>5}{'median s':>10}{'CPU s':>9}{'peak MiB':>10}{'GCUPS':>8}"
            f"{'/gpuseq fa':>12}{'/gpuseq db':>12}")
    print(head)
    print("-" * len(head))
    for row in summary:
        cpu, rss = row["cpu_s"], row["peak_rss_mib"]
        line = (f"{TOOLS[row['tool']].format(k=k):<27}{row['cpus']:>5}{row['median_s']:>10.2f}"
                + (f"{cpu:>9.1f}{rss:>10.0f}" if cpu is not None else f"{'-':>9}{'-':>10}")
                + f"{row['gcups']:>8.1f}")
        if not row["tool"].startswith("gpuseq"):
            fa = row["ratio_to_gpuseq_fasta"]
            line += (f"{fa:>12.2f}" if fa is not None else f"{'-':>12}")
            db_ratio = row["ratio_to_gpuseq_db"]
            line += (f"{db_ratio:>12.2f}" if db_ratio is not None else f"{'-':>12}")
        print(line)
    print()
    for cpus, ratios in speedups(summary).items():
        if ratios:
            print(f"--cpu {cpus}: " + ", ".join(f"{name.replace('K models', f'{k} models')} "
                                               f"{r:.1f}x" for name, r in ratios.items()))
    for cpus, b in breakdown.items():
        print(f"gpuseq at {cpus} cpu(s): filters {b['filters_s']:.2f} s in-process "
              f"({100 * b['filters_fraction']:.0f}% of the packed-db command), the rest "
              f"(start-up, downstream, output) {b['rest_s']:.2f} s, FASTA reading adds "
              f"{b['reader_s']:.2f} s")


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
    p.add_argument("--many-models", type=int, default=None, metavar="K",
                   help="also time K models in one file against the packed database (gpuseq) "
                        "and the FASTA file (hmmsearch); 0: not (default 100; 10 with --quick)")
    p.add_argument("--many-from", default="globins4",
                   help="the model the K models are built from (default globins4)")
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
    p.add_argument("--hmmbuild", default=None, help="hmmbuild binary (default: on PATH)")
    p.add_argument("--skip", default="",
                   help="comma-separated tools not to time: hmmsearch, hmmsearch_many, pyhmmer, "
                        "or main (the whole model-set run); the checks compare what ran")
    p.add_argument("--previous", type=Path, nargs="*", default=[], metavar="JSON",
                   help="records of earlier runs of the same benchmark (database, models, "
                        "gpuseq source) whose runs join this one's medians: long runs split "
                        "across calls, e.g. hmmsearch_many at 6 minutes a repeat")
    args = p.parse_args(argv)
    args.seqs = args.seqs if args.seqs is not None else (5000 if args.quick else 200_000)
    args.homologs = args.homologs if args.homologs is not None else (20 if args.quick else 100)
    args.repeat = args.repeat if args.repeat is not None else (1 if args.quick else 3)
    if args.many_models is None:
        args.many_models = 10 if args.quick else 100
    args.workdir = args.workdir.resolve()
    args.cpu_list = [int(c) for c in args.cpu.split(",") if c.strip()]
    args.skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    if args.skip - {"hmmsearch", "hmmsearch_many", "pyhmmer", "main"}:
        p.error("--skip takes hmmsearch, hmmsearch_many, pyhmmer and/or main")
    if not args.cpu_list or min(args.cpu_list) < 1 or args.repeat < 1 or args.seqs < 1:
        p.error("--cpu, --repeat and --seqs must be positive")
    if args.many_models < 0:
        p.error("--many-models must be 0 or more")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    import pyhmmer
    from pyhmmer.plan7 import HMMFile

    import gpuseq
    from gpuseq.backend import resolve_backend

    backend_used = resolve_backend(args.backend, "hmm_filters")
    log(f"gpuseq filters on: {backend_used}")
    exes = {"hmmemit": resolve_exe(args.hmmemit, "hmmemit")}
    if {"hmmsearch", "hmmsearch_many"} - args.skip:
        exes["hmmsearch"] = resolve_exe(args.hmmsearch, "hmmsearch")
    if args.many_models:
        exes["hmmbuild"] = resolve_exe(args.hmmbuild, "hmmbuild")
    started = datetime.datetime.now().astimezone()
    load_before = os.getloadavg()
    if load_before[0] > 0.25 * (os.cpu_count() or 1):
        # Other work on the machine skews every timing; say so rather than hide it.
        log(f"warning: load average {load_before[0]:.2f} before the benchmark; timings will "
            "be disturbed by other processes")

    model_dir = args.workdir / "models"
    models = prepare_models(args.models, args.examples_dir, model_dir)
    db = ensure_database(args, models, exes["hmmemit"])
    many = many_path = None
    if args.many_models:
        (source,) = prepare_models(args.many_from, args.examples_dir, model_dir)
        many_path = many_models_file(source, args.many_models, exes["hmmemit"],
                                     exes["hmmbuild"], model_dir)
        with HMMFile(many_path) as f:
            many_M = sum(h.M for h in f)
        many = {"k": args.many_models, "from": source.name, "M": source.M,
                "sum_M": many_M, "file": str(many_path), "source": source.source}
    cells = {"main": float(db["residues"]) * sum(m.M for m in models),  # DP cells per search
             "many": float(db["residues"]) * (many["sum_M"] if many else 0)}

    runs: list[dict] = []
    first: dict[str, tuple] = {}  # "main", "many": (tool, hits, counts) of gpuseq's first run
    tmp = Path(tempfile.mkdtemp(prefix="bench-hmmsearch-", dir=args.workdir))
    try:
        queries = write_query_file(models, tmp / "queries.hmm")
        (tmp / "pyhmmer_search.py").write_text(PYHMMER_SCRIPT)
        with HMMFile(queries) as f:
            hmms = list(f)
        for cpus in args.cpu_list:
            plan = timed_commands(cpus, args, queries, many_path, db, tmp, exes)
            if "main" not in args.skip:  # None: in this process, not a command
                plan.insert(2, ("gpuseq_filters", None))
            # Repeats are interleaved across tools so that slow drift (thermal, other load)
            # does not favour the tool that happens to run first.
            for rep in range(args.repeat):
                for tool, cmd in plan:
                    if cmd is None:
                        timing, hits, counts = run_gpuseq_filters(db["gsdb"], hmms, cpus,
                                                                  args.backend)
                    else:
                        timing, hits, counts = run_timed(tool, cmd, tmp)
                    runs.append({"tool": tool, "cpus": cpus, "repeat": rep, **timing})
                    log(f"  cpus={cpus} rep={rep} {tool:<15} {timing['seconds']:8.2f} s")
                    # Every run is checked against gpuseq's first run on the same queries: any
                    # thread count or repeat giving other hits or counts is an error, not noise.
                    ref, ref_hits, ref_counts = first.setdefault(
                        "many" if tool.endswith("_many") else "main", (tool, hits, counts))
                    label = f"{tool}(cpus={cpus},rep={rep})"
                    problems = compare_counts(label, counts, ref_counts, ref)
                    if hits is not None:
                        problems += compare_hits(label, hits, ref_hits, ref)
                    if problems:
                        log("RESULTS DIFFER -- no timings are reported:")
                        for line in problems[:20]:
                            log("  " + line)
                        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    identity = {
        "database": {"seed": args.seed, "n_background": args.seqs,
                     "mean_length": args.mean_length, "homologs_per_model": args.homologs,
                     "residues": db["residues"]},
        "models": [(m.name, m.M) for m in models],
        "many_models": None if many is None else (many["k"], many["from"], many["sum_M"]),
        "gpuseq_source": source_info().get("source_hash"),
    }
    counts_of = {key: value[2] for key, value in first.items()}  # "main"/"many": pass counts
    for path in args.previous:
        earlier = json.loads(path.read_text())
        problems = [f"{key} differs" for key, value in identity.items()
                    if json.loads(json.dumps(value)) != earlier.get("identity", {}).get(key)]
        for key, counts in earlier.get("counts", {}).items():
            if key in counts_of and counts != counts_of[key]:
                problems.append(f"{key} pass counts differ")
            counts_of.setdefault(key, counts)
        if problems:
            log(f"{path}: not the same benchmark or not the same results: {', '.join(problems)}")
            return 1
        runs.extend({**r, "from": str(path)} for r in earlier["runs"] if "from" not in r)
        log(f"joined {len(earlier['runs'])} run(s) of {path}")

    summary = summarize(runs, args.cpu_list, cells)
    breakdown = {}
    for cpus in args.cpu_list:
        med = {r["tool"]: r["median_s"] for r in summary if r["cpus"] == cpus}
        if not {"gpuseq_filters", "gpuseq_db", "gpuseq_fasta"} <= set(med):
            continue
        filt = [r for r in runs if r["tool"] == "gpuseq_filters" and r["cpus"] == cpus]
        per_model = {m.name: statistics.median(r["per_model_s"][m.name] for r in filt)
                     for m in models}
        breakdown[cpus] = {
            "filters_s": med["gpuseq_filters"],
            "filters_fraction": med["gpuseq_filters"] / med["gpuseq_db"],
            "rest_s": med["gpuseq_db"] - med["gpuseq_filters"],
            "reader_s": med["gpuseq_fasta"] - med["gpuseq_db"],
            "filters_per_model": {m.name: {"M": m.M, "seconds": per_model[m.name],
                                           "gcups": db["residues"] * m.M / per_model[m.name] / 1e9}
                                  for m in models},
        }

    per_query = []
    for m in models if "main" in first else []:
        _, hits, counts = first["main"]
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
            "gpuseq": {"version": gpuseq.__version__, "git": source_info(),
                       "path": os.path.dirname(gpuseq.__file__)},
            **{name: {"path": exe, "version": tool_version(exe)} for name, exe in exes.items()},
            "pyhmmer": {"version": pyhmmer.__version__, "hmmer": "3.4 (bundled)"},
            "python": platform.python_version(),
            "numpy": np.__version__,
        },
        "database": {k: db.get(k) for k in ("sequences", "background", "homologs", "residues",
                                            "fasta_bytes", "gsdb_bytes", "generate_s", "makedb",
                                            "reused", "fasta", "gsdb")}
                    | {"seed": args.seed, "n_background": args.seqs,
                       "mean_length": args.mean_length, "homologs_per_model": args.homologs},
        "models": [asdict(m) | {"path": str(m.path)} for m in models],
        "many_models": many,
        "options": {"F1": F1, "F2": F2, "bias_filter": BIAS_FILTER, "repeat": args.repeat,
                    "backend": args.backend, "backend_used": backend_used,
                    "cpus": args.cpu_list, "quick": args.quick, "skipped": sorted(args.skip)},
        "timing": "each tool a command in its own process: wall clock around the process, CPU "
                  "seconds (user + system) and peak RSS from its own rusage; gpuseq_filters "
                  "alone is timed in-process",
        "cells": cells,
        "gcups_definition": "total residues x sum of model lengths / median wall time / 1e9",
        "agreement": "every run: the same tblout rows and pass counts (from the files the "
                     "process wrote) as gpuseq's first run on the same queries",
        "speedups": speedups(summary),
        "summary": summary,
        "gpuseq_breakdown": {str(k): v for k, v in breakdown.items()},
        "per_query": per_query,
        "identity": identity,
        "counts": counts_of,
        "runs": runs,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=2) + "\n")
    print_table(summary, breakdown, db, models, many, args.repeat)
    if load_before[0] > 0.25 * (os.cpu_count() or 1):
        print(f"warning: load average was {load_before[0]:.2f} at the start (other processes)")
    print(f"\nwrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
