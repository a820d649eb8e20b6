"""The native FASTA reader (cpp/common/fasta.cpp) reads exactly what Easel reads.

Reference: pyhmmer's SequenceFile (Easel 0.49, the reader hmmsearch uses): names,
descriptions and digital codes of every record, and the same files rejected at the same line."""

from __future__ import annotations

import gzip
import re

import numpy as np
import pytest
from pyhmmer.easel import Alphabet, SequenceFile

import gpuseq
from conftest import HMMER_EXAMPLES, pyhmmer_data
from gpuseq import _core
from synthetic import random_proteins


def easel_read(path):
    with SequenceFile(str(path), digital=True, alphabet=Alphabet.amino(), format="fasta") as f:
        return [(s.name, s.description, np.asarray(s.sequence, dtype=np.uint8)) for s in f]


def ours_read(path, threads=2, block_bytes=64 << 20):
    reader = _core.FastaReader(str(path), threads)
    out = []
    while (chunk := reader.read_chunk(str(path), block_bytes)) is not None:
        db = gpuseq.SequenceDatabase._from_core(chunk, str(path))
        out += [(db.name(i), db.description(i), np.asarray(db.codes(i))) for i in range(len(db))]
    return out


def assert_same_records(ours, ref):
    assert len(ours) == len(ref)
    for (n1, d1, s1), (n2, d2, s2) in zip(ours, ref):
        n2 = n2.decode() if isinstance(n2, bytes) else n2
        d2 = d2.decode() if isinstance(d2, bytes) else d2
        assert (n1, d1) == (n2, d2)
        np.testing.assert_array_equal(s1, s2, err_msg=n1)


def real_fasta_files():
    files = [HMMER_EXAMPLES / "tutorial" / "globins45.fa"]
    data = pyhmmer_data() / "seqs"
    files += [data / "938293.PRJEB85.HG003687.faa", data / "LuxC.faa", data / "PKSI.faa"]
    return files


@pytest.mark.parametrize("path", real_fasta_files(), ids=lambda p: p.name)
def test_real_files_read_like_easel(path):
    assert_same_records(ours_read(path), easel_read(path))


def test_tricky_text_reads_like_easel(tmp_path):
    """Header and sequence rules probed on Easel: blanks, CR, '>' inside sequence text,
    lower case, '.', '_', '*', '~', empty records, no final newline."""
    text = (
        "\n\n  >s1 desc here  \nACDE\nFGH\n>s2\n\n>s3   spaced\tdesc\r\nAC DE\tF\r\n"
        ">>odd name\nacdxbjzou*\n>s5 a\rb\nAC>DE\n>s7\nAC.D_E~F*\n>last d\nMK"
    )
    path = tmp_path / "tricky.fa"
    path.write_text(text)
    assert_same_records(ours_read(path), easel_read(path))


def test_control_characters_in_headers_read_like_easel(tmp_path):
    """Found by tests/test_fuzz.py: Easel skips any isspace() (VT and FF too) before a record
    and ends a name at one; a description ends at ctrl-A; a NUL ends a name or description
    (C strings). Compared byte for byte through Easel's own FASTA writer."""
    from test_fuzz import easel_records, our_records

    text = (b"\x0b\x0c\n>a\x0bd1 x\nAC\n>b\x0c\nDE\n>c d\x01rest of line\nFG\n>e \x01\nHI\n"
            b">f\x00g h\x00i\nKL\n>\x00j\nMN\n>k\x01 l\nPQ\n")
    path = tmp_path / "controls.fa"
    path.write_bytes(text)
    ref = easel_records(str(path))
    ours = our_records(str(path), threads=1, block_bytes=1 << 20)
    assert [r[:2] for r in ours] == [r[:2] for r in ref]
    assert [r[:2] for r in ref][:3] == [(b"a", b"\x0bd1 x"), (b"b", b"\x0c"), (b"c", b"d")]
    for (_, _, s1), (_, _, s2) in zip(ours, ref):
        np.testing.assert_array_equal(s1, s2)
    for text in (b">\x0b\nAC\n", b">\x0c x\nAC\n"):  # no name: both reject
        path.write_bytes(text)
        assert isinstance(easel_records(str(path)), ValueError)
        with pytest.raises(gpuseq.FormatError, match="no sequence name"):
            gpuseq.read_fasta(path)


def test_gzip_and_plain_give_the_same_records(tmp_path):
    src = pyhmmer_data() / "seqs" / "938293.PRJEB85.HG003687.faa"
    gz = tmp_path / "db.faa.gz"
    with open(src, "rb") as f, gzip.open(gz, "wb") as g:
        g.write(f.read())
    assert_same_records(ours_read(gz), easel_read(src))


@pytest.mark.parametrize("block_bytes", [1 << 16, 100_000, 1 << 20])
@pytest.mark.parametrize("threads", [1, 2, 7])
def test_blocks_and_threads_do_not_change_records(tmp_path, block_bytes, threads):
    """Records cut at every block and piece boundary come out whole and in order."""
    rng = np.random.default_rng(3)
    seqs = random_proteins(rng, 3000, mean_length=400)
    seqs[10] = random_proteins(rng, 1, 150_000, 150_000, 150_000)[0]  # longer than a block
    path = tmp_path / "many.fa"
    with open(path, "w") as f:
        for i, s in enumerate(seqs):
            f.write(f">seq{i} description {i}\n")
            for j in range(0, len(s), 61):
                f.write(s[j : j + 61] + "\n")
    ours = ours_read(path, threads, block_bytes)
    assert_same_records(ours, easel_read(path))


def test_one_reader_shared_by_threads(tmp_path):
    """read_chunk releases the GIL; the binding serializes calls, so threads sharing one
    reader get whole, distinct records that together are the file's (checked against Easel)."""
    import threading

    rng = np.random.default_rng(11)
    path = tmp_path / "shared.fa"
    with open(path, "w") as f:
        for i, s in enumerate(random_proteins(rng, 20000, mean_length=100)):
            f.write(f">seq{i} d{i}\n{s}\n")
    reader = _core.FastaReader(str(path), 2)
    got: list[list] = [[] for _ in range(4)]
    errors = []

    def drain(k):
        try:
            while (chunk := reader.read_chunk(str(path), 1 << 14)) is not None:
                db = gpuseq.SequenceDatabase._from_core(chunk, str(path))
                got[k] += [(db.name(i), db.description(i), np.asarray(db.codes(i)))
                           for i in range(len(db))]
        except Exception as exc:  # reported below: a thread's exception is otherwise lost
            errors.append(exc)

    threads = [threading.Thread(target=drain, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert sum(bool(g) for g in got) >= 2, "the threads should have shared the chunks"
    ours = sorted(sum(got, []), key=lambda r: int(r[0][3:]))
    assert_same_records(ours, easel_read(path))


BAD_FILES = {
    "no_header": b"ACDE\n>s1\nAC\n",
    "digit": b">s1\nAC\n>s2\nAC\n\nAC1D\n",
    "dash": b">s1\nAC-D\n",
    "empty_name": b">s1\nAC\n>\nAC\n",
    "vertical_tab": b">s1\nAC\x0bD\n",
    "non_ascii": b">s1\nA\xc3C\n",
    "only_gt": b">s1\nAC\n>",
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_malformed_files_fail_at_easels_line(tmp_path, name):
    path = tmp_path / f"{name}.fa"
    path.write_bytes(BAD_FILES[name])
    with pytest.raises(ValueError) as easel_error:
        easel_read(path)
    easel_line = int(re.search(r"Line (\d+)", str(easel_error.value)).group(1))
    with pytest.raises(gpuseq.FormatError) as ours:
        ours_read(path)
    assert ours.value.line == easel_line
    assert ours.value.path == str(path)
    assert str(path) in str(ours.value)


def test_alphabet_errors_name_the_record_and_character(tmp_path):
    path = tmp_path / "bad.fa"
    path.write_text(">good\nACDE\n>bad_one some words\nACDE\nAC1DE\n")
    with pytest.raises(gpuseq.AlphabetError) as err:
        gpuseq.read_fasta(path)
    assert err.value.record == "bad_one"
    assert err.value.line == 5
    assert "'1'" in str(err.value)


def test_names_are_bytes_in_errors(tmp_path):
    """A name that is not UTF-8 (any byte is legal in FASTA) is named in the typed error,
    decoded losslessly (surrogateescape), not a UnicodeDecodeError from the reader."""
    path = tmp_path / "bad.fa"
    path.write_bytes(b">MYG_EM\xffW0 d\xe9sc\nMVLSEGEW\nQLV1LHV\n")
    with pytest.raises(ValueError, match="illegal character"):
        easel_read(path)  # hmmsearch rejects it too
    for threads in (1, 2):
        with pytest.raises(gpuseq.AlphabetError) as err:
            ours_read(path, threads=threads)
        assert err.value.record.encode("utf-8", "surrogateescape") == b"MYG_EM\xffW0"
        assert err.value.line == 3 and "'1'" in str(err.value)
    # Without the bad character the record reads, its name and description byte for byte.
    path.write_bytes(b">MYG_EM\xffW0 d\xe9sc\nMVLSEGEW\n")
    db = gpuseq.read_fasta(path)
    assert db.name(0).encode("utf-8", "surrogateescape") == b"MYG_EM\xffW0"
    assert db.description(0).encode("utf-8", "surrogateescape") == b"d\xe9sc"


def test_empty_and_blank_files(tmp_path):
    for content in (b"", b"\n \n\t\n"):
        path = tmp_path / "empty.fa"
        path.write_bytes(content)
        with pytest.raises(gpuseq.FormatError, match="empty"):
            gpuseq.read_fasta(path)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(gpuseq.InputError, match="no such file"):
        gpuseq.read_fasta(tmp_path / "missing.fa")
    with pytest.raises(gpuseq.InputError, match="directory"):
        gpuseq.read_fasta(tmp_path)


def test_other_formats_get_a_hint(tmp_path):
    path = tmp_path / "uniprot.txt"
    path.write_text("ID   7LESS_DROME   Reviewed;  2554 AA.\nAC   P13368;\n")
    with pytest.raises(gpuseq.FormatError, match="EMBL/UniProt"):
        gpuseq.read_fasta(path)
