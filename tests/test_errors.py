"""Bad input gets a typed exception naming the file, the record or line, and the problem; inputs
HMMER accepts (empty sequences, 100,000 residues) are handled exactly as hmmsearch does."""

from __future__ import annotations

import os
import subprocess
import sys
from functools import partial

import numpy as np
import pytest

import gpuseq
from conftest import HMMER_EXAMPLES
from synthetic import random_protein, require_tool, write_fasta

GLOBINS = HMMER_EXAMPLES / "tutorial" / "globins4.hmm"
GLOBIN_SEQS = HMMER_EXAMPLES / "tutorial" / "globins45.fa"


# ---- HMM files ------------------------------------------------------------------------------


def test_truncated_hmm_file(tmp_path):
    path = tmp_path / "truncated.hmm"
    path.write_text(GLOBINS.read_text()[:2000])
    with pytest.raises(gpuseq.HmmFormatError) as err:
        gpuseq.hmmsearch(path, GLOBIN_SEQS)
    assert err.value.path == str(path)
    assert "node" in str(err.value)


def test_hmm_file_with_a_wrong_node_count(tmp_path):
    path = tmp_path / "badleng.hmm"
    path.write_text(GLOBINS.read_text().replace("LENG  149", "LENG  150"))
    with pytest.raises(gpuseq.HmmFormatError, match="150"):
        gpuseq.hmmsearch(path, GLOBIN_SEQS)


def test_not_an_hmm_file(tmp_path):
    path = tmp_path / "junk.hmm"
    path.write_text("hello\n")
    with pytest.raises(gpuseq.HmmFormatError, match="junk.hmm"):
        gpuseq.hmmsearch(path, GLOBIN_SEQS)


def test_hmm_file_with_zero_models(tmp_path):
    path = tmp_path / "empty.hmm"
    path.write_text("")
    with pytest.raises(gpuseq.EmptyInputError, match="empty.hmm"):
        gpuseq.hmmsearch(path, GLOBIN_SEQS)
    with pytest.raises(gpuseq.EmptyInputError):
        gpuseq.hmmsearch([], GLOBIN_SEQS)


def test_uncalibrated_model_is_rejected_with_its_name(tmp_path):
    path = tmp_path / "nostats.hmm"
    path.write_text(
        "".join(
            line
            for line in GLOBINS.read_text().splitlines(keepends=True)
            if not line.startswith("STATS")
        )
    )
    with pytest.raises(gpuseq.HmmFormatError, match="STATS") as err:
        gpuseq.hmmsearch(path, GLOBIN_SEQS)
    assert err.value.record == "globins4"


def test_nucleotide_model_is_rejected():
    with pytest.raises(gpuseq.HmmFormatError, match="nucleotide"):
        gpuseq.hmmsearch(HMMER_EXAMPLES / "testsuite" / "ecori.hmm", GLOBIN_SEQS)


def test_a_file_of_protein_and_nucleotide_models_is_refused_at_the_first_that_differs(tmp_path):
    """hmmsearch searches globins4, then stops: 'contains different alphabets'. So do we,
    naming the model by its place and the one before it."""
    path = tmp_path / "mixed.hmm"
    path.write_text(GLOBINS.read_text() + (HMMER_EXAMPLES / "tutorial" / "MADE1.hmm").read_text())
    ref = subprocess.run([require_tool("hmmsearch"), path, GLOBIN_SEQS], capture_output=True,
                         text=True)  # fmt: skip
    assert ref.returncode != 0 and "different alphabets" in ref.stderr
    assert "Query:       globins4" in ref.stdout
    with pytest.raises(gpuseq.HmmFormatError, match="model 2 \\(after 'globins4'\\): its "
                       "alphabet is not the earlier models'"):  # fmt: skip
        gpuseq.hmmsearch(path, GLOBIN_SEQS)


@pytest.mark.parametrize("change, message", [
    (("ALPH  amino\n", ""), "no ALPH line"),       # HMMER's parser segfaults on it
    (("2 | April 2018]\nNAME  globins4\nLENG  149", "\0" "9"),  # and on this
     "no NAME, LENG lines"),
    (("HMMER3/f", " HMMER3/f", "ALPH  amino\n", ""), "no ALPH line"),  # leading blank
    (("0.48576  0.95510\n     12", "0.48576 nan95510\n     12"), "NaN"),  # "score is NaN"
    (("CONS  yes", "CONS  no"), "no consensus"),    # hmmsearch aborts in p7_ProfileConfig
    (("LENG  149", "LENG  14\0" "9"), "line 3: holds a NUL byte"),  # segfaults (fuzzing)
])
def test_models_hmmsearch_crashes_on_are_rejected(tmp_path, change, message):
    """Found by tests/test_fuzz.py: hmmsearch itself dies on these files (segfault or abort);
    we raise a typed error."""
    text = GLOBINS.read_text()
    for old, new in zip(change[::2], change[1::2]):
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path / "bad.hmm"
    path.write_text(text)
    ref = subprocess.run([require_tool("hmmsearch"), path, GLOBIN_SEQS], capture_output=True)
    assert ref.returncode != 0
    with pytest.raises(gpuseq.HmmFormatError, match=message):
        gpuseq.hmmsearch(path, GLOBIN_SEQS)


def test_a_consensus_byte_that_is_not_ascii_is_refused_with_the_models_name(tmp_path):
    """hmmsearch prints such a byte in its alignments; pyhmmer, which writes ours, cannot
    decode it (found by fuzzing on an H200: UnicodeDecodeError escaped)."""
    text = GLOBINS.read_bytes()
    old = b"4.57236    126 s - - -"
    assert old in text
    path = tmp_path / "ff.hmm"
    path.write_bytes(text.replace(old, b"4.57236    126 \xff - - -"))
    ref = subprocess.run([require_tool("hmmsearch"), path, GLOBIN_SEQS], capture_output=True)
    assert ref.returncode == 0 and b"\xff" in ref.stdout
    with pytest.raises(gpuseq.HmmFormatError, match="not ASCII in a node's consensus") as err:
        gpuseq.hmmsearch(path, GLOBIN_SEQS)
    assert err.value.record == "globins4" and err.value.path == str(path)


def test_missing_files(tmp_path):
    with pytest.raises(gpuseq.InputError, match="missing.hmm"):
        gpuseq.hmmsearch(tmp_path / "missing.hmm", GLOBIN_SEQS)
    with pytest.raises(gpuseq.InputError, match="missing.fa"):
        gpuseq.hmmsearch(GLOBINS, tmp_path / "missing.fa")


def test_models_on_standard_input_stopped_early_end_cleanly():
    """A search that stops after the first of the models piped in (here: a cutoff it lacks)
    closes the model reader once. It closed it twice, and pyhmmer's HMMFile on a stream
    then aborted the process ("free(): double free detected"); found by the random
    commands (session 70)."""
    models = (GLOBINS.read_bytes() + (HMMER_EXAMPLES / "tutorial" / "fn3.hmm").read_bytes())
    for flag in ("--cut_ga", "--cut_tc", "--cut_nc"):
        run = subprocess.run([sys.executable, "-m", "gpuseq.cli", "hmmsearch", flag,
                              "--backend", "cpu", "-", str(GLOBIN_SEQS)],
                             input=models, capture_output=True)  # fmt: skip
        assert run.returncode == 1, run.stderr
        assert b"'globins4': has no" in run.stderr and b"bit score thresholds" in run.stderr


def test_cutoffs_missing_from_model():
    with pytest.raises(gpuseq.HmmFormatError, match="GA"):
        gpuseq.hmmsearch(GLOBINS, GLOBIN_SEQS, bit_cutoffs="gathering")


# ---- sequences ------------------------------------------------------------------------------


def test_unknown_letter_names_file_line_and_record(tmp_path):
    path = tmp_path / "bad.fa"
    path.write_text(">ok\nMKV\n>broken desc\nMKVL\nMK2VL\n")
    with pytest.raises(gpuseq.AlphabetError) as err:
        gpuseq.hmmsearch(GLOBINS, path)
    assert (err.value.path, err.value.line, err.value.record) == (str(path), 5, "broken")


def test_no_header(tmp_path):
    path = tmp_path / "noheader.fa"
    path.write_text("MKVLAAGIVG\n")
    with pytest.raises(gpuseq.FormatError, match="line 1") as err:
        gpuseq.hmmsearch(GLOBINS, path)
    assert err.value.line == 1


def test_empty_sequence_file(tmp_path):
    path = tmp_path / "empty.fa"
    path.write_text("")
    with pytest.raises(gpuseq.FormatError, match="empty"):
        gpuseq.hmmsearch(GLOBINS, path)


def test_a_truncated_gzip_file_is_an_error_not_a_smaller_database(tmp_path):
    """zlib ends a gzip stream cut short as if it were whole (hmmsearch, through gzip -dc,
    searches the part and leaves gzip's warning on stderr): ours is an InputError naming the
    file, wherever the cut falls, for every reader of the native FASTA path."""
    import gzip

    whole = gzip.compress(GLOBIN_SEQS.read_bytes())
    for cut in (len(whole) // 3, len(whole) - 9, len(whole) - 1):  # deflate data, trailer
        path = tmp_path / f"cut{cut}.fa.gz"
        path.write_bytes(whole[:cut])
        readers = (partial(gpuseq.hmmsearch, GLOBINS, path, backend="cpu"),
                   partial(gpuseq.read_fasta, path),
                   partial(gpuseq.blastp, GLOBIN_SEQS, path, backend="cpu"))  # fmt: skip
        for read in readers:
            with pytest.raises(gpuseq.InputError, match="gzip stream ends early") as err:
                read()
            assert err.value.path == str(path)
        piped = subprocess.run([sys.executable, "-m", "gpuseq.cli", "hmmsearch", GLOBINS, "-"],
                               input=whole[:cut], capture_output=True)  # fmt: skip
        assert piped.returncode == 1
        assert b"-: read error: the gzip stream ends early" in piped.stderr
    # Whole streams, one member or several (as bgzip writes them), are the plain file.
    text = GLOBIN_SEQS.read_bytes()
    members = tmp_path / "members.fa.gz"
    members.write_bytes(gzip.compress(text[:3000]) + gzip.compress(text[3000:]))
    read, plain = gpuseq.read_fasta(members), gpuseq.read_fasta(GLOBIN_SEQS)
    assert len(read) == len(plain) == 45
    assert [read.sequence(i) for i in range(45)] == [plain.sequence(i) for i in range(45)]


def test_bad_records_in_python_input():
    with pytest.raises(gpuseq.AlphabetError) as err:
        gpuseq.hmmsearch(GLOBINS, [("fine", "MKV"), ("bad", "MK V9")])
    assert err.value.record == "bad"
    with pytest.raises(gpuseq.FormatError, match="record 2"):
        gpuseq.hmmsearch(GLOBINS, [("fine", "MKV"), 42])
    with pytest.raises(gpuseq.FormatError, match="no name"):
        gpuseq.hmmsearch(GLOBINS, [("", "MKV")])
    with pytest.raises(gpuseq.EmptyInputError):
        gpuseq.hmmsearch(GLOBINS, [])


def test_zero_length_sequences_count_as_targets_like_hmmsearch(tmp_path):
    """HMMER counts empty targets in nseqs and Z but never filters them."""
    records = [
        ("empty1", ""),
        (
            "globin",
            "VLSPADKTNVKAAWGKVGAHAGEYGAEALERMFLSFPTTKTYFPHFDLSH"
            "GSAQVKGHGKKVADALTNAVAHVDDMPNALSALSDLHAHKLRVDPVNFK",
        ),
        ("empty2", ""),
    ]
    path = write_fasta(tmp_path / "with_empty.fa", records)
    res = gpuseq.hmmsearch(GLOBINS, path)
    p = res.pipeline.iloc[0]
    assert (p.nseqs, p.Z) == (3, 3)
    text = subprocess.run(
        [require_tool("hmmsearch"), "--cpu", "0", str(GLOBINS), str(path)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert "Target sequences:                          3" in text
    assert list(res.hits.target_name) == ["globin"]


def test_length_limit_is_hmmers(tmp_path):
    """100,000 residues is allowed (hmmsearch too); 100,001 raises naming the record, where
    hmmsearch aborts."""
    rng = np.random.default_rng(5)
    ok = write_fasta(tmp_path / "ok.fa", [("long", random_protein(rng, 100000))])
    res = gpuseq.hmmsearch(GLOBINS, ok)
    assert res.pipeline.iloc[0].nres == 100000
    ref = subprocess.run(
        [require_tool("hmmsearch"), "--cpu", "0", str(GLOBINS), str(ok)],
        capture_output=True,
        text=True,
    )
    assert ref.returncode == 0
    too_long = write_fasta(
        tmp_path / "too_long.fa", [("fine", "MKV"), ("huge", random_protein(rng, 100001))]
    )
    with pytest.raises(gpuseq.SequenceTooLongError) as err:
        gpuseq.hmmsearch(GLOBINS, too_long)
    assert (err.value.record, err.value.length) == ("huge", 100001)
    ref = subprocess.run(
        [require_tool("hmmsearch"), "--cpu", "0", str(GLOBINS), str(too_long)],
        capture_output=True,
        text=True,
    )
    assert ref.returncode != 0 and "100K" in ref.stdout + ref.stderr


# ---- options and databases ------------------------------------------------------------------


def test_options_of_the_wrong_type_are_type_errors_naming_them():
    """A string for a number failed a comparison with an obscure TypeError, and a truthy
    string for a flag (null2="no") or a bool for a number (E=True) was taken silently."""
    for kwargs, name in ((dict(E="1e-5"), "E"), (dict(E=None), "E"), (dict(T="5"), "T"),
                         (dict(F1="0.1"), "F1"), (dict(Z="5"), "Z"), (dict(domZ=True), "domZ"),
                         (dict(E=True), "E"), (dict(null2="no"), "null2"),
                         (dict(max="yes"), "max"), (dict(bias_filter=0), "bias_filter")):
        with pytest.raises(TypeError, match=f"^{name} must be"):
            gpuseq.HmmsearchOptions(**kwargs)
    # NumPy's scalars are numbers and flags like Python's.
    options = gpuseq.HmmsearchOptions(E=np.float32(1e-3), Z=np.int64(5), null2=np.bool_(False))
    assert options.null2 == False and options.Z == 5  # noqa: E712


def test_arguments_of_the_wrong_type_are_type_errors_naming_them():
    """The same for blastp's and the distances' arguments (gpuseq._checks): blastp took
    ungapped="no" for True and max_target_seqs=5.5 for 5, pairwise_distances took
    condensed="no" for True and tile=-1 for the default."""
    seqs = GLOBIN_SEQS
    for kwargs, name in ((dict(ungapped="no"), "ungapped"), (dict(evalue="1e-5"), "evalue"),
                         (dict(max_target_seqs=5.5), "max_target_seqs"), (dict(evalue=True),
                         "evalue"), (dict(dbsize="1000"), "dbsize"), (dict(xdrop_gap="x"),
                         "xdrop_gap")):  # fmt: skip
        with pytest.raises(TypeError, match=f"^{name} must be"):
            gpuseq.blastp(seqs, seqs, backend="cpu", **kwargs)
    X = np.random.default_rng(0).integers(0, 3, (10, 20))
    for kwargs, name in ((dict(condensed="no"), "condensed"), (dict(normalize="yes"),
                         "normalize"), (dict(tile=2.5), "tile"), (dict(alphabet_size=3.0),
                         "alphabet_size")):  # fmt: skip
        with pytest.raises(TypeError, match=f"^{name} must be"):
            gpuseq.pairwise_distances(X, backend="cpu", **kwargs)
    with pytest.raises(ValueError, match="tile must be 1 or more"):
        gpuseq.pairwise_distances(X, backend="cpu", tile=-1)
    with pytest.raises(TypeError, match="^k must be"):
        gpuseq.nearest_neighbors(X, 2.0, backend="cpu")
    # hmmsearch's own arguments: block_bytes 0 or below was the default, progress="no" drew
    # the bar, a callback that is not one failed after the first chunk.
    for kwargs, error in ((dict(block_bytes=0), ValueError), (dict(block_bytes=1.5), TypeError),
                          (dict(progress="no"), TypeError), (dict(callback=5), TypeError),
                          (dict(on_query=5), TypeError)):  # fmt: skip
        with pytest.raises(error, match=f"^{next(iter(kwargs))} must be"):
            gpuseq.hmmsearch(GLOBINS, GLOBIN_SEQS, backend="cpu", **kwargs)


def test_invalid_options():
    with pytest.raises(ValueError, match="max"):
        gpuseq.hmmsearch(GLOBINS, GLOBIN_SEQS, max=True, F1=0.1)
    with pytest.raises(ValueError, match="E must be > 0"):
        gpuseq.hmmsearch(GLOBINS, GLOBIN_SEQS, E=0)
    with pytest.raises(ValueError, match="backend"):
        gpuseq.hmmsearch(GLOBINS, GLOBIN_SEQS, backend="tpu")


def test_thread_counts_below_zero_are_refused_and_above_the_cores_are_the_cores(tmp_path):
    """One rule for every threads/--cpu/-num_threads value (backend.worker_threads): 0 is every
    core, a negative count is a ValueError naming the argument, and a count past the cores runs
    on the cores, as blastp reduces it (--cpu 2147483647 asked for 2**31 workspaces: a
    MemoryError from the core). The results are those of one thread."""
    cores = os.cpu_count() or 1
    assert gpuseq.backend.worker_threads(0) == cores
    assert gpuseq.backend.worker_threads(2**31 - 1) == cores
    assert gpuseq.backend.worker_threads(1) == 1
    for bad in (-1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="cpus must be an integer >= 0"):
            gpuseq.backend.worker_threads(bad, "cpus")
    X = np.random.default_rng(0).integers(0, 3, (20, 70))
    with pytest.raises(ValueError, match="cpus"):
        gpuseq.hmmsearch(GLOBINS, GLOBIN_SEQS, cpus=-1, backend="cpu")
    with pytest.raises(ValueError, match="threads"):
        gpuseq.pairwise_distances(X, threads=-1, backend="cpu")
    with pytest.raises(ValueError, match="threads"):
        gpuseq.read_fasta(GLOBIN_SEQS, threads=-1)
    with pytest.raises(ValueError, match="threads"):
        gpuseq.makedb(GLOBIN_SEQS, tmp_path / "x.gsdb", threads=-2)
    with pytest.raises(ValueError, match="-num_threads"):
        gpuseq.blastp(GLOBIN_SEQS, GLOBIN_SEQS, num_threads=-1, backend="cpu")

    one = gpuseq.hmmsearch(GLOBINS, GLOBIN_SEQS, cpus=1, backend="cpu").hits
    many = gpuseq.hmmsearch(GLOBINS, GLOBIN_SEQS, cpus=2**31 - 1, backend="cpu").hits
    assert one.equals(many) and len(one) == 45
    np.testing.assert_array_equal(gpuseq.pairwise_distances(X, threads=2**40, backend="cpu"),
                                  gpuseq.pairwise_distances(X, threads=1, backend="cpu"))
    query = tmp_path / "q.fa"
    query.write_text(">" + GLOBIN_SEQS.read_text().split(">")[1])  # the first globin
    one = gpuseq.blastp(query, GLOBIN_SEQS, num_threads=1, backend="cpu")
    assert one.equals(gpuseq.blastp(query, GLOBIN_SEQS, num_threads=2**31 - 1, backend="cpu"))
    assert len(one) > 10
    for command in (["makedb", "--cpu", "-1", GLOBIN_SEQS, tmp_path / "y.gsdb"],
                    ["distance", "--cpu", "-1", tmp_path / "X.npy", tmp_path / "D.npy"]):
        np.save(tmp_path / "X.npy", X.astype(np.int8))
        run = subprocess.run([sys.executable, "-m", "gpuseq.cli", *map(str, command)],
                             capture_output=True, text=True)  # fmt: skip
        assert run.returncode == 1 and "must be an integer >= 0" in run.stderr, run.stderr
        assert "Traceback" not in run.stderr


def test_makedb_refuses_to_overwrite_and_detects_damage(tmp_path):
    db = gpuseq.makedb(GLOBIN_SEQS, tmp_path / "g.gsdb")
    with pytest.raises(FileExistsError):
        gpuseq.makedb(GLOBIN_SEQS, db)
    (db / "offsets.npy").unlink()
    with pytest.raises(gpuseq.FormatError, match="offsets"):
        gpuseq.SequenceDatabase.open(db)


def _damaged(db, damage) -> None:
    """The database's file named by damage[0], changed by damage[1]."""
    import json

    name, change = damage
    path = db / name
    if name == "manifest.json":
        manifest = json.loads(path.read_text())
        result = change(manifest)
        if isinstance(result, bytes):
            path.write_bytes(result)
        else:
            path.write_text(json.dumps(manifest if result is None else result))
    elif change == "empty":
        path.write_bytes(b"")
    elif change == "folder":
        path.unlink()
        path.mkdir()
    elif change == "header":
        data = bytearray(path.read_bytes())
        data[data.index(b"'descr'") + 6] = ord("x")  # the header dict no longer parses
        path.write_bytes(bytes(data))
    else:
        array = np.load(path).copy()
        change(array)
        np.save(path, array)


def _swap(i, j):
    def change(a):
        a[i], a[j] = a[j], a[i]

    return change


@pytest.mark.parametrize(
    "damage, file, message",
    [
        (("offsets.npy", "empty"), "offsets.npy", "unreadable array"),
        (("names.npy", "header"), "names.npy", "unreadable array"),
        (("residues.npy", "folder"), "residues.npy", "unreadable array"),
        (("manifest.json", lambda m: [m]), "manifest.json", "not a JSON object"),
        (("manifest.json", lambda m: m.pop("sequences") and None), "manifest.json", "count"),
        (("manifest.json", lambda m: m.update(sequences="45")), "manifest.json", "count"),
        (("manifest.json", lambda m: b"\xff" + json_bytes(m)), "manifest.json", "unreadable"),
        (("manifest.json", lambda m: m.update(sequences=10**12)), "offsets.npy", "do not match"),
        (("offsets.npy", _swap(3, 4)), "offsets.npy", "sequence 3 .* decrease"),
        (("name_offsets.npy", _swap(3, 4)), "name_offsets.npy", "sequence 3 .* decrease"),
        # (globins45 has no descriptions: every entry 0.)
        (("description_offsets.npy", lambda a: a.__setitem__(7, 5)), "description_offsets.npy",
         "sequence 7 .* decrease"),
    ],
)
def test_a_damaged_database_is_a_format_error_naming_its_file(tmp_path, damage, file, message):
    """Whatever part of a packed database is damaged, opening it raises FormatError naming
    the file (and the record where one is wrong), for the API and the command alike: never
    another exception, a traceback, or another record's name or residues."""
    db = gpuseq.makedb(GLOBIN_SEQS, tmp_path / "g.gsdb")
    _damaged(db, damage)
    with pytest.raises(gpuseq.FormatError, match=message) as err:
        gpuseq.SequenceDatabase.open(db)
    assert err.value.path.endswith(file)
    run = subprocess.run(
        [sys.executable, "-m", "gpuseq.cli", "hmmsearch", "--backend", "cpu", GLOBINS, db],
        capture_output=True, text=True,
    )
    assert run.returncode == 1 and run.stderr.startswith("Error: ") and file in run.stderr
    assert "Traceback" not in run.stderr


def json_bytes(manifest) -> bytes:
    import json

    return json.dumps(manifest).encode()


def test_a_database_of_no_sequences_is_refused(tmp_path):
    db = gpuseq.makedb(GLOBIN_SEQS, tmp_path / "g.gsdb")
    empty = tmp_path / "empty.gsdb"
    empty.mkdir()
    (empty / "manifest.json").write_text(
        (db / "manifest.json").read_text().replace('"sequences": 45', '"sequences": 0')
    )
    with pytest.raises(gpuseq.EmptyInputError, match="no sequences"):
        gpuseq.SequenceDatabase.open(empty)


@pytest.mark.parametrize("where", ["existing", "no parent"])
def test_makedb_refuses_its_output_before_reading_and_ends_cleanly(tmp_path, where):
    """An output that exists, or whose folder does not, is refused before the input is read
    (the command once aborted after its message: its reading thread was cut short at exit)."""
    out = tmp_path / "g.gsdb" if where == "existing" else tmp_path / "no" / "such" / "g.gsdb"
    if where == "existing":
        out.mkdir()
    run = subprocess.run(
        [sys.executable, "-m", "gpuseq.cli", "makedb", GLOBIN_SEQS, out],
        capture_output=True, text=True,
    )
    assert run.returncode == 1, run.stderr
    assert run.stderr.startswith("Error: ") and "Traceback" not in run.stderr
    assert ("already exists" if where == "existing" else "no such folder") in run.stderr
    assert list(tmp_path.iterdir()) == ([out] if where == "existing" else [])


def test_blastp_refuses_a_database_residue_that_is_no_amino_acid(tmp_path):
    """A residue code past the alphabet in a packed database is an error naming the record,
    not one more gap dropped from the subject (which changed its alignments)."""
    db = gpuseq.makedb(GLOBIN_SEQS, tmp_path / "g.gsdb")
    residues = np.load(db / "residues.npy").copy()
    offsets = np.load(db / "offsets.npy")
    residues[offsets[2] + 5] = 29
    np.save(db / "residues.npy", residues)
    names = gpuseq.SequenceDatabase.open(db)
    with pytest.raises(gpuseq.FormatError, match="residue code 29 at position 5") as err:
        gpuseq.blastp(GLOBIN_SEQS, db)
    assert err.value.record == names.name(2)


def test_a_query_is_final_with_the_whole_database_even_if_empty_records_end_it(tmp_path):
    """A database ending in empty records, searched in chunks: each query is given to
    on_query once, after its last chunk, with the Z and E-values of the whole search (its
    last residues once ended the search a chunk early)."""
    fasta = tmp_path / "t.fa"
    fasta.write_text(GLOBIN_SEQS.read_text() + ">e1\n>e2\n>e3\n")
    db = gpuseq.makedb(fasta, tmp_path / "t.gsdb")
    given = []
    res = gpuseq.hmmsearch(GLOBINS, db, backend="cpu", block_bytes=50, on_query=given.append)
    assert len(given) == 1
    assert given[0].pipeline.equals(res.pipeline) and given[0].hits.equals(res.hits)
    assert int(res.pipeline["nseqs"].iloc[0]) == 48
