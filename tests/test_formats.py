"""Targets in every format hmmsearch reads, and models or targets on standard input: the same
tblout rows as Debian's hmmsearch 3.3.2 on the same files (autodetected and with --tformat),
and typed errors naming the file and the record where Easel's parsers stop."""

from __future__ import annotations

import gzip
import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from pyhmmer.easel import SequenceFile, TextMSA, TextSequence

import gpuseq
from conftest import HMMER_EXAMPLES, pyhmmer_data
from synthetic import random_proteins, require_tool
from test_hmmsearch import rows

TUTORIAL = HMMER_EXAMPLES / "tutorial"
HMMER_TESTSUITE = HMMER_EXAMPLES / "testsuite"
PROTEOME = pyhmmer_data() / "seqs" / "938293.PRJEB85.HG003687.faa"


# ---- the targets, written in each format ----------------------------------------------------


@pytest.fixture(scope="module")
def records() -> list[tuple[str, str, str, str]]:
    """(name, accession, description, sequence): the 45 globins, 150 proteins of a real
    proteome and 100 random ones; short names (GenBank's LOCUS), some accessions."""
    out = []
    with SequenceFile(str(TUTORIAL / "globins45.fa")) as f:
        for i, seq in enumerate(f):
            out.append((f"glob{i:03d}", f"GL{i:05d}.1", _text(seq.description), seq.sequence))
    with SequenceFile(str(PROTEOME)) as f:
        for i, seq in zip(range(150), f):
            acc = f"PR{i:05d}" if i % 2 else ""
            out.append((f"prot{i:03d}", acc, f"protein {i} of {PROTEOME.stem}", seq.sequence))
    rng = np.random.default_rng(7)
    for i, seq in enumerate(random_proteins(rng, 100, max_length=900)):
        out.append((f"rand{i:03d}", "", "", seq))
    return out


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> Path:
    """globins4 and fn3 in one file: two queries, one search."""
    path = tmp_path_factory.mktemp("models") / "globins4_fn3.hmm"
    path.write_text((TUTORIAL / "globins4.hmm").read_text() + (TUTORIAL / "fn3.hmm").read_text())
    return path


def _text(value) -> str:
    return value.decode() if isinstance(value, bytes) else (value or "")


def write_embl(path: Path, records) -> Path:
    """UniProt/EMBL text: ID, AC, DE, SQ and the sequence in blocks of ten."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "wt") as f:
        for name, acc, desc, seq in records:
            f.write(f"ID   {name}   STANDARD;  PRT;  {len(seq)} AA.\n")
            if acc:
                f.write(f"AC   {acc};\n")
            if desc:
                f.write(f"DE   {desc}\n")
            f.write(f"SQ   SEQUENCE   {len(seq)} AA;  0 MW;  0000000000000000 CRC64;\n")
            for i in range(0, len(seq), 60):
                line = seq[i : i + 60]
                f.write("     " + " ".join(line[j : j + 10] for j in range(0, len(line), 10)))
                f.write("\n")
            f.write("//\n")
    return path


def write_genbank(path: Path, records) -> Path:
    """GenBank, written by Biopython."""
    from Bio import SeqIO
    from Bio.Seq import Seq
    from Bio.SeqRecord import SeqRecord

    out = []
    for name, acc, desc, seq in records:
        rec = SeqRecord(Seq(seq), id=acc or name, name=name, description=desc or ".")
        rec.annotations["molecule_type"] = "protein"
        out.append(rec)
    SeqIO.write(out, path, "genbank")
    return path


def write_alignment(path: Path, records, fmt: str) -> Path:
    """Stockholm or aligned FASTA, written by Easel (pyhmmer): the sequences padded with gaps
    to one length (an alignment in form; Easel drops the gaps when it reads sequences)."""
    width = max(len(r[3]) for r in records)
    seqs = [
        TextSequence(
            name=name.encode(),
            accession=acc.encode(),
            description=desc.encode(),
            sequence=seq + "-" * (width - len(seq)),
        )
        for name, acc, desc, seq in records
    ]
    with open(path, "wb") as f:
        TextMSA(name=b"targets", sequences=seqs).write(f, fmt)
    return path


# ---- references -----------------------------------------------------------------------------


def hmmsearch_tbl(hmm, targets, tmp_path, tformat=None, stdin=None) -> list[list[str]]:
    """Debian's hmmsearch 3.3.2 tblout rows (targets may be '-' with bytes on stdin)."""
    tbl = tmp_path / "ref.tbl"
    command = [require_tool("hmmsearch"), "--cpu", "1", "--tblout", str(tbl), "-o", "/dev/null"]
    if tformat:
        command += ["--tformat", tformat]
    subprocess.run([*command, str(hmm), str(targets)], input=stdin, check=True)
    return rows(tbl.read_text())


def gpuseq_tbl(hmm, targets, tformat=None) -> list[list[str]]:
    buf = io.StringIO()
    gpuseq.hmmsearch(hmm, targets, tformat=tformat, cpus=2).write_tblout(buf)
    return rows(buf.getvalue())


def gpuseq_cli(*args, stdin: bytes | None = None, check=True):
    return subprocess.run(
        [sys.executable, "-m", "gpuseq.cli", *map(str, args)],
        input=stdin,
        capture_output=True,
        check=check,
    )


def assert_same_search(hmm, path, tmp_path, tformat=None, n_targets=None):
    ours = gpuseq_tbl(hmm, path, tformat)
    ref = hmmsearch_tbl(hmm, path, tmp_path, tformat)
    assert ours == ref
    assert len(ref) > 5  # globins and fn3 hits, with accessions and descriptions
    if n_targets is not None:
        res = gpuseq.hmmsearch(hmm, path, tformat=tformat)
        assert set(res.pipeline["nseqs"]) == {n_targets}


# ---- formats ---------------------------------------------------------------------------------


@pytest.mark.parametrize("tformat", [None, "stockholm", "pfam"])
def test_stockholm_targets(records, models, tmp_path, tformat):
    path = write_alignment(tmp_path / "targets.sto", records, "stockholm")
    assert_same_search(models, path, tmp_path, tformat, n_targets=len(records))


def test_real_stockholm_alignment(tmp_path):
    """pyhmmer's LuxC alignment (real gaps, #=GS lines) against HMMER's LuxC model."""
    hmm = tmp_path / "LuxC.hmm"
    hmm.write_bytes(gzip.decompress((HMMER_TESTSUITE / "LuxC.hmm.gz").read_bytes()))
    msa = pyhmmer_data() / "msa" / "LuxC.sto"
    ours = gpuseq_tbl(hmm, msa)
    assert ours == hmmsearch_tbl(hmm, msa, tmp_path)
    assert len(ours) > 5


def test_aligned_fasta_targets(records, models, tmp_path):
    path = write_alignment(tmp_path / "targets.afa", records, "afa")
    assert_same_search(models, path, tmp_path, "afa", n_targets=len(records))


def test_aligned_fasta_autodetected_is_fasta_with_gaps(records, tmp_path):
    """Without --tformat, Easel takes a file starting with '>' for FASTA, where '-' is not a
    residue: hmmsearch stops, and so do we, naming the line."""
    path = write_alignment(tmp_path / "targets.afa", [records[0], records[60]], "afa")
    ref = subprocess.run(
        [require_tool("hmmsearch"), str(TUTORIAL / "globins4.hmm"), str(path)],
        capture_output=True,
    )
    assert ref.returncode != 0
    with pytest.raises(gpuseq.FormatError) as err:
        gpuseq.hmmsearch(TUTORIAL / "globins4.hmm", path)
    assert err.value.path == str(path) and err.value.line is not None


@pytest.mark.parametrize("tformat", [None, "embl", "uniprot"])
def test_embl_targets(records, models, tmp_path, tformat):
    path = write_embl(tmp_path / "targets.dat", records)
    assert_same_search(models, path, tmp_path, tformat, n_targets=len(records))


def test_gzipped_embl_targets_autodetected(records, tmp_path):
    """One model: hmmsearch cannot rewind a .gz pipe for a second (we read targets once)."""
    path = write_embl(tmp_path / "targets.dat.gz", records)
    assert_same_search(TUTORIAL / "globins4.hmm", path, tmp_path, None, n_targets=len(records))


@pytest.mark.parametrize("tformat", [None, "genbank"])
def test_genbank_targets(records, models, tmp_path, tformat):
    path = write_genbank(tmp_path / "targets.gbk", records)
    assert_same_search(models, path, tmp_path, tformat, n_targets=len(records))


def test_explicit_fasta_format(models, tmp_path):
    path = TUTORIAL / "globins45.fa"
    assert gpuseq_tbl(models, path, "FASTA") == hmmsearch_tbl(models, path, tmp_path, "fasta")


def test_ncbi_blast_database_of_hmmer_testsuite(tmp_path):
    """HMMER's own test database (20aa-alitest.p*), as in its i21 rewind test."""
    hmm = tmp_path / "20aa.hmm"
    hmm.write_bytes(gzip.decompress((HMMER_TESTSUITE / "20aa.hmm.gz").read_bytes()))
    db = HMMER_TESTSUITE / "20aa-alitest"
    ours = gpuseq_tbl(hmm, db, "ncbi")
    assert ours == hmmsearch_tbl(hmm, db, tmp_path, "ncbi")
    assert len(ours) == 4
    assert ours == gpuseq_tbl(hmm, HMMER_TESTSUITE / "20aa-alitest.fa")


def test_ncbi_blast_database_made_by_makeblastdb(records, models, tmp_path):
    makeblastdb = shutil.which("makeblastdb")
    if makeblastdb is None:
        pytest.skip("makeblastdb not installed (Debian ncbi-blast+): no BLAST db to build")
    fasta = tmp_path / "targets.fasta"
    fasta.write_text("".join(f">{n} {d}\n{s}\n" for n, _, d, s in records))
    db = tmp_path / "targetsdb"
    subprocess.run(
        # Easel reads version 4 BLAST databases (makeblastdb writes version 5 by default).
        [makeblastdb, "-in", fasta, "-dbtype", "prot", "-blastdb_version", "4", "-out", db],
        check=True,
        capture_output=True,
    )
    assert_same_search(models, db, tmp_path, "ncbi", n_targets=len(records))


# ---- model files ----------------------------------------------------------------------------


@pytest.mark.parametrize("backend", ["cpu", pytest.param("cuda", marks=pytest.mark.cuda)])
@pytest.mark.parametrize("form", ["binary", "binary piped", "HMMER2", "3/a", "3/b", "3/c", "3/e",
                                  "3/f gzip"])  # fmt: skip
def test_model_files_in_every_form_hmmsearch_reads(records, tmp_path, form, backend):
    """globins4, fn3 and Pkinase as hmmconvert writes them (binary, HMMER2 ASCII, the earlier
    HMMER3 ASCII versions) or gzipped: every output file of the search equals hmmsearch 3.3.2's
    on the same file. The filters are opened to 0.5 and -E, --domE to 100, so that each model
    reports weak hits too."""
    from test_cli import assert_same_hmmsearch_files, hmmsearch_outputs

    ascii_models = tmp_path / "three.hmm"
    ascii_models.write_text("".join((TUTORIAL / f"{name}.hmm").read_text()
                                    for name in ("globins4", "fn3", "Pkinase")))  # fmt: skip
    models = tmp_path / ("three.hmm.gz" if form == "3/f gzip" else "three.models")
    if form == "3/f gzip":  # (read as gzip by its name, by both)
        models.write_bytes(gzip.compress(ascii_models.read_bytes()))
    else:
        option = {"HMMER2": ["-2"]}.get(form, ["-b"] if "binary" in form else ["--outfmt", form])
        models.write_bytes(subprocess.run([require_tool("hmmconvert"), *option, ascii_models],
                                          capture_output=True, check=True).stdout)  # fmt: skip
    assert models.read_bytes() != ascii_models.read_bytes()
    targets = tmp_path / "targets.fa"
    targets.write_text("".join(f">{n} {d}\n{s}\n" for n, _, d, s in records))
    flags = ["--F1", "0.5", "--F2", "0.5", "--F3", "0.5", "-E", "100", "--domE", "100"]
    ref, ref_out = hmmsearch_outputs([require_tool("hmmsearch"), "--cpu", "1"], flags,
                                     tmp_path / "ref", models, targets)  # fmt: skip
    piped = models if form == "binary piped" else None
    ours, ours_out = hmmsearch_outputs(
        [sys.executable, "-m", "gpuseq.cli", "hmmsearch", "--cpu", "1", "--backend", backend],
        flags, tmp_path / "ours", "-" if piped else models, targets, piped)  # fmt: skip
    assert ref.returncode == ours.returncode == 0, (ref.stderr, ours.stderr)
    if piped:  # the report names the pipe '-'
        ours_out["out"] = "\n".join(
            line.replace(" -", f" {models}", 1) if line.startswith("# query HMM file:") else line
            for line in ours_out["out"].split("\n"))  # fmt: skip
    assert_same_hmmsearch_files(ours_out, ref_out, form)
    assert {row[2] for row in rows(ref_out["tbl"])} == {"globins4", "fn3", "Pkinase"}


# ---- standard input --------------------------------------------------------------------------


def test_models_from_standard_input(models, tmp_path):
    targets = TUTORIAL / "globins45.fa"
    tbl = tmp_path / "stdin.tbl"
    gpuseq_cli("hmmsearch", "--tblout", tbl, "-", targets, stdin=models.read_bytes())
    assert rows(tbl.read_text()) == hmmsearch_tbl(models, targets, tmp_path)
    assert len(rows(tbl.read_text())) > 5


def test_alignment_targets_from_standard_input_with_tformat(records, tmp_path):
    sto = write_alignment(tmp_path / "targets.sto", records, "stockholm").read_bytes()
    tbl = tmp_path / "stdin.tbl"
    hmm = TUTORIAL / "globins4.hmm"  # one model: hmmsearch refuses more against a pipe
    gpuseq_cli("hmmsearch", "--tformat", "stockholm", "--tblout", tbl, hmm, "-", stdin=sto)
    ref = hmmsearch_tbl(hmm, "-", tmp_path, "stockholm", stdin=sto)
    assert rows(tbl.read_text()) == ref and len(ref) > 5


@pytest.mark.parametrize("fmt", ["embl", "genbank", "embl.gz"])
def test_line_formats_on_standard_input_are_detected_as_hmmsearch_does(records, tmp_path, fmt):
    """hmmsearch finds EMBL/UniProt and GenBank on a pipe from its first line. The native
    reader takes the pipe's first block, sees it is not FASTA and hands its bytes on to
    Easel's detection, then the rest of the pipe (past the first 64 KB block here). gzip on
    a pipe is ours alone: hmmsearch is given the plain text."""
    if fmt == "genbank":
        text = write_genbank(tmp_path / "targets.gb", records).read_bytes()
    else:
        text = write_embl(tmp_path / "targets.dat", records).read_bytes()
    assert len(text) > 1 << 16
    hmm = TUTORIAL / "globins4.hmm"
    tbl = tmp_path / "stdin.tbl"
    piped = gzip.compress(text) if fmt.endswith(".gz") else text
    out = gpuseq_cli("hmmsearch", "--tblout", tbl, hmm, "-", stdin=piped)
    ref = hmmsearch_tbl(hmm, "-", tmp_path, stdin=text)
    assert rows(tbl.read_text()) == ref and len(ref) > 5
    assert re.search(rb"Target sequences: +%d  \(" % len(records), out.stdout)


@pytest.mark.parametrize("fmt", ["embl", "genbank", "stockholm"])
def test_formats_asserted_on_standard_input_plain_or_gzip(records, tmp_path, fmt):
    """--tformat on a pipe: Easel's parser for that format reads what the native reader
    takes from the pipe, so gzip is read as it is without --tformat (hmmsearch is given the
    plain text). Found as the random commands were given formats (session 70): gzip with
    --tformat failed with "failed to find ID line"."""
    writers = {"embl": write_embl, "genbank": write_genbank,
               "stockholm": lambda path, recs: write_alignment(path, recs, "stockholm")}
    text = writers[fmt](tmp_path / f"targets.{fmt}", records).read_bytes()
    hmm = TUTORIAL / "globins4.hmm"
    ref = hmmsearch_tbl(hmm, "-", tmp_path, fmt, stdin=text)
    assert len(ref) > 5
    for piped in (text, gzip.compress(text)):
        tbl = tmp_path / "stdin.tbl"
        gpuseq_cli("hmmsearch", "--tformat", fmt, "--tblout", tbl, hmm, "-", stdin=piped)
        assert rows(tbl.read_text()) == ref


def test_alignment_on_standard_input_without_tformat_is_refused_as_hmmsearch_does(
    records, tmp_path
):
    """Easel cannot detect an alignment format on a pipe: hmmsearch says the file is empty
    or misformatted, gpuseq says so and what to give."""
    sto = write_alignment(tmp_path / "targets.sto", records, "stockholm").read_bytes()
    hmm = TUTORIAL / "globins4.hmm"
    for text in (sto, b"no format at all\n"):
        ref = subprocess.run([require_tool("hmmsearch"), str(hmm), "-"], input=text,
                             capture_output=True)
        assert ref.returncode != 0 and b"is empty or misformatted" in ref.stdout + ref.stderr
        out = gpuseq_cli("hmmsearch", hmm, "-", stdin=text, check=False)
        assert out.returncode == 1
        assert b"-: empty, or of a format Easel does not detect" in out.stderr
        assert b"Traceback" not in out.stderr and b"SystemError" not in out.stderr


def test_several_models_against_piped_targets(models, tmp_path):
    """hmmsearch refuses this (it rereads the targets for every model); we read the targets
    once for all models, so the result is that of the same search from a file."""
    targets = TUTORIAL / "globins45.fa"
    refused = subprocess.run(
        [require_tool("hmmsearch"), str(models), "-"], input=targets.read_bytes(),
        capture_output=True,
    )
    assert refused.returncode != 0
    tbl = tmp_path / "stdin.tbl"
    gpuseq_cli("hmmsearch", "--tblout", tbl, models, "-", stdin=targets.read_bytes())
    assert rows(tbl.read_text()) == hmmsearch_tbl(models, targets, tmp_path)


def test_both_inputs_on_standard_input_is_refused_in_hmmsearchs_words(models):
    ref = subprocess.run(
        [require_tool("hmmsearch"), "-", "-"], input="", capture_output=True, text=True
    )
    out = gpuseq_cli("hmmsearch", "-", "-", stdin=b"", check=False)
    assert out.returncode == 1
    # HMMER's test suite (i17) matches this line at the start of the output.
    assert out.stderr.decode().splitlines()[0] == ref.stdout.splitlines()[0]  # then its usage
    with pytest.raises(ValueError, match="not both"):
        gpuseq.hmmsearch("-", "-")


# ---- errors ----------------------------------------------------------------------------------


def test_unknown_tformat_is_refused():
    with pytest.raises(ValueError, match="bogus is not a recognized sequence database"):
        gpuseq.hmmsearch(TUTORIAL / "globins4.hmm", TUTORIAL / "globins45.fa", tformat="bogus")
    out = gpuseq_cli("hmmsearch", "--tformat", "bogus", TUTORIAL / "globins4.hmm",
                     TUTORIAL / "globins45.fa", check=False)
    assert out.returncode == 1 and b"bogus is not a recognized" in out.stderr


def test_bad_residue_in_stockholm_names_file_and_record(records, tmp_path):
    path = write_alignment(tmp_path / "bad.sto", records[:3], "stockholm")
    text = path.read_text().replace(records[1][3][:10], records[1][3][:5] + "12345", 1)
    path.write_text(text)
    ref = subprocess.run([require_tool("hmmsearch"), TUTORIAL / "globins4.hmm", path],
                         capture_output=True)
    assert ref.returncode != 0
    with pytest.raises(gpuseq.FormatError) as err:
        gpuseq.hmmsearch(TUTORIAL / "globins4.hmm", path)
    assert err.value.path == str(path)
    assert "first record" in str(err.value)  # Easel reads a whole alignment at once


def test_bad_residue_in_embl_names_the_record_after_the_last_good_one(records, tmp_path):
    path = write_embl(tmp_path / "bad.dat", records[:3])
    text = path.read_text().replace(records[2][3][:10], records[2][3][:9] + "@", 1)
    path.write_text(text)
    ref = subprocess.run([require_tool("hmmsearch"), TUTORIAL / "globins4.hmm", path],
                         capture_output=True)
    assert ref.returncode != 0
    with pytest.raises(gpuseq.FormatError) as err:
        gpuseq.hmmsearch(TUTORIAL / "globins4.hmm", path)
    assert err.value.path == str(path)
    assert f"after record 2 ('{records[1][0]}')" in str(err.value)


def test_undetectable_format(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("these are not sequences\n")
    ref = subprocess.run([require_tool("hmmsearch"), TUTORIAL / "globins4.hmm", path],
                         capture_output=True)
    assert ref.returncode != 0
    with pytest.raises(gpuseq.FormatError, match="format Easel does not detect") as err:
        gpuseq.hmmsearch(TUTORIAL / "globins4.hmm", path)
    assert err.value.path == str(path)


def test_fasta_read_as_embl(tmp_path):
    with pytest.raises(gpuseq.FormatError, match="ID line") as err:
        gpuseq.hmmsearch(TUTORIAL / "globins4.hmm", TUTORIAL / "globins45.fa", tformat="embl")
    assert err.value.line == 1


def test_a_format_asserted_for_a_packed_database_is_refused_naming_it(tmp_path):
    db = gpuseq.makedb(TUTORIAL / "globins45.fa", tmp_path / "db.gsdb")
    for tformat in ("fasta", "embl"):
        with pytest.raises(gpuseq.InputError, match="is a gpuseq database, which has no format"):
            gpuseq.hmmsearch(TUTORIAL / "globins4.hmm", db, tformat=tformat)


def test_missing_files_with_a_format(tmp_path):
    for fmt in ("stockholm", "ncbi"):
        with pytest.raises(gpuseq.InputError) as err:
            gpuseq.hmmsearch(TUTORIAL / "globins4.hmm", tmp_path / "absent", tformat=fmt)
        assert err.value.path == str(tmp_path / "absent")


def test_empty_alignment_file(tmp_path):
    path = tmp_path / "empty.sto"
    path.write_text("# STOCKHOLM 1.0\n//\n")
    with pytest.raises(gpuseq.FormatError) as err:
        gpuseq.hmmsearch(TUTORIAL / "globins4.hmm", path)
    assert err.value.path == str(path)


def test_bad_model_on_standard_input():
    out = gpuseq_cli("hmmsearch", "-", TUTORIAL / "globins45.fa", stdin=b"HMMER3/f junk\n",
                     check=False)
    # (a CUDA build without a GPU prints its CPU-fallback notice first)
    assert out.returncode == 1 and b"\nError: -:" in b"\n" + out.stderr


def test_makedb_keeps_accessions_of_embl_targets(records, tmp_path):
    path = write_embl(tmp_path / "targets.dat", records)
    db = gpuseq.makedb(path, tmp_path / "t.gsdb")
    opened = gpuseq.open_database(db)
    assert [opened.accession(i) for i in range(3)] == [r[1] for r in records[:3]]
    assert gpuseq_tbl(TUTORIAL / "globins4.hmm", db) == gpuseq_tbl(TUTORIAL / "globins4.hmm", path)


# ---- pyhmmer imported from several threads ------------------------------------------------------


_THREADS_IMPORTING_PYHMMER = """
import sys, threading
from gpuseq.hmm import iter_hmms
from gpuseq.sequences import iter_sequence_chunks
tutorial, n = sys.argv[1], 8
start = threading.Barrier(n)
errors = []
def work(i):
    start.wait()
    try:
        if i % 2:
            list(iter_hmms(f"{tutorial}/globins4.hmm"))
        else:
            list(iter_sequence_chunks(f"{tutorial}/globins4.sto", format="stockholm")[2])
    except BaseException as exc:
        errors.append(repr(exc))
threads = [threading.Thread(target=work, args=(i,)) for i in range(n)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(errors)
"""


def test_models_and_easel_targets_read_on_threads_of_a_new_process():
    """A search reads its models on one thread and its targets on another; both first import
    pyhmmer there. Two threads importing pyhmmer at once failed one import (a _DeadlockError,
    then KeyError: 'pyhmmer' in the other; on an H200 host, three of five Stockholm searches
    on a pipe). Eight threads at a barrier in fresh interpreters, ten times: on the code
    before the fix, about two runs in five failed on the 2-core build host."""
    for _ in range(10):
        out = subprocess.run(
            [sys.executable, "-c", _THREADS_IMPORTING_PYHMMER, str(TUTORIAL)],
            capture_output=True, text=True, check=True,
        )
        assert out.stdout.strip() == "[]", out.stdout
