"""Fuzzing the input readers with Hypothesis on byte strings: no crash, hang or silent wrong
result on any input.

References: pyhmmer's SequenceFile (Easel, hmmsearch's reader) for FASTA, pyhmmer's HMMFile and
hmmsearch for models, NumPy's own reader, bed-reader and cyvcf2 for genotypes. Every test is
derandomized with a fixed example budget so that CI runs the same inputs each time (a few
seconds a test)."""

from __future__ import annotations

import io
import os
import subprocess
import tempfile

import numpy as np
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pyhmmer.easel import Alphabet, SequenceFile

import gpuseq
from conftest import HMMER_EXAMPLES
from gpuseq import _core
from synthetic import require_tool
from test_hmmsearch import rows, same_rows

FUZZ = settings(
    derandomize=True,
    max_examples=int(os.environ.get("GPUSEQ_FUZZ_EXAMPLES", "1000")),
    deadline=None,  # time is bounded by the example count; a hang fails the CI job's timeout
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def _write(data: bytes, suffix: str) -> str:
    fd, path = tempfile.mkstemp(suffix=suffix, prefix="gpuseq-fuzz-")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    return path


# ---- FASTA ----------------------------------------------------------------------------------

# Pieces that reach every branch of the reader: headers, line ends, blanks, residues, gaps and
# the characters Easel accepts, ignores or rejects, a NUL and bytes that are not UTF-8.
FASTA_PIECES = [b">", b">", b"\n", b"\n", b"\r\n", b"\r", b" ", b"\t", b"\x0b", b"\x0c",
                b"ACDEFGHIKLMNPQRSTVWY", b"acgt", b"XBZJUO", b"*", b"~", b"-", b".", b"_",
                b"1", b"@", b"\x00", b"\xff", b"\xc3\xa9", b"\x80", b"name", b"desc ription"]
fasta_bytes = st.one_of(
    st.lists(st.sampled_from(FASTA_PIECES), max_size=40).map(b"".join),
    st.lists(st.sampled_from(FASTA_PIECES), max_size=40).map(lambda p: b">" + b"".join(p)),
    st.binary(max_size=200),
)


def easel_records(path: str):
    """Easel's records as (name bytes, description bytes, codes), or the exception it raises.
    Names are read from Easel's own FASTA writer: pyhmmer decodes them as strict UTF-8."""
    try:
        with SequenceFile(path, digital=True, alphabet=Alphabet.amino(), format="fasta") as f:
            out = []
            for seq in f:
                buf = io.BytesIO()
                seq.write(buf)
                header = buf.getvalue().split(b"\n", 1)[0][1:]
                name, _, desc = header.partition(b" ")
                out.append((name, desc, np.asarray(seq.sequence, dtype=np.uint8)))
            return out
    except (ValueError, EOFError) as exc:
        return exc


def our_records(path: str, threads: int, block_bytes: int):
    try:
        parts = []
        reader = _core.FastaReader(path, threads)
        while (chunk := reader.read_chunk(path, block_bytes)) is not None:
            parts.append(gpuseq.SequenceDatabase._from_core(chunk, path))
    except gpuseq.FormatError as exc:  # AlphabetError, EmptyInputError included
        return exc
    return [
        (db.name(i).encode("utf-8", "surrogateescape"),
         db.description(i).encode("utf-8", "surrogateescape"), np.asarray(db.codes(i)))
        for db in parts for i in range(len(db))
    ]


@FUZZ
@given(data=fasta_bytes)
def test_fasta_reader_equals_easel_on_any_bytes(data):
    path = _write(data, ".fa")
    try:
        ref = easel_records(path)
        # (Block and thread splits start at 64 KB and 1 MB: test_fasta.py covers them.)
        ours = our_records(path, threads=1, block_bytes=64 << 20)
        if isinstance(ref, Exception):
            assert isinstance(ours, Exception), (data, ref, ours)
            assert str(path) in str(ours)
        elif isinstance(ours, Exception):
            # Easel reads no record from blank text; we call that an empty input.
            assert ref == [] and "empty" in str(ours), (data, ours)
        else:
            assert len(ours) == len(ref), (data, ours, ref)
            for (n1, d1, s1), (n2, d2, s2) in zip(ours, ref):
                assert (n1, d1) == (n2, d2), data
                np.testing.assert_array_equal(s1, s2, err_msg=repr(data))
    finally:
        os.unlink(path)


@FUZZ
@given(data=fasta_bytes)
@example(data=b"\x1f\x8b")  # (a gzip stream that ends early; drawn in one CI-like run)
def test_read_fasta_raises_only_typed_errors(data):
    path = _write(data, ".fa")
    try:
        db = gpuseq.read_fasta(path)
        assert db.total_residues == int(np.asarray(db.offsets)[-1])
    except (gpuseq.FormatError, gpuseq.InputError):  # (InputError: b"\x1f\x8b", a gzip
        pass                                           # stream that ends early: a read error)
    finally:
        os.unlink(path)


# ---- HMM files ------------------------------------------------------------------------------

GLOBINS_HMM = (HMMER_EXAMPLES / "tutorial" / "globins4.hmm").read_bytes()
TARGETS = HMMER_EXAMPLES / "tutorial" / "globins45.fa"
HMMSEARCH = require_tool("hmmsearch")


@st.composite
def mutated_hmm(draw):
    """globins4.hmm with a few bytes replaced, inserted or deleted."""
    data = bytearray(GLOBINS_HMM)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data) - 1))
        what = draw(st.sampled_from(["replace", "insert", "delete"]))
        piece = draw(st.sampled_from([b"\xff", b"\x00", b"-", b"*", b"9", b"0.5", b" ", b"\n",
                                      b"e", b"nan", b"inf", b"1e9", b"//\n"]))
        if what == "replace":
            data[at : at + len(piece)] = piece
        elif what == "insert":
            data[at:at] = piece
        else:
            del data[at : at + draw(st.integers(1, 40))]
    return bytes(data)


def _hmmsearch_rows(path: str):
    """Debian's hmmsearch on the file: tblout rows, or None when it rejects (or crashes on)
    the model. It runs in its own process: HMMER's parser crashes on some damaged files."""
    with tempfile.TemporaryDirectory(prefix="gpuseq-fuzz-") as tmp:
        tbl = os.path.join(tmp, "ref.tbl")
        proc = subprocess.run([HMMSEARCH, "--cpu", "0", "--tblout", tbl, "-o", os.devnull,
                               path, str(TARGETS)], capture_output=True, timeout=60)
        if proc.returncode != 0:
            return None
        with open(tbl, "rb") as f:
            return rows(f.read().decode("utf-8", "surrogateescape"))


@settings(FUZZ, max_examples=max(1, FUZZ.max_examples // 2))
@given(data=mutated_hmm())
def test_hmm_input_gives_hmmsearchs_hits_or_a_typed_error(data):
    path = _write(data, ".hmm")
    try:
        ref = _hmmsearch_rows(path)
        try:
            res = gpuseq.hmmsearch(path, TARGETS, cpus=1)
        except gpuseq.errors.GpuseqError as exc:
            # Typed, and hmmsearch rejects the file too, or we refuse a model on grounds of
            # our own (no STATS lines, a nucleotide model, a name that is not UTF-8), or the
            # file holds no model (hmmsearch silently stops reading at a NUL byte).
            assert (ref is None or isinstance(exc, gpuseq.errors.HmmFormatError)
                    or (ref == [] and isinstance(exc, gpuseq.errors.EmptyInputError))), exc
            return
        assert ref is not None, "hmmsearch rejects this model file, we searched with it"
        buf = io.StringIO()
        res.write_tblout(buf)
        assert same_rows(rows(buf.getvalue()), ref)
    finally:
        os.unlink(path)


# ---- genotypes ------------------------------------------------------------------------------



@FUZZ
@given(data=st.one_of(
    st.binary(max_size=300),
    st.builds(lambda head, tail: head + tail,
              st.sampled_from([b"\x93NUMPY\x01\x00", b"\x93NUMPY\x02\x00"]),
              st.binary(max_size=200)),
))
def test_npy_genotypes_equal_numpy_or_a_typed_error(data):
    path = _write(data, ".npy")
    try:
        try:
            ref = np.load(path, allow_pickle=False)
        except Exception:  # noqa: BLE001 - NumPy cannot read it: neither may we
            ref = None
        try:
            ours = gpuseq.read_genotypes(path)
        except gpuseq.errors.GpuseqError:
            return
        assert ref is not None
        np.testing.assert_array_equal(ours, ref)
    finally:
        os.unlink(path)


def decode_plink_bed(data: bytes, samples: int, variants: int):
    """PLINK 1 .bed (variant-major) decoded by the format's definition, independent of
    bed-reader: 2 bits per call, first sample in the low bits; 00 = two copies of allele 1,
    01 = missing, 10 = one copy, 11 = none. None for a file PLINK would reject."""
    per_variant = (samples + 3) // 4
    if data[:3] != b"\x6c\x1b\x01" or len(data) != 3 + per_variant * variants:
        return None
    codes = np.frombuffer(data[3:], np.uint8).reshape(variants, per_variant)
    calls = (codes[:, :, None] >> np.array([0, 2, 4, 6], np.uint8)) & 3
    calls = calls.reshape(variants, -1)[:, :samples]
    return np.array([2, -1, 1, 0], np.int8)[calls].T


@FUZZ
@given(samples=st.integers(1, 9), variants=st.integers(1, 5), data=st.data())
def test_plink_bed_equals_the_format_definition_or_a_typed_error(samples, variants, data):
    size = 3 + (samples + 3) // 4 * variants
    body = data.draw(st.one_of(
        st.binary(min_size=size - 3, max_size=size - 3).map(lambda b: b"\x6c\x1b\x01" + b),
        st.binary(max_size=size + 4),
    ))
    folder = tempfile.mkdtemp(prefix="gpuseq-fuzz-")
    try:
        base = os.path.join(folder, "g")
        with open(base + ".fam", "w") as f:
            f.writelines(f"f{i} i{i} 0 0 0 -9\n" for i in range(samples))
        with open(base + ".bim", "w") as f:
            f.writelines(f"1 s{j} 0 {j + 1} A C\n" for j in range(variants))
        with open(base + ".bed", "wb") as f:
            f.write(body)
        expected = decode_plink_bed(body, samples, variants)
        try:
            ours = gpuseq.read_genotypes(base + ".bed")
        except gpuseq.errors.FormatError:
            assert expected is None, body
            return
        assert expected is not None, body
        np.testing.assert_array_equal(ours, expected)
    finally:
        for name in os.listdir(folder):
            os.unlink(os.path.join(folder, name))
        os.rmdir(folder)


VCF_TEXT = (
    b"##fileformat=VCFv4.2\n##contig=<ID=7>\n"
    b'##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">\n'
    b"#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\ts1\ts2\ts3\n"
    b"7\t10\t.\tA\tC\t.\tPASS\t.\tGT\t0/0\t0|1\t1/1\n"
    b"7\t20\t.\tG\tT,A\t.\tPASS\t.\tGT\t./.\t1/2\t0\n"
    b"7\t30\t.\tC\tG\t.\tPASS\t.\tGT\t./1\t1|1\t0/1\n"
)


@st.composite
def mutated_vcf(draw):
    data = bytearray(VCF_TEXT)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data) - 1))
        piece = draw(st.sampled_from([b"\xff", b"\x00", b"\t", b"\n", b"/", b"|", b".", b"9",
                                      b"-1", b"#", b"GT", b"1/1/1", b""]))
        data[at : at + draw(st.integers(0, 6))] = piece
    return bytes(data)


# Each read starts a child process (distance._read_vcf): fewer examples, same seconds.
@settings(FUZZ, max_examples=max(1, FUZZ.max_examples // 12))
@given(data=mutated_vcf())
def test_vcf_gives_calls_or_a_typed_error(data):
    """htslib is the parser; the property is ours: a typed error or a samples x records matrix
    of allele counts (-1 missing), never a crash or an untyped exception."""
    path = _write(data, ".vcf")
    try:
        try:
            ours = gpuseq.read_genotypes(path)
        except gpuseq.errors.FormatError as exc:
            assert path in str(exc)
            return
        assert ours.ndim == 2 and ours.dtype == np.int8 and ours.shape[0] >= 1
        assert (ours >= -1).all()
    finally:
        os.unlink(path)
