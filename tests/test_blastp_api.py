"""gpuseq.blastp and ``gpuseq blastp`` as blastp's users call them: the command's tabular
output equals Debian's blastp line for line (FASTA and packed databases), Biopython's
Bio.SearchIO reads it as blastp's, and options or inputs blastp would not run, or that gpuseq
does not implement yet, get clear typed errors."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import numpy as np
import pytest
from blast_data import (
    BLASTP,
    MAKEBLASTDB,
    MISSING,
    OUTFMT,
    SKIP_REASON,
    make_database,
    mutated,
    random_protein,
    run_blastp,
    write_fasta,
)

import gpuseq
from conftest import HMMER_EXAMPLES
from gpuseq import _core, blast

pytestmark = pytest.mark.skipif(MISSING, reason=SKIP_REASON)


@pytest.fixture(scope="module")
def blast_data(tmp_path_factory) -> dict:
    return make_database(tmp_path_factory.mktemp("blastp_api"))


# The command's stdout as a UTF-8 locale makes it (strict: it fails on the surrogates of names
# that are not UTF-8), where C.UTF-8, this machine's, escapes them (seen on the H200: session 80).
STRICT_STDOUT = {**os.environ, "PYTHONIOENCODING": "utf-8"}


def _gpuseq_blastp(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gpuseq.cli", "blastp", *map(str, args)],
                          capture_output=True, text=True, env=STRICT_STDOUT)


@pytest.mark.parametrize(
    "outfmt", [OUTFMT, "6", "6 qseqid qseqid evalue", "6 evalue std", "6 std qlen std slen",
               "6 sseqid bitscore std qaccver", "6 sacc qacc std qseqid saccver",
               "6 qcovhsp std qcovhsp", "6 gaps nident std gaps",
               "6 ppos positive std pident ppos", "6 qseqid sseq btop qseq sseq",
               "6 qgi sgi sallgi sallseqid sallacc staxid ssciname scomname sblastname std "
               "sskingdom staxids sscinames scomnames sblastnames sskingdoms sstrand qcovus"]
)
def test_command_output_equals_blastp(blast_data, tmp_path, outfmt):
    """Every field list, fields named twice too (written once, where first named; std's ids
    are the fields qaccver and saccver, apart from qseqid and sseqid though they print alike)."""
    expected = run_blastp(blast_data, blast_data["query_fasta"], "-outfmt", outfmt,
                          "-evalue", "100", ungapped=False)
    assert len(expected) > 30
    packed = tmp_path / "db.gsdb"
    gpuseq.makedb(blast_data["db_fasta"], packed)
    for db in (blast_data["db_fasta"], packed):
        out = tmp_path / "hits.tsv"
        run = _gpuseq_blastp("-query", blast_data["query_fasta"], "-db", db, "-out", out,
                             "-outfmt", outfmt, "-evalue", "100", "-comp_based_stats", "0")
        assert run.returncode == 0, run.stderr
        assert out.read_text().splitlines() == expected, db


@pytest.mark.parametrize("backend", ["cpu", pytest.param("cuda", marks=pytest.mark.cuda)])
def test_command_output_is_whole_before_its_quick_exit(blast_data, tmp_path, backend):
    """`gpuseq blastp` ends as `gpuseq hmmsearch` does, by os._exit once its output is
    closed: rows on stdout or in -out, and the status of a failed run, are those of a run with
    the interpreter's teardown (GPUSEQ_FULL_EXIT=1) and blastp's."""
    expected = run_blastp(blast_data, blast_data["query_fasta"], "-outfmt", OUTFMT,
                          "-evalue", "100", ungapped=False)  # fmt: skip
    assert len(expected) > 30
    for full in ("0", "1"):
        env = dict(os.environ, GPUSEQ_FULL_EXIT=full)
        common = [sys.executable, "-m", "gpuseq.cli", "blastp", "-query",
                  blast_data["query_fasta"], "-db", blast_data["db_fasta"], "-outfmt", OUTFMT,
                  "-evalue", "100", "-comp_based_stats", "0", "--backend", backend]  # fmt: skip
        run = subprocess.run(common, capture_output=True, text=True, env=env)
        assert run.returncode == 0 and run.stdout.splitlines() == expected, (full, run.stderr)
        out = tmp_path / f"hits-{full}.tsv"
        run = subprocess.run([*common, "-out", out], capture_output=True, text=True, env=env)
        assert run.returncode == 0 and out.read_text().splitlines() == expected, full
        failed = subprocess.run([*common[:5], tmp_path / "missing.fa", *common[6:]],
                                capture_output=True, text=True, env=env)  # fmt: skip
        assert failed.returncode == 1 and "missing.fa: no such file" in failed.stderr, full


@pytest.mark.parametrize("backend", ["cpu", pytest.param("cuda", marks=pytest.mark.cuda)])
@pytest.mark.parametrize("cbs", ["0", "1", "2"])
def test_large_evalues_print_and_rank_as_blastp(tmp_path, backend, cbs):
    """E-values of ten digits and more (-dbsize 2^63 - 1, -evalue 1e300) on HMMER's 45
    globins, each globin its own query: every digit as blastp prints it (Spouge's erfc is
    blastp's port of Boost's erf, which std::erfc misses by up to 1e-9 relative), and subjects
    whose best E-value is above 2^31 - 1 tied on it as blastp ties them (its best E-value
    starts from INT4_MAX), so that the score and the index rank them."""
    globins = HMMER_EXAMPLES / "tutorial" / "globins45.fa"
    if not globins.exists():
        pytest.skip("HMMER's tutorial files are not installed (apt-get install hmmer-examples)")
    subprocess.run([MAKEBLASTDB, "-in", globins, "-dbtype", "prot", "-out", tmp_path / "db"],
                   check=True, capture_output=True)  # fmt: skip
    flags = ["-query", globins, "-outfmt", "6 std evalue score", "-dbsize", str(2**63 - 1),
             "-evalue", "1e300", "-comp_based_stats", cbs]  # fmt: skip
    expected = subprocess.run([BLASTP, "-db", tmp_path / "db", *flags], check=True,
                              capture_output=True, text=True).stdout.splitlines()  # fmt: skip
    ours = _gpuseq_blastp("-db", globins, *flags, "--backend", backend)
    assert ours.returncode == 0, ours.stderr
    assert sum(float(row.split("\t")[10]) > 2**31 for row in expected) > 50
    assert ours.stdout.splitlines() == expected


def test_biopython_reads_the_output_as_blastps(blast_data, tmp_path):
    from Bio import SearchIO

    ours, theirs = tmp_path / "ours.tsv", tmp_path / "theirs.tsv"
    hits = gpuseq.blastp(blast_data["query_fasta"], blast_data["db_fasta"], comp_based_stats=0)
    blast.write_tabular(hits, ours)
    theirs.write_text("\n".join(run_blastp(blast_data, blast_data["query_fasta"], "-outfmt",
                                           "6", ungapped=False)) + "\n")

    def summary(path):
        return [(q.id, h.id, hsp.evalue, hsp.bitscore, hsp.query_start, hsp.hit_end)
                for q in SearchIO.parse(str(path), "blast-tab") for h in q for hsp in h]

    assert summary(ours) == summary(theirs)
    assert len(summary(ours)) > 20


@pytest.mark.parametrize("seg", ["no", "yes", "10 1.8 2.1"])
def test_ungapped_through_the_public_function(blast_data, seg):
    expected = run_blastp(blast_data, blast_data["query_fasta"], "-outfmt", OUTFMT,
                          "-evalue", "100", seg=seg)  # fmt: skip
    hits = gpuseq.blastp(blast_data["query_fasta"], blast_data["db_fasta"], ungapped=True,
                         comp_based_stats="F", seg=seg, evalue=100)  # fmt: skip
    assert len(expected) > 300
    assert blast.outfmt6_lines(hits) == expected


def test_options_blastp_takes_but_gpuseq_does_not_implement(blast_data):
    q, db = blast_data["query_fasta"], blast_data["db_fasta"]
    for options, words in (
        (dict(matrix="IDENTITY"), "matrix"),
        (dict(word_size=2), "word_size"),
    ):
        with pytest.raises(gpuseq.UnsupportedOptionError, match=words):
            gpuseq.blastp(q, db, comp_based_stats=0, **options)
    # The command says it on one line and fails.
    run = _gpuseq_blastp("-query", q, "-db", db, "-matrix", "IDENTITY")
    assert run.returncode == 1 and "matrix" in run.stderr


def _blastp_gap_costs(blast_data) -> list[tuple[int, int]]:
    """The gap costs blastp lists as supported with BLOSUM62 when given others."""
    ref = subprocess.run([BLASTP, "-query", blast_data["query_fasta"], "-db", blast_data["db"],
                          "-gapopen", "12", "-gapextend", "2"], capture_output=True, text=True)
    assert ref.returncode != 0 and "not supported for BLOSUM62" in ref.stderr, ref.stderr
    listed = ref.stderr.split("supported values are:")[1]
    return [(int(a), int(b)) for a, b in re.findall(r"^(-?\d+), (-?\d+)$", listed, re.M)]


def test_matrices_are_those_blastp_takes(blast_data):
    """-matrix: gpuseq takes the matrices blastp lists (IDENTITY refused as not implemented),
    spelled as blastp takes them, and with each the gap costs, word threshold and two-hit
    window blastp takes where none are given (its XML's and pairwise report's)."""
    q = blast_data["query_fasta"]
    ref = subprocess.run([BLASTP, "-query", q, "-db", blast_data["db"], "-matrix", "FOO"],
                         capture_output=True, text=True)
    assert ref.returncode != 0 and "FOO is not a supported matrix" in ref.stderr
    listed = re.findall(r"^([A-Z0-9]+) ?$", ref.stderr.split("supported matrices are:")[1], re.M)
    assert sorted(blast.matrices()) == sorted(set(listed) - {"IDENTITY"}) and len(listed) == 9
    with pytest.raises(gpuseq.UnsupportedOptionError, match="IDENTITY"):
        gpuseq.blastp(q, blast_data["db_fasta"], matrix="IDENTITY")
    with pytest.raises(ValueError, match="matrix"):
        gpuseq.blastp(q, blast_data["db_fasta"], matrix="FOO")
    # A name in another case: blastp's search and pairwise report take it (the report prints
    # it as given), its XML and JSON fail, and so does gpuseq's.
    for name in ("pam30", "Blosum80"):
        for outfmt in ("0", "6", "5", "15"):
            flags = ["-query", q, "-matrix", name, "-outfmt", outfmt, "-max_target_seqs", "3"]
            ref = subprocess.run([BLASTP, "-db", blast_data["db"], *flags], capture_output=True,
                                 text=True)
            run = _gpuseq_blastp("-db", blast_data["db_fasta"], *flags)
            if outfmt in ("5", "15"):
                assert ref.returncode != 0 and "unsupported score matrix" in ref.stderr
                assert run.returncode == 1 and "upper case" in run.stderr, run.stderr
                continue
            assert ref.returncode == run.returncode == 0, run.stderr
            assert f"Matrix: {name}\n" in ref.stdout or outfmt == "6"

            def named(text):  # (the database's title and date)
                return [line for line in text.splitlines()
                        if "Database:" not in line and "Posted date" not in line]

            assert named(run.stdout) == named(ref.stdout), (name, outfmt)
    for matrix in blast.matrices():
        report = subprocess.run([BLASTP, "-query", q, "-db", blast_data["db"], "-matrix", matrix,
                                 "-max_target_seqs", "1"], capture_output=True, text=True,
                                check=True).stdout
        xml = subprocess.run([BLASTP, "-query", q, "-db", blast_data["db"], "-matrix", matrix,
                              "-max_target_seqs", "1", "-outfmt", "5"], capture_output=True,
                             text=True, check=True).stdout
        opening = int(re.search(r"<Parameters_gap-open>(\d+)<", xml)[1])
        extension = int(re.search(r"<Parameters_gap-extend>(\d+)<", xml)[1])
        assert blast.gap_costs(matrix) == (opening, extension), matrix
        threshold = float(re.search(r"Neighboring words threshold: (\S+)", report)[1])
        window = int(re.search(r"Window for multiple hits: (\d+)", report)[1])
        assert blast.search_defaults(matrix) == (threshold, window), matrix


@pytest.mark.parametrize("matrix", ["BLOSUM45", "BLOSUM50", "BLOSUM80", "BLOSUM90", "PAM30",
                                    "PAM70", "PAM250"])
@pytest.mark.parametrize("flags", [("-comp_based_stats", "0"), ("-comp_based_stats", "2"),
                                   ("-comp_based_stats", "1", "-seg", "yes"),
                                   ("-ungapped", "-comp_based_stats", "0")])
def test_matrices_give_blastps_rows(blast_data, matrix, flags):
    """Every matrix blastp takes, with its default gap costs, threshold and window: the rows
    equal blastp's (lookup, extensions, the query's Karlin-Altschul block and the matrix's
    statistics rows, the composition stage's frequency ratios and joint probabilities,
    positives counted with the matrix) and differ from BLOSUM62's."""
    fields = ["-outfmt", "6 std qlen slen score positive ppos gaps", "-evalue", "100", *flags]

    def blastp_rows(*more):
        return subprocess.run([BLASTP, "-query", blast_data["query_fasta"], "-db",
                               blast_data["db"], *fields, *more],
                              capture_output=True, text=True, check=True).stdout.splitlines()

    expected = blastp_rows("-matrix", matrix)
    assert len(expected) > 20 and expected != blastp_rows()
    run = _gpuseq_blastp("-query", blast_data["query_fasta"], "-db", blast_data["db_fasta"],
                         *fields, "-matrix", matrix)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == expected


def test_gap_costs_are_those_blastp_takes(blast_data):
    """-gapopen and -gapextend: gpuseq takes the pairs blastp lists for BLOSUM62 (its
    ungapped row's 32767/32767 too) and refuses the others as blastp does, in a gapped
    search; an ungapped search takes any 32-bit pair (blastp's XML prints them)."""
    pairs = _blastp_gap_costs(blast_data)
    assert len(pairs) == 12 and (11, 1) in pairs and (32767, 32767) in pairs
    assert [(r["gap_open"], r["gap_extend"]) for r in blast.gap_cost_rows()] == pairs
    q, db = blast_data["query_fasta"], blast_data["db_fasta"]
    for gapopen, gapextend in ((12, 2), (0, 0), (-1, 1), (32767, 1), (11, 0)):
        with pytest.raises(ValueError, match=f"values of {gapopen} and {gapextend} not "):
            gpuseq.blastp(q, db, gapopen=gapopen, gapextend=gapextend)
    run = _gpuseq_blastp("-query", q, "-db", db, "-gapopen", "12", "-gapextend", "2")
    assert run.returncode == 1 and run.stderr.count("\n") == 1, run.stderr
    run = _gpuseq_blastp("-query", q, "-db", db, "-gapopen", "99999999999")
    assert run.returncode == 1 and "gapopen" in run.stderr
    ungapped = ("-ungapped", "-comp_based_stats", "0", "-outfmt", "5")
    for costs in (("-gapopen", "-1", "-gapextend", "0"), ("-gapopen", "12", "-gapextend", "3")):
        ref = subprocess.run([BLASTP, "-query", q, "-db", blast_data["db"], *ungapped, *costs],
                             capture_output=True, text=True, check=True).stdout  # fmt: skip
        assert f"<Parameters_gap-open>{costs[1]}</Parameters_gap-open>" in ref
        ours = _gpuseq_blastp("-query", q, "-db", db, *ungapped, *costs)
        assert ours.returncode == 0, ours.stderr
        assert ours.stdout.replace(f">{db}<", f">{blast_data['db']}<") == ref


@pytest.mark.parametrize("costs", [("-gapopen", "9", "-gapextend", "1"), ("-gapopen", "13"),
                                   ("-gapextend", "2"), ("-gapopen", "7", "-gapextend", "2"),
                                   ("-gapopen", "32767", "-gapextend", "32767")])
@pytest.mark.parametrize("cbs", ["0", "2"])
def test_gap_costs_give_blastps_rows(blast_data, costs, cbs):
    """BLOSUM62's other gap costs: the rows equal blastp's (the DPs' costs, the gapped block,
    Spouge's row, the X-drops in raw score, the composition stage's costs x 32), with a flag
    alone taking the other's default (13/1, 11/2); 32767/32767 aligns without gaps, with the
    ungapped row's statistics. The rows differ from 11/1's."""
    flags = ["-outfmt", OUTFMT, "-evalue", "100", "-comp_based_stats", cbs]

    def blastp_rows(*more):
        return subprocess.run([BLASTP, "-query", blast_data["query_fasta"], "-db",
                               blast_data["db"], *flags, *more],
                              capture_output=True, text=True, check=True).stdout.splitlines()

    expected = blastp_rows(*costs)
    assert len(expected) > 30 and expected != blastp_rows()
    run = _gpuseq_blastp("-query", blast_data["query_fasta"], "-db", blast_data["db_fasta"],
                         *flags, *costs)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == expected


def test_values_blastp_rejects(blast_data):
    q, db = blast_data["query_fasta"], blast_data["db_fasta"]
    for options in (dict(evalue=-1), dict(max_target_seqs=0), dict(comp_based_stats=4),
                    dict(ungapped=True, comp_based_stats=2), dict(seg="12 2.2"),
                    dict(seg="abc"), dict(evalue=float("inf")), dict(xdrop_ungap=0),
                    dict(xdrop_ungap=-1), dict(max_target_seqs=3_000_000_000),
                    dict(dbsize=30_000_000_000_000_000_000), dict(max_hsps=0),
                    dict(max_hsps=-1), dict(searchsp=-1), dict(searchsp=2**63)):
        with pytest.raises(ValueError):
            gpuseq.blastp(q, db, **{"comp_based_stats": 0, **options})
    run = _gpuseq_blastp("-query", q, "-db", db, "-comp_based_stats", "0", "-outfmt", "1")
    assert run.returncode == 1 and "outfmt" in run.stderr
    # blastp refuses these too, and says so on its first lines (our errors: one line each).
    for flags in (["-xdrop_ungap", "0"], ["-evalue", "0"]):
        ref = subprocess.run([BLASTP, "-query", q, "-db", blast_data["db"], *flags],
                             capture_output=True, text=True)
        assert ref.returncode != 0, flags
        run = _gpuseq_blastp("-query", q, "-db", db, *flags)
        assert run.returncode == 1 and run.stderr.count("\n") == 1, (flags, run.stderr)
    # Command lines blastp cannot parse: status 1, as blastp's (argparse's own would be 2).
    # An integer out of its C type's range is one: blastp cannot convert it.
    for flags in (["-bogus", "1"], ["-evalue", "1e3x"], ["-max_target_seqs", "1e3"],
                  ["-max_target_seqs", "3000000000"], ["-dbsize", "30000000000000000000"]):
        ref = subprocess.run([BLASTP, "-query", q, "-db", blast_data["db"], *flags],
                             capture_output=True, text=True)
        run = _gpuseq_blastp("-query", q, "-db", db, *flags)
        assert ref.returncode == run.returncode == 1, (flags, run.stderr)
    # One-hit seeding (window 0), which blastp runs, is refused as not implemented.
    with pytest.raises(gpuseq.UnsupportedOptionError, match="window_size 0"):
        gpuseq.blastp(q, db, window_size=0)


def _rows_for_texts(blast_data, flag: str, texts, *others: str) -> dict:
    """blastp and `gpuseq blastp` (CPU) with `flag` set to each text: both refuse it, or both
    write the same rows. Returns {text: blastp's rows, or None where both refused}."""
    rows = {}
    for text in texts:
        evalue = [] if flag == "-evalue" or "-evalue" in others else ["-evalue", "100"]
        args = ["-query", blast_data["query_fasta"], "-outfmt", OUTFMT, *evalue, *others, flag,
                text]
        ref = subprocess.run([BLASTP, "-db", blast_data["db"], *args], capture_output=True,
                             text=True)  # fmt: skip
        ours = _gpuseq_blastp("-db", blast_data["db_fasta"], *args, "--backend", "cpu")
        assert (ours.returncode != 0) == (ref.returncode != 0), (text, ours.stderr)
        assert ours.stdout.splitlines() == ref.stdout.splitlines(), text
        rows[text] = ref.stdout if ref.returncode == 0 else None
    return rows


def _shuffled_database(blast_data, tmp_path, subjects, rng) -> dict:
    """The subjects in a random order as FASTA and as makeblastdb's database, beside
    blast_data's queries (the keys _rows_for_texts takes)."""
    data = {"query_fasta": blast_data["query_fasta"], "db_fasta": tmp_path / "db.fa",
            "db": tmp_path / "db"}  # fmt: skip
    write_fasta(data["db_fasta"], [subjects[i] for i in rng.permutation(len(subjects))])
    subprocess.run([MAKEBLASTDB, "-in", data["db_fasta"], "-dbtype", "prot", "-out",
                    data["db"]], check=True, capture_output=True)  # fmt: skip
    return data


def test_max_hsps_keeps_each_subjects_first_hsps_as_blastp(blast_data, tmp_path):
    """-max_hsps N keeps each subject's first N HSPs in the order blastp writes them, cut
    after the hit lists are ranked and before the score-0 HSPs are left out. Subjects holding
    one to four homologs of a query: rows equal blastp's with the composition adjustment
    (blastp's default), without it, ungapped and with -max_target_seqs 3; 0, -1 and an
    integer past a C int's range are refused by both."""
    rng = np.random.default_rng(20261202)
    subjects = [(f"r{i}", random_protein(rng, int(rng.integers(50, 400)))) for i in range(300)]
    for name, query in blast_data["queries"][:3]:
        for copies in range(1, 5):
            body = "".join(mutated(rng, query.upper(), float(rng.uniform(0.35, 0.8)), 0.01)
                           + random_protein(rng, 25) for _ in range(copies))  # fmt: skip
            subjects.append((f"{name}_x{copies}", body))
    data = _shuffled_database(blast_data, tmp_path, subjects, rng)
    for others in ((), ("-comp_based_stats", "0"), ("-ungapped", "-comp_based_stats", "0"),
                   ("-max_target_seqs", "3")):
        rows = _rows_for_texts(data, "-max_hsps", ("1", "2", "0x3", "0", "-1", "2147483648"),
                               *others)  # fmt: skip
        every = subprocess.run([BLASTP, "-db", data["db"], "-query", data["query_fasta"],
                                "-outfmt", OUTFMT, "-evalue", "100", *others],
                               capture_output=True, text=True, check=True).stdout  # fmt: skip
        pairs = [tuple(line.split("\t")[:2]) for line in every.splitlines()]
        assert len(set(pairs)) < len(pairs), others  # subjects with several HSPs
        one = [tuple(line.split("\t")[:2]) for line in rows["1"].splitlines()]
        assert sorted(one) == sorted(set(pairs)), others  # one row for each pair
        assert len(one) < len(rows["2"].splitlines()) < len(pairs), others
        assert rows["0"] is rows["-1"] is rows["2147483648"] is None, others
        if not others:
            default_rows = rows["1"].splitlines()
    # The keyword, on the GPU too where there is one.
    q, db = blast_data["query_fasta"], data["db_fasta"]
    for backend in ("cpu", "auto"):
        hits = gpuseq.blastp(q, db, max_hsps=1, evalue=100, backend=backend)
        assert not hits.duplicated(["qseqid", "sseqid"]).any()
        assert len(hits) == len(default_rows)


def test_qcov_hsp_perc_keeps_the_hsps_covering_the_query_as_blastp(blast_data, tmp_path):
    """-qcov_hsp_perc P leaves out the HSPs covering less than P percent of the query (the
    percent rounded half up below 99): before the hit list in an ungapped search; in a gapped
    one after the traceback has ranked the lists and after the -max_hsps cut, the lists it
    empties leaving their places to the next ones.
    Subjects holding fragments of a query (a fifth of it to all of it, one to three in a
    subject): rows equal blastp's with the composition adjustment, without it, ungapped,
    with -max_target_seqs 3 and with -max_hsps 1; -1 and 101 are refused by both."""
    rng = np.random.default_rng(20261203)
    subjects = [(f"r{i}", random_protein(rng, int(rng.integers(50, 400)))) for i in range(300)]
    for name, query in blast_data["queries"][:3]:
        query = query.upper()
        for k in range(12):
            body = random_protein(rng, 20)
            for _ in range(1 + k % 3):
                size = int(len(query) * float(rng.uniform(0.2, 1.0)))
                start = int(rng.integers(0, len(query) - size + 1))
                body += mutated(rng, query[start:start + size], float(rng.uniform(0.4, 0.9)),
                                0.01) + random_protein(rng, 20)  # fmt: skip
            subjects.append((f"{name}_f{k}", body))
    data = _shuffled_database(blast_data, tmp_path, subjects, rng)
    texts = ("0", "20", "45.5", "70", "98.6", "99", "100", "-1", "101")
    for others in ((), ("-comp_based_stats", "0"), ("-ungapped", "-comp_based_stats", "0"),
                   ("-max_target_seqs", "3"), ("-max_hsps", "1", "-comp_based_stats", "1")):
        rows = _rows_for_texts(data, "-qcov_hsp_perc", texts, *others)
        counts = [len(rows[text].splitlines()) for text in texts[:7]]
        assert counts == sorted(counts, reverse=True) and counts[0] > counts[3] > 0, others
        assert rows["-1"] is rows["101"] is None, others
    # The keyword, on the GPU too where there is one.
    q, db = blast_data["query_fasta"], data["db_fasta"]
    expected = _rows_for_texts(data, "-qcov_hsp_perc", ("70",))["70"].splitlines()
    for backend in ("cpu", "auto"):
        hits = gpuseq.blastp(q, db, qcov_hsp_perc=70, evalue=100, backend=backend)
        assert blast.outfmt6_lines(hits) == expected, backend


def test_searchsp_gives_blastps_classic_evalues(blast_data):
    """-searchsp N: every E-value over that search space by the classic formula, even for
    N = 0 (the computed space): blastp sets OLD_FSC with it, which leaves Spouge's finite-size
    correction and the composition stage's 5-fold preliminary E-value out. Rows equal
    blastp's with and without the composition adjustment, ungapped and beside -dbsize;
    -1 and 2**63 are refused by both."""
    texts = ("0", "1000000", "1000000000", "0x3b9aca00", "-1", "9223372036854775808")
    for others in ((), ("-comp_based_stats", "0"), ("-ungapped", "-comp_based_stats", "0"),
                   ("-dbsize", "5000000000", "-comp_based_stats", "1")):
        rows = _rows_for_texts(blast_data, "-searchsp", texts, *others)
        assert rows["1000000000"] == rows["0x3b9aca00"] != rows["1000000"], others
        assert len(rows["1000000"].splitlines()) > len(rows["1000000000"].splitlines())
        assert rows["-1"] is rows["9223372036854775808"] is None, others


def test_comp_based_stats_text_is_read_as_blastp_reads_it(blast_data):
    """blastp reads -comp_based_stats by its first letter and takes any other as 0 (no
    adjustment): "2x" is 2, "1.0" is 1, "4", "x", "02" and " 2" are 0, and -ungapped takes
    those. The rows equal blastp's for each text."""
    rows = _rows_for_texts(blast_data, "-comp_based_stats",
                           ("4", "x", "2x", "t", "02", " 2", "1.0", "F"))
    assert None not in rows.values()
    assert rows["4"] == rows["F"] != rows["2x"] == rows["t"] != rows["1.0"]
    ungapped = _rows_for_texts(blast_data, "-comp_based_stats", ("4", "2x"), "-ungapped")
    assert ungapped["4"] is not None and ungapped["2x"] is None  # (the adjustment refused)


def test_threshold_is_a_real_as_blastp_reads_it(blast_data):
    """blastp's -threshold is a real, truncated for the lookup table: 11.5 is 11, 10.9 is 10,
    and 0 < t < 1 is 0, which keeps the query's own words only, as a threshold no word reaches
    does (1e9). 0 and below are refused, by both."""
    rows = _rows_for_texts(blast_data, "-threshold",
                           ("11.5", "10.9", "0.5", "1e9", "11", "10", "0", "-1"),
                           "-comp_based_stats", "0")
    assert rows["11.5"] == rows["11"] != rows["10.9"] == rows["10"]
    assert rows["0.5"] == rows["1e9"] != rows["11"] and rows["0"] is rows["-1"] is None


def test_seg_text_is_read_as_blastp_reads_it(blast_data):
    """-seg as blastp reads it: "yes" and "no" as written, three words at single spaces, an
    integer window and plain numbers (else blastp's two errors); a window or cutoff not above
    0 keeps SEG's default, and a hicut below the locut is raised to it. Rows equal blastp's,
    or both refuse."""
    rows = _rows_for_texts(blast_data, "-seg",
                           ("yes", "12 2.5 2.2", "0 2.2 2.5", "12 -1 0", "8 2.0 1.0",
                            "1 2.2 2.5", "+12 2.2 2.5e0", "YES", "no ", "12  2.2 2.5",
                            "12.0 2.2 2.5", "12 nan 2.5"),
                           "-comp_based_stats", "0")  # fmt: skip
    assert rows["yes"] == rows["0 2.2 2.5"] == rows["12 -1 0"] == rows["+12 2.2 2.5e0"]
    assert len({rows["yes"], rows["12 2.5 2.2"], rows["8 2.0 1.0"], rows["1 2.2 2.5"]}) == 4
    assert rows["YES"] is rows["12 nan 2.5"] is None


def test_numbers_are_read_as_blastp_reads_them(blast_data):
    """blastp's numbers are the whole text (no spaces, "_", "inf" or "nan"); integers are
    decimal or "0x" hex, within a C int; reals are strtod's decimal or hex forms, a bare
    trailing "e" taken. The rows equal blastp's for each text, or both refuse it. (Not
    2147483647 targets: blastp 2.12 dies of a segmentation fault with it against a database.)"""
    rows = _rows_for_texts(blast_data, "-evalue",
                           ("16", "0x10", "+16", "16.", "1.6e1", "1.6E1", " 16", "16 ", "1_6",
                            "inf", "nan", "0.5", "0x1p-1", "5e-1", ".5", "1", "1e", "1e+",
                            "0x", "1e-400", "-1"),
                           "-comp_based_stats", "0")  # fmt: skip
    assert rows["16"] == rows["0x10"] == rows["+16"] == rows["16."] == rows["1.6E1"]
    assert rows["0.5"] == rows["0x1p-1"] == rows["5e-1"] == rows[".5"] != rows["16"]
    assert rows["1e"] == rows["1"] not in (rows["16"], rows["0.5"])
    assert all(rows[t] is None for t in (" 16", "16 ", "1_6", "inf", "nan", "1e+", "0x",
                                         "1e-400", "-1"))
    rows = _rows_for_texts(blast_data, "-max_target_seqs",
                           ("2", "0x2", "+2", "02", "10", "010", "0xa", " 2", "2 ", "2.0", "1_0",
                            "-0x2", "2147483648", "0x80000000", "0"),
                           "-comp_based_stats", "0")  # fmt: skip
    assert rows["2"] == rows["0x2"] == rows["+2"] == rows["02"] != rows["10"]
    assert rows["10"] == rows["010"] == rows["0xa"]
    assert all(rows[t] is None for t in (" 2", "2 ", "2.0", "1_0", "-0x2", "2147483648",
                                         "0x80000000", "0"))


def test_a_flag_given_twice_is_refused_as_blastp_refuses_it(blast_data):
    """blastp refuses a command line that gives a flag twice, the same value or not; so does
    `gpuseq blastp` (argparse alone would keep the last)."""
    q, db = blast_data["query_fasta"], blast_data["db_fasta"]
    for twice in (["-evalue", "1", "-evalue", "1"], ["-ungapped", "-ungapped"],
                  ["-outfmt", "6", "-outfmt", "6 std"]):
        args = ["-query", q, "-comp_based_stats", "0", *twice]
        ref = subprocess.run([BLASTP, "-db", blast_data["db"], *args], capture_output=True,
                             text=True)  # fmt: skip
        assert ref.returncode != 0 and "defined already" in ref.stderr
        run = _gpuseq_blastp("-db", db, *args)
        assert run.returncode == 1 and "given twice" in run.stderr, run.stderr


def test_an_output_that_cannot_be_written_fails_before_the_search(blast_data, tmp_path):
    """As blastp checks -out first: one line naming the path, status 1, for a missing folder
    and for a folder in the file's place."""
    q, db = blast_data["query_fasta"], blast_data["db_fasta"]
    for out in (tmp_path / "no" / "such.tsv", tmp_path):
        run = _gpuseq_blastp("-query", q, "-db", db, "-out", out)
        assert run.returncode == 1, run.stderr
        assert run.stderr.startswith("Error: ") and str(out) in run.stderr
        assert "Traceback" not in run.stderr


def test_bad_inputs_name_the_file_and_record(blast_data, tmp_path):
    q, db = blast_data["query_fasta"], blast_data["db_fasta"]
    # A BLAST-format database: how to convert it.
    with pytest.raises(gpuseq.FormatError, match="blastdbcmd"):
        gpuseq.blastp(q, blast_data["db"], comp_based_stats=0)
    with pytest.raises(gpuseq.InputError, match="no such file"):
        gpuseq.blastp(q, tmp_path / "missing.fa", comp_based_stats=0)
    empty = tmp_path / "empty.fa"
    write_fasta(empty, [("e1", "")])
    with pytest.raises(gpuseq.EmptyInputError, match="e1"):
        gpuseq.blastp(empty, db, comp_based_stats=0)
    bad = tmp_path / "bad.fa"
    bad.write_text(">ok\nACDEF\n>bad one\nAC1DE\n")
    with pytest.raises(gpuseq.AlphabetError, match="bad"):
        gpuseq.blastp(bad, db, comp_based_stats=0)


def test_a_gt_inside_a_line_is_refused_where_blastp_reads_it_as_a_residue(blast_data, tmp_path):
    """Easel starts a record at any '>' (hmmsearch reads " >b" and "AC>b" so); blastp only at
    a line's first byte, dropping another '>' and reading the rest of its line as sequence
    ("b" a residue). So that gpuseq blastp never silently reads other sequences than blastp,
    such a '>' is a FormatError naming file, line and record, as query and as subject. Easel's
    reading stays for hmmsearch."""
    q, db = blast_data["query_fasta"], blast_data["db_fasta"]
    seq = "MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQAPILSRVGDGTQDNLSGAEKAVQVKVKALPDAQFEVV"
    lead = tmp_path / "lead.fa"
    lead.write_text(f" >q1\n{seq}\n")
    inside = tmp_path / "inside.fa"
    inside.write_text(f">a one>two\n{seq}\n{seq[:20]}>b\n{seq}\n")
    # blastp reads " >q1" as a sequence line of an unnamed query: not the record "q1".
    ref = subprocess.run([BLASTP, "-query", lead, "-db", blast_data["db"], "-outfmt", "6",
                          "-evalue", "1000"], capture_output=True, text=True)  # fmt: skip
    assert ref.returncode == 0 and ref.stdout.startswith("Query_1\t"), ref.stdout[:200]
    assert gpuseq.read_sequences(lead).name(0) == "q1"  # (Easel's reading)
    assert len(gpuseq.read_sequences(inside)) == 2
    for query, subjects, where in ((lead, db, "lead.fa, line 1:"),
                                   (q, inside, "inside.fa, line 3, record 'a':")):
        with pytest.raises(gpuseq.FormatError, match="'>' inside a line") as err:
            gpuseq.blastp(query, subjects, comp_based_stats=0)
        assert where in str(err.value)
        run = _gpuseq_blastp("-query", query, "-db", subjects)
        assert run.returncode == 1 and where in run.stderr, run.stderr


def test_ids_are_printed_as_blastp_prints_them(tmp_path):
    """A query's id is the first word of its title: the header after its leading blanks (a
    vertical tab or form feed too) up to the first control character after the first (">a\x01b"
    is a, ">\x02a" keeps its \x02). A subject's is the first word of makeblastdb's title: ctrl-A
    a space, a tab three spaces, '#' for each other control character and each byte outside
    ASCII (its "Bad char" errors), and gnl|BL_ORD_ID|N where the title has no word. Query ids
    keep bytes that are not UTF-8. Every id field equals blastp's."""
    seq = ("MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQAPILSRVGDGTQDNLSGAEKAVQVKVKALPDAQFEVVHSLAKWKRQ"
           "TLGQHDFSAGEGLYTHMKALRPDEDRLSPLHSVYVDQWDWERVMGDGERQFSTLKSTVEAIWAGIKATEAAVSEEF")
    names = [b"na\x01me", "\u00dcid".encode(), b"ok\xff", b"c\x02d", b"\x0bvt", b"\x01lead",
             b"nul\x00x", b"t\x7fu", b"ab\x0cc", b"\x01", b"\tx\x1fy", b"plain",
             "s\u00e9q x".encode()]
    subjects, queries = tmp_path / "s.fa", tmp_path / "q.fa"
    subjects.write_bytes(b"".join(b">%s\n%s\n" % (n, seq[i:].encode() + seq[:i].encode())
                                  for i, n in enumerate(names)))
    queries.write_bytes(b"".join(b">%s desc\n%s\n" % (n, seq.encode()) for n in names[:11]))
    subprocess.run([MAKEBLASTDB, "-in", subjects, "-dbtype", "prot", "-out", tmp_path / "db"],
                   check=True, capture_output=True)  # fmt: skip
    fields = ["-outfmt", "6 qseqid sseqid qacc sacc qaccver saccver evalue"]
    ref = subprocess.run([BLASTP, "-db", tmp_path / "db", "-query", queries, *fields],
                         capture_output=True, check=True).stdout  # fmt: skip
    ours = subprocess.run([sys.executable, "-m", "gpuseq.cli", "blastp", "-db", subjects,
                           "-query", queries, *fields, "--backend", "cpu"],
                          capture_output=True, check=True, env=STRICT_STDOUT).stdout  # fmt: skip
    # (what the rules say)
    assert b"na\t##id\t" in ref and b"ok\xff\t" in ref and b"\nc\tc#d\t" in ref
    assert b"\nvt\t#vt\t" in ref and b"\n\x01lead\tgnl|BL_ORD_ID|9\t" in ref
    assert b"\tnul#x\t" in ref and b"\tx#y\t" in ref
    assert ours.splitlines() == ref.splitlines()


@pytest.mark.parametrize("ungapped", [False, True])
def test_subject_titles_and_query_coverage_per_subject_equal_blastp(blast_data, tmp_path,
                                                                     ungapped):
    """stitle and salltitles: the title makeblastdb stores for the subject's header line
    (blanks kept as they are, a tab three spaces, ctrl-A a space, '#' for other control
    characters and bytes outside ASCII; commas unquoted in -outfmt 10). qcovs: the percent of
    the query that the union of the subject's HSPs covers, on each of its rows (subjects
    holding one to three fragments of a query). Every byte equals blastp's from a FASTA
    database; from a packed one, whose records keep the name and description alone, where the
    header is a name and a description one space apart; the keyword on the GPU too."""
    rng = np.random.default_rng(20261204)
    subjects = [(f"r{i} random {i}", random_protein(rng, int(rng.integers(50, 400))))
                for i in range(200)]  # fmt: skip
    headers = ["  lead  two  ", "tab\there\t", "merged\x01second title\x01third", "vt\x0bx y",
               "comma, in, title", "\u00e9t\u00e9 x", "ctrl\x02x \x7f end", "plain one"]
    for k in range(24):
        name, query = blast_data["queries"][k % 3]
        body = random_protein(rng, 20)
        for _ in range(1 + k % 3):
            size = int(len(query) * float(rng.uniform(0.2, 0.7)))
            start = int(rng.integers(0, len(query) - size + 1))
            body += mutated(rng, query.upper()[start:start + size], 0.8, 0.01) + \
                random_protein(rng, 20)  # fmt: skip
        subjects.append((f"{name}_f{k} {headers[k % len(headers)]}" if k % 4 else
                         headers[k % len(headers)], body))  # fmt: skip
    data = _shuffled_database(blast_data, tmp_path, subjects, rng)
    flags = ["-query", data["query_fasta"], "-comp_based_stats", "0", "-evalue", "10",
             *(["-ungapped"] if ungapped else [])]
    packed = tmp_path / "db.gsdb"
    gpuseq.makedb(data["db_fasta"], packed)
    # (headers of printable ASCII words one space apart, which a packed database keeps whole)
    plain = {h.split(" ")[0] for h, _ in subjects if re.fullmatch(r"[!-~]+( [!-~]+)*", h)}
    for outfmt in ("6 qseqid sseqid stitle salltitles qcovs qcovhsp qstart qend qlen",
                   "7 stitle qcovs std", "10 salltitles qcovs sseqid stitle"):
        ref = subprocess.run([BLASTP, "-db", data["db"], *flags, "-outfmt", outfmt],
                             capture_output=True, check=True).stdout  # fmt: skip
        ours = subprocess.run([sys.executable, "-m", "gpuseq.cli", "blastp", "-db",
                               data["db_fasta"], *flags, "-outfmt", outfmt, "--backend", "cpu"],
                              capture_output=True, check=True,
                              env=STRICT_STDOUT).stdout  # fmt: skip
        database = b"# Database: %s\n"
        assert ours.splitlines() == ref.replace(database % str(data["db"]).encode(),
                                                database % str(data["db_fasta"]).encode()
                                                ).splitlines(), outfmt  # fmt: skip
        if outfmt.startswith("6"):
            rows = [line.split(b"\t") for line in ref.splitlines()]
            covered = {(q, s): set() for q, s, *_ in rows}
            for q, s, _, _, _, _, qstart, qend, _ in rows:
                covered[q, s] |= set(range(int(qstart), int(qend) + 1))
            for q, s, _, _, qcovs, _, _, _, qlen in rows:  # (what the rule says)
                percent = 100 * len(covered[q, s]) / int(qlen)
                assert int(qcovs) == int(percent + 0.5 if percent < 99 else percent)
            assert any(int(r[4]) > int(r[5]) for r in rows)  # (HSPs adding up)
            assert b"merged second title third" in ref and b"tab   here   " in ref
            assert b"  lead  two  " in ref and b"vt#x y" in ref and b"ctrl#x # end" in ref
        packed_rows = subprocess.run([sys.executable, "-m", "gpuseq.cli", "blastp", "-db",
                                      packed, *flags, "-outfmt", outfmt, "--backend", "cpu"],
                                     capture_output=True, check=True, text=True,
                                     env=STRICT_STDOUT).stdout.splitlines()  # fmt: skip
        assert len(packed_rows) == len(ref.splitlines())
    # The keyword (on the GPU too where there is one), from the packed database: the plain
    # headers' titles and every qcovs equal blastp's.
    ref = subprocess.run([BLASTP, "-db", data["db"], *flags, "-outfmt",
                          "6 qseqid sseqid stitle qcovs"], capture_output=True, text=True,
                         check=True).stdout.splitlines()  # fmt: skip
    for backend in ("cpu", "auto"):
        hits = gpuseq.blastp(data["query_fasta"], gpuseq.SequenceDatabase.open(packed),
                             comp_based_stats=0, ungapped=ungapped, subject_titles=True,
                             backend=backend)  # fmt: skip
        assert list(hits.columns) == [*blast.OUTFMT6_COLUMNS, "stitle", "soid"]
        ours = ["\t".join(map(str, row)) for row in
                hits[["qseqid", "sseqid", "stitle", "qcovs"]].itertuples(index=False)]
        assert len(ours) == len(ref) and sum(row.split("\t")[1] in plain for row in ref) > 20
        for mine, theirs in zip(ours, ref):
            m, t = mine.split("\t"), theirs.split("\t")
            assert (m[:2], m[3]) == (t[:2], t[3])
            if t[1] in plain:
                assert m[2] == t[2]


@pytest.mark.parametrize("outfmt", ["5", "15"])
@pytest.mark.parametrize("others", [(), ("-comp_based_stats", "0", "-seg", "yes"),
                                    ("-ungapped", "-comp_based_stats", "0"),
                                    ("-comp_based_stats", "3", "-max_hsps", "2", "-searchsp",
                                     "100000000", "-seg", "10 2.0 2.6")])
def test_xml_and_json_output_equal_blastp(blast_data, tmp_path, outfmt, others):
    """-outfmt 5, blastp's XML, and 15, its JSON: every byte equals blastp's, and Biopython
    (XML) and json read them as blastp's. Queries with rare letters (O is warned of), lower
    case, titles to escape (&, <, quotes), UTF-8 (XML: written in Latin-1), bytes that are
    not UTF-8 (XML: as they came; JSON: read as Latin-1) and a control character (XML: '#';
    JSON: \\u0002), a query without hits and one without statistics (all X); identities,
    positives and midlines counted again from the letters (J's BLOSUM62 row, U and O never
    positive), SEG's residues shown as X (XML) or in lower case (JSON, beside its
    query_masking), E-values below 1e-180 written 0; from FASTA and from standard input."""
    import json

    from Bio.Blast import NCBIXML

    queries = dict(blast_data["queries"])
    headers = [b"q100 a&b <c> \"d\" 'e' \\", b"qspecial caf\xc3\xa9 x", b"\x02q300 ctrl",
               b"allx", b"nohits x", b"q500 \xff\xfe caf\xc3\xa9 y",
               b"TPA: q100  two ( &amp; ) &lt; ,x.."]
    bodies = [queries["q100"], queries["qspecial"], queries["q300"][:50] + "O" +
              queries["q300"][51:], "X" * 40, "MKV", queries["q500"].lower(), queries["q100"]]
    query = tmp_path / "q.fa"
    query.write_bytes(b"".join(b">%s\n%s\n" % (h, b.encode()) for h, b in zip(headers, bodies)))
    flags = ["-outfmt", outfmt, "-evalue", "100", *others]
    ref = subprocess.run([BLASTP, "-query", query, "-db", blast_data["db"], *flags],
                         capture_output=True, check=True).stdout  # fmt: skip
    assert ref.count(b"<Hsp>" if outfmt == "5" else b'"bit_score"') > 100
    assert b"One or more O characters" in ref and b"No hits found" in ref
    assert b"Could not calculate" in ref
    # (what the rules say: the defline generator's query title)
    assert b">q100 two (&amp;) &lt;, x<" in ref or b'"q100 two (&) <, x"' in ref
    if outfmt == "5":
        assert b"caf\xe9 x" in ref and b"\xff\xfe caf\xc3\xa9 y" in ref and b">#q300" in ref
    else:
        assert b"caf\xc3\xa9 x" in ref and b"\xc3\xbf\xc3\xbe caf\xc3\x83\xc2\xa9 y" in ref
        assert b'"\\u0002q300' in ref and b"\\\\" in ref
    for source, stdin in ((query, None), ("-", query.read_bytes())):
        ours = subprocess.run([sys.executable, "-m", "gpuseq.cli", "blastp", "-query", source,
                               "-db", blast_data["db_fasta"], *flags, "--backend", "cpu"],
                              input=stdin, capture_output=True)  # fmt: skip
        assert ours.returncode == 0, ours.stderr
        db, ours_db = str(blast_data["db"]).encode(), str(blast_data["db_fasta"]).encode()
        named = ours.stdout.replace(b"<BlastOutput_db>%s<" % ours_db, b"<BlastOutput_db>%s<" % db)
        named = named.replace(b'"db": "%s"' % ours_db, b'"db": "%s"' % db)
        assert named.splitlines() == ref.splitlines()
    if outfmt == "5":
        def read(text):
            return [len(r.alignments) for r in NCBIXML.parse(io.StringIO(text.decode("latin-1")))]
    else:
        def read(text):
            return [len(r["report"]["results"]["search"]["hits"])
                    for r in json.loads(text)["BlastOutput2"]]
    assert read(ours.stdout) == read(ref)


def _posted(report: bytes) -> float:
    """The time of a report's "Posted date" (makeblastdb's, in local time, to the minute)."""
    import time

    date = re.search(rb"Posted date:  (\w+ \d+, \d+  \d+:\d+ [AP]M)", report).group(1)
    return time.mktime(time.strptime(date.decode().replace("  ", " "), "%b %d, %Y %I:%M %p"))


# (flags, backend): blastp's defaults (both composition methods shown) on the GPU where there
# is one; SEG (lower-case Query rows) with the scaled method and short lines; ungapped with
# fewer descriptions than alignments and the reverse; -max_target_seqs, -max_hsps; every
# E-value format from 0.0 to thousands and bit scores below 10, without alignments.
PAIRWISE_CASES = [
    ((), "auto"),
    (("-seg", "yes", "-comp_based_stats", "1", "-line_length", "37"), "cpu"),
    (("-ungapped", "-comp_based_stats", "0", "-num_descriptions", "7", "-num_alignments",
      "30"), "cpu"),
    (("-comp_based_stats", "3", "-num_descriptions", "40", "-num_alignments", "3"), "cpu"),
    (("-max_target_seqs", "4", "-max_hsps", "2", "-line_length", "1"), "cpu"),
    (("-evalue", "1e6", "-comp_based_stats", "0", "-num_alignments", "0"), "cpu"),
    (("-searchsp", "100000000", "-max_hsps", "1"), "cpu"),
    (("-gapopen", "6", "-gapextend", "2"), "auto"),
    (("-matrix", "PAM30"), "auto"),
    (("-matrix", "BLOSUM45", "-ungapped", "-comp_based_stats", "0"), "cpu"),
    (("-gapopen", "32767", "-gapextend", "32767", "-searchsp", "0", "-comp_based_stats", "1"),
     "cpu"),
]


@pytest.mark.parametrize("flags, backend", PAIRWISE_CASES)
def test_pairwise_report_equals_blastp(blast_data, tmp_path, flags, backend):
    """-outfmt 0, blastp's default report: every byte equals blastp's, from FASTA and from
    standard input. Queries with titles to wrap, escape-free bytes (UTF-8, not UTF-8, a
    control character), rare letters, lower case, one without hits and one without
    statistics; subjects whose titles the descriptions rewrite (trailing periods, TPA:,
    HTML entities, blank runs, commas and brackets, titles cut at 68 bytes) and the alignments
    wrap after 60; several HSPs of a subject. The database's posted date is its file's time
    (set to makeblastdb's here)."""
    rng = np.random.default_rng(20261203)
    queries = dict(blast_data["queries"])
    titles = ["TPA: planted one.", "amp &amp; &lt;x&gt; &#65;&#x42; &xi; &Tab;t &bogus; end;",
              "spaces  and\ttabs ,commas ,, here ( paren ) . [bracket] ~", "x" * 70 + " long",
              "wrapped " + "word " * 30, "utf8 caf\u00e9 and \x02ctrl", "unverified:lower...",
              "ends in entity &quot;"]
    subjects = [(f"o{i} {t}" if i % 2 else t, random_protein(rng, 30) + mutated(
        rng, queries["q300" if i % 2 else "q100"].upper(), 0.7, 0.02) + random_protein(rng, 30))
        for i, t in enumerate(titles)]  # fmt: skip
    for i in range(12):  # (short weak homologs: E-values from 1e-5 to 1)
        start = int(rng.integers(0, 400))
        subjects.append((f"weak{i}", random_protein(rng, 20) + mutated(
            rng, queries["q500"].upper()[start:start + 30 + 4 * i], 0.5, 0.0)))
    fasta = tmp_path / "db.fa"
    fasta.write_bytes(blast_data["db_fasta"].read_bytes() + "".join(
        f">{t}\n{body}\n" for t, body in subjects).encode())
    subprocess.run([MAKEBLASTDB, "-in", fasta, "-dbtype", "prot", "-out", tmp_path / "db"],
                   check=True, capture_output=True)  # fmt: skip
    headers = [b"q100 a&b <c> \"d\" \\ " + b"w " * 40, b"qspecial caf\xc3\xa9 x",
               b"\x02q300 ctrl\ttab", b"allx", b"nohits x", b"q500 \xff\xfe y", b"  q300 two"]
    bodies = [queries["q100"], queries["qspecial"], queries["q300"][:50] + "O" +
              queries["q300"][51:], "X" * 40, "MKV", queries["q500"].lower(), queries["q300"]]
    query = tmp_path / "q.fa"
    query.write_bytes(b"".join(b">%s\n%s\n" % (h, b.encode()) for h, b in zip(headers, bodies)))
    ref = subprocess.run([BLASTP, "-query", query, "-db", tmp_path / "db", *flags],
                         capture_output=True, check=True).stdout  # fmt: skip
    # (what the rules say)
    assert b"***** No hits found *****" in ref and b"Effective search space used: 0\n" in ref
    assert ref.count(b"\nQuery= ") == len(headers) and b"\nQuery= \x02q300 ctrl\n" in ref
    if not flags:
        assert b"Method: Composition-based stats." in ref
        assert b"Method: Compositional matrix adjust." in ref
        assert b"\nTPA: planted one.\n" not in ref and b"\n>TPA: planted one.\n" in ref
        assert b"\no1 amp & <x> AB &xi; \tt &bogus; end " in ref
        assert b"\nspaces and tabs, commas,, here (paren)  [bracket] " in ref
        assert b"\no3 " + b"x" * 62 + b"...  " in ref and b"\n>wrapped " in ref
    if "-seg" in flags:
        assert re.search(rb"\nQuery  \d+ +[A-Z]*[a-z]+", ref)
    if "1e6" in flags:
        for evalue in (rb"0\.0", rb"\de-\d\d\d", rb"\de-\d\d", rb"0\.\d\d\d", rb"0\.\d\d", rb"\d\.\d",
                       rb"\d\d\d+"):
            assert re.search(rb"\d +%s *\n" % evalue, ref), evalue
        assert re.search(rb"   \d\.\d  ", ref)  # (a bit score below 10)
    os.utime(fasta, (_posted(ref), _posted(ref)))
    for source, stdin in ((query, None), ("-", query.read_bytes())):
        ours = subprocess.run([sys.executable, "-m", "gpuseq.cli", "blastp", "-query", source,
                               "-db", fasta, *flags, "--backend", backend], input=stdin,
                              capture_output=True)  # fmt: skip
        assert ours.returncode == 0, ours.stderr
        assert ours.stdout.splitlines() == ref.splitlines()
        assert ours.stdout == ref


# -subject's outputs: each format once, the report on the GPU where there is one, the XML from
# standard input.
SUBJECT_CASES = [("0", "auto"), ("5", "cpu"), ("15", "cpu"), ("7", "cpu"), ("10", "cpu"),
                 ("6 std sseqid sacc saccver stitle salltitles qcovs btop sallacc staxids",
                  "cpu")]


@pytest.mark.parametrize("outfmt, backend", SUBJECT_CASES)
def test_subject_sequences_are_searched_and_named_as_blastp_does(blast_data, tmp_path, outfmt,
                                                                 backend):
    """-subject FILE: blastp 2.12 scans the subjects as one database (the rows of -db), but
    names each as its FASTA reader names a query: the id is the header's first word, control
    characters and all; stitle and salltitles print N/A; the reports show the defline
    generator's title of the whole header line (non-UTF-8 titles read as Windows-1252),
    "Subject_N" accessions counting empty records, "User specified sequence set (Input:
    FILE)" and no database numbers. Every byte equals blastp's. (The XML leaves out the
    Windows-1252 title: blastp cannot write its euro sign in Latin-1.)"""
    rng = np.random.default_rng(20261204)
    queries = dict(blast_data["queries"])
    records = blast_data["db_fasta"].read_bytes().split(b"\n>")
    # Every sixth subject (planted ones among them) and those with rare letters: O is
    # searched as X in a -subject sequence, as in a query, where a database keeps it.
    kept = [r.lstrip(b">").split(b"\n", 1) for i, r in enumerate(records)
            if i % 6 == 0 or r.startswith(b"rare")]
    odd = [b"TPA: planted", b"ends with dot.", b"t4  two  spaces\tand tab",
           b"t5 &amp; entity &lt;x&gt;", b"t7 caf\xc3\xa9 utf8", b"t8 latin\xe9 mid x",
           b"t9 euro\x80 sign y" if outfmt != "5" else b"t9 (no euro in XML)", b"t10 ctrl\x02here", b"\x01t11 leading ctrl-a",
           b"sp|P12345|NAME_HUMAN desc", b"gi|12345|ref|NP_000001.1| s2 x", b"lcl|loc1 d",
           b"t14,", b"dup same", b"dup same", b"t16 a title long enough to wrap " + b"w " * 40]
    body = [mutated(rng, queries["q300" if i % 2 else "q100"].upper(), 0.7, 0.02).encode()
            for i in range(len(odd))]
    odd.append(b"t19 a homolog with O")  # (its score differs where O is searched as X)
    body.append(b"".join(b"O" if i % 9 == 4 else bytes((c,)) for i, c in enumerate(
        queries["q500"].upper().encode())))
    subjects = [*kept[:40], *zip(odd, body), (b"empty1", b""), *kept[40:]]
    subject = tmp_path / "subjects.fa"
    subject.write_bytes(b"".join(b">%s\n%s\n" % (h, b.strip()) for h, b in subjects))
    headers = [b"q100 first", b"qspecial caf\xc3\xa9 x", b"q300 third", b"allx", b"nohits x"]
    bodies = [queries["q100"], queries["qspecial"], queries["q300"], "X" * 40, "MKV"]
    query = tmp_path / "q.fa"
    query.write_bytes(b"".join(b">%s\n%s\n" % (h, b.encode()) for h, b in zip(headers, bodies)))
    flags = ["-subject", subject.name, "-outfmt", outfmt, "-evalue", "100"]
    ref = subprocess.run([BLASTP, "-query", query, *flags], cwd=tmp_path, capture_output=True,
                         check=True).stdout  # fmt: skip
    # (what the rules say)
    if outfmt == "0":
        assert b"Database: User specified sequence set (Input: subjects.fa)." in ref
        assert b"\n> t8 latin\xc3\xa9 mid x\n" in ref and b"\n> planted\n" in ref
        assert b"\n> t9 euro\xe2\x82\xac sign y\n" in ref and b"Posted date:  Unknown" in ref
        assert b"           %d sequences;" % len(subjects) in ref
    elif outfmt == "5":
        assert b"<Hit_accession>Subject_" in ref and b"<BlastOutput_db></BlastOutput_db>" in ref
    elif outfmt == "15":
        assert b'"bl2seq": [' in ref and b'"Subject_%d"' % len(subjects) in ref
    elif outfmt.startswith("6"):
        assert b"\t\x01t11\t" in ref and b"\tN/A\tN/A\t" in ref and b"\tdup\t" in ref
    stdin = subject.read_bytes() if outfmt == "5" else None
    if stdin is not None:
        flags[1] = "-"
        ref = ref.replace(b"Input: subjects.fa", b"Input: -")
    ours = subprocess.run([sys.executable, "-m", "gpuseq.cli", "blastp", "-query", query,
                           *flags, "--backend", backend], cwd=tmp_path, input=stdin,
                          capture_output=True)  # fmt: skip
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout.splitlines() == ref.splitlines()
    assert ours.stdout == ref


@pytest.mark.parametrize("outfmt, others", [("0", ()), ("5", ("-seg", "yes")),
                                            ("15", ("-seg", "yes")), ("0", ("-seg", "yes")),
                                            ("6 std qseq nident positive", ())])
def test_lcase_masking_masks_the_queries_lower_case_as_blastp(blast_data, tmp_path, outfmt,
                                                              others):
    """-lcase_masking: each run of lower-case query letters is masked as SEG's segments are
    (X in the search and out of the lookup, lower case in the report and the JSON, X in the
    XML), with SEG's segments beside them (joined where they overlap, BlastSeqLocCombine);
    from a FASTA file (gzip too) and from standard input, every byte equal to blastp's."""
    import gzip

    queries = dict(blast_data["queries"])
    rng = np.random.default_rng(20261205)

    def lowered(seq: str, runs: int) -> str:
        letters = list(seq.upper())
        for _ in range(runs):
            start = int(rng.integers(0, len(letters)))
            for i in range(start, min(len(letters), start + int(rng.integers(1, 40)))):
                letters[i] = letters[i].lower()
        return "".join(letters)

    records = [("q100 start and end", "mkv" + lowered(queries["q100"], 2)[3:-2] + "aa"),
               ("q300 runs", lowered(queries["q300"], 6)),
               ("q500 single letters", "".join(c.lower() if i % 50 == 7 else c
                                               for i, c in enumerate(queries["q500"]))),
               ("qbiased", lowered(queries["qbiased"], 3)), ("allower", queries["q100"].lower())]
    query = tmp_path / "q.fa"
    write_fasta(query, records)
    # (the FASTA named as blastp's database, so that the reports name the same one)
    db = tmp_path / "db"
    db.write_bytes(blast_data["db_fasta"].read_bytes())
    subprocess.run([MAKEBLASTDB, "-in", db, "-dbtype", "prot", "-out", db], check=True,
                   capture_output=True)  # fmt: skip
    flags = ["-db", db, "-outfmt", outfmt, "-lcase_masking", "-evalue", "100", *others]
    ref = subprocess.run([BLASTP, "-query", query, *flags], capture_output=True,
                         check=True).stdout  # fmt: skip
    unmasked = subprocess.run([BLASTP, "-query", query, *flags[:4], "-evalue", "100", *others],
                              capture_output=True).stdout
    assert ref != unmasked  # (what the rules say: the masks change the search)
    query_gz = tmp_path / "q.fa.gz"
    query_gz.write_bytes(gzip.compress(query.read_bytes()))
    if outfmt == "0":
        os.utime(db, (_posted(ref), _posted(ref)))
    for source, stdin in ((query, None), (query_gz, None), ("-", query.read_bytes())):
        ours = subprocess.run([sys.executable, "-m", "gpuseq.cli", "blastp", "-query", source,
                               *flags, "--backend", "cpu"], input=stdin,
                              capture_output=True)  # fmt: skip
        assert ours.returncode == 0, ours.stderr
        assert ours.stdout.splitlines() == ref.splitlines()
    # A database keeps no case: refused with the reason.
    packed = tmp_path / "q.gsdb"
    gpuseq.makedb(query, packed)
    with pytest.raises(ValueError, match="lcase_masking"):
        gpuseq.blastp(packed, blast_data["db_fasta"], lcase_masking=True)


@pytest.mark.parametrize("outfmt, others", [
    ("6 std qlen qcovs qcovhsp qseq btop", ()), ("0", ("-seg", "yes")),
    ("5", ("-lcase_masking", "-comp_based_stats", "0")), ("15", ("-seg", "yes")),
    ("7", ("-ungapped", "-comp_based_stats", "0")),
    ("0", ("-lcase_masking", "-query_loc", "+1-2"))])
def test_query_loc_searches_that_part_of_every_query_as_blastp(blast_data, tmp_path, outfmt,
                                                               others):
    """-query_loc start-stop: every query's part is searched (SEG and the lower-case runs on
    it alone), the rows and reports in the whole query's coordinates (masks, O positions,
    alignments), qlen the part's length, the pairwise report's Length the whole query's;
    every byte equals blastp's. The rows differ from the whole queries' and from the part's
    coordinates alone."""
    queries = dict(blast_data["queries"])
    bodies = [queries["q100"][:40] + queries["q100"][40:70].lower() + queries["q100"][70:],
              queries["q300"][:60] + "O" + queries["q300"][61:], queries["qspecial"]]
    query = tmp_path / "q.fa"
    write_fasta(query, [("q100 part", bodies[0]), ("q300", bodies[1]), ("qspecial", bodies[2])])
    flags = ["-outfmt", outfmt, "-evalue", "100", *others]
    if "-query_loc" not in others:
        flags += ["-query_loc", "21-95"]

    def named(report: bytes) -> bytes:  # (the -db each was given; the pairwise report's
        if outfmt == "0":  # title is makeblastdb's, the FASTA's path)
            return report
        return report.replace(str(blast_data["db_fasta"]).encode(), str(blast_data["db"]).encode())

    ref = subprocess.run([BLASTP, "-query", query, "-db", blast_data["db"], *flags],
                         capture_output=True, check=True).stdout  # fmt: skip
    whole = subprocess.run([BLASTP, "-query", query, "-db", blast_data["db"],
                            *flags[:-2]], capture_output=True, check=True).stdout
    assert ref != whole
    ours = subprocess.run([sys.executable, "-m", "gpuseq.cli", "blastp", "-query", query, "-db",
                           blast_data["db_fasta"], *flags, "--backend", "cpu"],
                          capture_output=True)  # fmt: skip
    assert ours.returncode == 0, ours.stderr
    lines = [line for line in named(ours.stdout).splitlines() if b"Posted date" not in line]
    assert lines == [line for line in ref.splitlines() if b"Posted date" not in line]
    if outfmt.startswith("6"):
        assert len(lines) > 20 and all(int(line.split(b"\t")[12]) == 75 for line in lines)
        assert any(int(line.split(b"\t")[6]) > 70 for line in lines)


def test_query_loc_is_read_and_checked_as_blastp(blast_data):
    """-query_loc's text as blastp reads it ('+' taken; spaces, hex, a missing bound, start
    not below stop and bounds below 1 refused, as blastp refuses them), and a range past a
    query's end, which gpuseq refuses so far."""
    q, db = blast_data["query_fasta"], blast_data["db_fasta"]
    for text in ("0-10", "10-5", "5", "5-5", "abc", "3-x", " 5-10", "5-10x", "0x5-10",
                 "-5-10", "5--10"):
        ref = subprocess.run([BLASTP, "-query", q, "-db", blast_data["db"], "-query_loc", text],
                             capture_output=True, text=True)
        assert ref.returncode != 0, text
        run = _gpuseq_blastp("-query", q, "-db", db, "-query_loc", text)
        # (a value starting with '-' is argparse's usage error, with its usage lines)
        assert run.returncode == 1 and (text[0] == "-" or run.stderr.count("\n") == 1), \
            (text, run.stderr)
        with pytest.raises(ValueError, match="query_loc"):
            gpuseq.blastp(q, db, query_loc=text)
    hits = gpuseq.blastp(q, db, query_loc=(11, 60), evalue=100)
    assert (hits.qlen == 50).all() and hits.qstart.min() >= 11 and hits.qend.max() <= 60
    with pytest.raises(gpuseq.UnsupportedOptionError, match="q100.* 100 residues"):
        gpuseq.blastp(q, db, query_loc="50-101")


def test_subject_o_is_searched_as_x(tmp_path):
    """blastp -subject reads a subject as it reads a query, O searched as X
    (GetSequenceProtein), where makeblastdb's database keeps O: the query's own word GXA then
    hits the subject's G(O)A, a second hit on the diagonal, and -subject reports an HSP that
    -db does not; identities still compare the letters as read (X against O differs)."""
    query, subject = tmp_path / "q.fa", tmp_path / "s.fa"
    query.write_text(">qx\nPQCKTSPLSNWHTFLFEYKVYFLEDMSVENQMYHVSRTKCKLGXANVADPAYSMIMDHWIIFVRDDMT"
                     "SELVLEVMVHYVWLRDYP\n")
    subject.write_text(">s1\nMWILGHGCYKSDDFFCDVPTKTIHWQWKRSNDMYESWMHIAKEINGMQCEFICWVYDAEHQLGOA"
                       "NYWEPDNECYAHGESHCAVQYEKDIDLNQGCTRCYEPHKNSWGHCGGMTKEYRGASQWTLN\n")
    subprocess.run([MAKEBLASTDB, "-in", subject, "-dbtype", "prot", "-out", tmp_path / "db"],
                   check=True, capture_output=True)  # fmt: skip
    flags = ["-ungapped", "-comp_based_stats", "0", "-dbsize", "1000", "-outfmt",
             "6 std nident positive btop"]
    by_db = subprocess.run([BLASTP, "-query", query, "-db", tmp_path / "db", *flags],
                           capture_output=True, text=True, check=True).stdout  # fmt: skip
    ref = subprocess.run([BLASTP, "-query", query, "-subject", subject, *flags],
                         capture_output=True, text=True, check=True).stdout  # fmt: skip
    assert "\tKQ2XO2VYAWDE1\n" in ref and "XO" not in by_db  # (what the rules say)
    for backend in ("cpu", "auto"):
        ours = _gpuseq_blastp("-query", query, "-subject", subject, *flags, "--backend", backend)
        assert ours.returncode == 0, ours.stderr
        assert ours.stdout == ref


def test_subject_and_db_are_one_or_the_other(blast_data):
    """blastp takes -db or -subject, one of them; the function db= or subject=."""
    q, db = blast_data["query_fasta"], blast_data["db_fasta"]
    for flags, words in (([], "-db -subject"), (["-db", db, "-subject", db], "not allowed")):
        run = _gpuseq_blastp("-query", q, *flags)
        assert run.returncode == 1 and words in run.stderr
    with pytest.raises(ValueError, match="needs db"):
        gpuseq.blastp(q)
    with pytest.raises(ValueError, match="not both"):
        gpuseq.blastp(q, db, subject=db)
    # The same rows as db=, named as -subject names them.
    by_db = gpuseq.blastp(q, db, comp_based_stats=0, subject_titles=True)
    by_subject = gpuseq.blastp(q, subject=db, comp_based_stats=0, subject_titles=True)
    same = ["qseqid", "sseqid", "pident", "length", "qstart", "qend", "sstart", "send",
            "evalue", "bitscore", "soid"]
    assert by_db[same].equals(by_subject[same]) and len(by_db) > 50
    assert set(by_subject["stitle"]) == {"N/A"} and set(by_db["stitle"]) != {"N/A"}


def test_pairwise_report_of_a_packed_database_equals_blastp(blast_data, tmp_path):
    """A packed database's report names the FASTA it was made from and the time it was
    made; its titles, a name and description one space apart, are blastp's here."""
    packed = tmp_path / "db.gsdb"
    gpuseq.makedb(blast_data["db_fasta"], packed)
    ref = subprocess.run([BLASTP, "-query", blast_data["query_fasta"], "-db", blast_data["db"]],
                         capture_output=True, check=True).stdout  # fmt: skip
    os.utime(packed / "manifest.json", (_posted(ref), _posted(ref)))
    ours = _gpuseq_blastp("-query", blast_data["query_fasta"], "-db", packed)
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout.splitlines() == ref.decode().splitlines()


@pytest.mark.parametrize("outfmt, flags", [("0", ()), ("0", ("-ungapped", "-comp_based_stats",
                                                               "0")),
                                           ("0", ("-searchsp", "1000")), ("5", ()), ("15", ())])
def test_reports_of_queries_without_statistics_equal_blastp(blast_data, tmp_path, outfmt,
                                                            flags):
    """Queries without Karlin-Altschul statistics (all X) show no parameters beside one that
    has them; in a batch where none has them, which blastp does not search, the pairwise
    report shows each one's blocks of -1 (the gapped one in an ungapped search too), and the
    JSON no hits and its "No hits found" twice."""
    for name, text in (("mixed", b">x1\nX\n>q\nMKVLA\n>x5\nXXXXX\n"),
                       ("none", b">x1\nX\n>x5\nXXXXX\n")):
        query = tmp_path / f"{name}.fa"
        query.write_bytes(text)
        ref = subprocess.run([BLASTP, "-query", query, "-db", blast_data["db"], "-outfmt",
                              outfmt, *flags], capture_output=True, check=True).stdout
        if outfmt == "0":
            assert (b"   -1.00    -1.00    -1.00 \n" in ref) == (name == "none")
            os.utime(blast_data["db_fasta"], (_posted(ref), _posted(ref)))
        if outfmt == "15":
            assert (b'"hits"' in ref) == (name == "mixed")
        ours = subprocess.run([sys.executable, "-m", "gpuseq.cli", "blastp", "-query", query,
                               "-db", blast_data["db_fasta"], "-outfmt", outfmt, *flags,
                               "--backend", "cpu"], capture_output=True)  # fmt: skip
        assert ours.returncode == 0, ours.stderr
        db, ours_db = str(blast_data["db"]).encode(), str(blast_data["db_fasta"]).encode()
        assert ours.stdout.replace(ours_db + b"<", db + b"<").replace(
            b'"%s"' % ours_db, b'"%s"' % db) == ref


def test_pairwise_report_flags_are_checked_as_blastp_checks_them(blast_data):
    """-max_target_seqs with -num_descriptions or -num_alignments, a negative count, a line
    length below 1 and no hits kept at all are refused (status 1) as blastp refuses them;
    other formats take the three flags with blastp's warning and leave them unused."""
    q, db = blast_data["query_fasta"], blast_data["db_fasta"]
    for flags in (["-max_target_seqs", "5", "-num_descriptions", "3"],
                  ["-max_target_seqs", "5", "-num_alignments", "3"],
                  ["-num_descriptions", "-1"], ["-line_length", "0"],
                  ["-num_descriptions", "0", "-num_alignments", "0"]):
        ref = subprocess.run([BLASTP, "-query", q, "-db", blast_data["db"], *flags],
                             capture_output=True, text=True)  # fmt: skip
        assert ref.returncode != 0 and ref.stdout == "", flags
        run = _gpuseq_blastp("-query", q, "-db", db, *flags)
        assert run.returncode == 1 and run.stdout == "", (flags, run.stderr)
    flags = ["-outfmt", "6", "-num_descriptions", "3", "-line_length", "20"]
    ref = subprocess.run([BLASTP, "-query", q, "-db", blast_data["db"], *flags],
                         capture_output=True, text=True)  # fmt: skip
    run = _gpuseq_blastp("-query", q, "-db", db, *flags, "--backend", "cpu")
    assert "-num_descriptions is ignored" in ref.stderr and "-line_length is not" in ref.stderr
    assert "-num_descriptions is ignored" in run.stderr and "-line_length is not" in run.stderr
    assert run.stdout.splitlines() == ref.stdout.splitlines()


@pytest.mark.parametrize("title", [b"euro \xe2\x82\xac x", b"x caf\xc3\xa9", b"x \xe9"])
def test_xml_output_refuses_titles_blastp_cannot_write(blast_data, tmp_path, title):
    """A title with a character beyond Latin-1, or one outside ASCII at its end, makes
    blastp's XML writer fail that query's iteration (it writes the others; the first query's
    fails the whole document); gpuseq refuses the search, naming the query. The JSON writer
    garbles a title that ends outside ASCII (it keeps the first byte of the character), and
    gpuseq refuses that too."""
    query = tmp_path / "q.fa"
    query.write_bytes(b">%s\n%s\n" % (title, blast_data["queries"][0][1].encode()))
    ref = subprocess.run([BLASTP, "-query", query, "-db", blast_data["db"], "-outfmt", "5"],
                         capture_output=True, text=True)  # fmt: skip
    assert "NCBI C++ Exception" in ref.stderr and "<Iteration>" not in ref.stdout
    ours = _gpuseq_blastp("-query", query, "-db", blast_data["db_fasta"], "-outfmt", "5")
    assert ours.returncode == 1 and "blastp cannot write" in ours.stderr, ours.stderr
    if title.endswith(b"x"):
        return
    ref = subprocess.run([BLASTP, "-query", query, "-db", blast_data["db"], "-outfmt", "15"],
                         capture_output=True)  # fmt: skip
    assert b'\xc3",\n' in ref.stdout  # (the UTF-8 of its last character cut after a byte)
    ours = _gpuseq_blastp("-query", query, "-db", blast_data["db_fasta"], "-outfmt", "15")
    assert ours.returncode == 1 and "blastp cannot write" in ours.stderr, ours.stderr


@pytest.mark.parametrize("ungapped", [False, True])
def test_positives_of_every_letter_pair_equal_blastp(tmp_path, ungapped):
    """positive and ppos for every pair of blastp's letters, the rare ones (BZXUOJ*) too: each
    query and subject differ only at one column between 40 shared residues on each side. The
    formatter counts U as C and never J, O or '*' (U-C is positive, J-L and B-Z are not)."""
    letters = "ARNDCQEGHILKMFPSTWYVBZXUOJ*"
    rng = np.random.default_rng(80)
    left, right = (random_protein(rng, 40) for _ in range(2))
    queries, subjects = tmp_path / "q.fa", tmp_path / "s.fa"
    write_fasta(queries, [(f"q{i}", left + a + right) for i, a in enumerate(letters)])
    write_fasta(subjects, [(f"s{i}", left + b + right) for i, b in enumerate(letters)])
    subprocess.run([MAKEBLASTDB, "-in", subjects, "-dbtype", "prot", "-out", tmp_path / "db"],
                   check=True, capture_output=True)  # fmt: skip
    flags = ["-query", queries, "-outfmt", "6 qseqid sseqid length nident positive ppos btop",
             "-evalue", "1e5", "-comp_based_stats", "0", *(["-ungapped"] if ungapped else [])]
    ref = subprocess.run([BLASTP, "-db", tmp_path / "db", *flags], capture_output=True,
                         text=True, check=True).stdout.splitlines()  # fmt: skip
    ours = _gpuseq_blastp("-db", subjects, *flags, "--backend", "cpu")
    assert ours.returncode == 0, ours.stderr
    whole = [row.split("\t") for row in ref if row.split("\t")[2] == "81"]
    assert len(whole) == len(letters) ** 2  # (every pair aligned end to end)
    positive = {(letters[int(q[1:])], letters[int(s[1:])]): int(p) > int(n)
                for q, s, _, n, p, _, _ in whole}
    assert sum(positive.values()) > 50  # (mismatched pairs counted positive: 58)
    assert positive["U", "C"] and not positive["J", "L"] and not positive["B", "Z"]
    assert ours.stdout.splitlines() == ref


@pytest.mark.parametrize("outfmt", ["7", "7 qseqid sseqid qseqid score",
                                    "7 evalue std qcovhsp qlen nident gaps positive ppos btop",
                                    "10", "10 sacc qacc std slen"])
def test_commented_and_comma_tabular_output_equals_blastp(blast_data, tmp_path, outfmt):
    """-outfmt 7 (each query's comment lines, its title as blastp takes it from the header
    line: cut at the first control character, tab included, the spaces around it dropped,
    the blanks inside kept, bytes that are not UTF-8 kept) and 10 (commas, unquoted), from a
    FASTA file, its gzip and standard input, against a FASTA and a packed database. Queries
    without hits keep their comment lines; two queries of one name keep their own blocks.
    Every byte equals blastp's, the ``# Database:`` line naming the -db each was given."""
    import gzip

    queries = dict(blast_data["queries"])
    headers = [b"q100 a plain  description", b"q300", b" q500\tcut at the tab",
               b"qspecial  two  spaces\x01merged", b"qbiased \xff\xfe not UTF-8  ",
               b"q100 again\x0bvertical tab", b"a,b none", b"empty_hits x"]
    bodies = [queries["q100"], queries["q300"], queries["q500"], queries["qspecial"],
              queries["qbiased"], queries["q100"], "MKVLA", "WWWWWCCCCC"]
    query = tmp_path / "q.fa"
    query.write_bytes(b"".join(b">%s\n%s\n" % (h, b.encode()) for h, b in zip(headers, bodies)))
    (tmp_path / "q.fa.gz").write_bytes(gzip.compress(query.read_bytes()))
    ref = subprocess.run([BLASTP, "-query", query, "-db", blast_data["db"], "-outfmt", outfmt,
                          "-comp_based_stats", "0", "-evalue", "100"],
                         capture_output=True, check=True).stdout  # fmt: skip
    assert ref.count(b"\n") > 40
    if outfmt.startswith("7"):
        assert ref.count(b"# Query: ") == 8 and b"# 0 hits found" in ref
        assert b"# Query: q500\n" in ref and b"# Query: qbiased \xff\xfe not UTF-8\n" in ref
    packed = tmp_path / "db.gsdb"
    gpuseq.makedb(blast_data["db_fasta"], packed)
    common = [sys.executable, "-m", "gpuseq.cli", "blastp", "-outfmt", outfmt,
              "-comp_based_stats", "0", "-evalue", "100", "--backend", "cpu"]
    for source, stdin, db in ((query, None, blast_data["db_fasta"]),
                              (tmp_path / "q.fa.gz", None, packed),
                              ("-", query.read_bytes(), packed)):
        ours = subprocess.run([*common, "-query", source, "-db", db], input=stdin,
                              capture_output=True)  # fmt: skip
        assert ours.returncode == 0, ours.stderr
        named = ref.replace(b"# Database: %s\n" % str(blast_data["db"]).encode(),
                            b"# Database: %s\n" % str(db).encode())
        assert ours.stdout.splitlines() == named.splitlines(), (source, db)


@pytest.mark.parametrize("ungapped", [False, True])
def test_queries_blastp_does_not_search_have_no_hits_line(blast_data, tmp_path, ungapped):
    """blastp's command reads the queries in batches of 10,000 residues (the batch ends at the
    query that reaches it) and does not search a batch none of whose queries has statistics
    (all X, or masked whole by SEG): with -outfmt 7 those queries have no "# N hits found"
    line, where such a query beside a searched one has "# 0 hits found"."""
    rng = np.random.default_rng(81)
    masked, low = "X" * 30, "A" * 48  # (no statistics; the second once SEG masks it)
    cases = [[masked], [masked, low], [masked, random_protein(rng, 60)],
             [random_protein(rng, 9999), masked], [random_protein(rng, 10000), masked, low],
             [random_protein(rng, 10000), masked, random_protein(rng, 40)]]
    flags = ["-outfmt", "7", "-seg", "yes", "-comp_based_stats", "0",
             *(["-ungapped"] if ungapped else [])]
    for i, queries in enumerate(cases):
        fasta = tmp_path / f"q{i}.fa"
        write_fasta(fasta, [(f"q{k}", seq) for k, seq in enumerate(queries)])
        ref = subprocess.run([BLASTP, "-db", blast_data["db"], "-query", fasta, *flags],
                             capture_output=True, text=True, check=True).stdout  # fmt: skip
        ours = _gpuseq_blastp("-db", blast_data["db_fasta"], "-query", fasta, *flags)
        assert ours.returncode == 0, ours.stderr
        expected = ref.replace(f"# Database: {blast_data['db']}\n",
                               f"# Database: {blast_data['db_fasta']}\n")
        assert ours.stdout == expected, queries
        assert ("hits found" in ref) == (i != 0 and i != 1), i  # (what the rule says)


def test_translation_by_blocks_equals_one_lookup():
    """Databases larger than a block are translated to NCBIstdaa on several threads: every
    code of every block as one table lookup gives it (the block edges included)."""
    rng = np.random.default_rng(7)
    residues = rng.integers(0, 29, (1 << 22) * 3 + 5, dtype=np.uint8)
    table = blast._EASEL_TO_NCBI
    np.testing.assert_array_equal(blast._translated(residues, table), table[residues])


@pytest.mark.parametrize("ungapped", [False, True])
def test_columns_equal_the_frame_and_the_command_imports_no_pandas(blast_data, tmp_path, ungapped):
    """as_frame=False gives the DataFrame's columns as arrays (aligned_sequences=True: qseq and
    sseq too), which write_tabular writes as it writes the frame; the command line takes that
    path and never imports pandas. Without the aligned sequences, btop is refused."""
    options = {"comp_based_stats": 0, "ungapped": ungapped, "evalue": 100.0,
               "aligned_sequences": True}
    frame = gpuseq.blastp(blast_data["query_fasta"], blast_data["db_fasta"], **options)
    columns = gpuseq.blastp(blast_data["query_fasta"], blast_data["db_fasta"], as_frame=False,
                            **options)  # fmt: skip
    assert len(frame) > 30 and list(columns) == list(frame.columns) == [
        *blast.OUTFMT6_COLUMNS, *blast.ALIGNED_COLUMNS]
    for name in frame.columns:
        assert columns[name].tolist() == frame[name].tolist(), name
    written = {}
    for kind, hits in (("frame", frame), ("columns", columns)):
        written[kind] = tmp_path / f"{kind}.tsv"
        blast.write_tabular(hits, written[kind], [*OUTFMT.split()[1:], "btop"])
    assert written["frame"].read_text() == written["columns"].read_text()
    plain = gpuseq.blastp(blast_data["query_fasta"], blast_data["db_fasta"], as_frame=False,
                          **{**options, "aligned_sequences": False})  # fmt: skip
    assert list(plain) == blast.OUTFMT6_COLUMNS
    with pytest.raises(ValueError, match="aligned_sequences=True"):
        blast.write_tabular(plain, tmp_path / "plain.tsv", ["qseqid", "btop"])
    flags = ["-ungapped"] if ungapped else []
    script = ("import sys, gpuseq.cli; rc = gpuseq.cli.main(sys.argv[1:]); "
              "assert 'pandas' not in sys.modules, 'pandas was imported'; sys.exit(rc)")
    argv = ["blastp", "-query", blast_data["query_fasta"], "-db", blast_data["db_fasta"],
            "-out", tmp_path / "cli.tsv", "-outfmt", OUTFMT + " btop", "-evalue", "100",
            "-comp_based_stats", "0", *flags]
    run = subprocess.run([sys.executable, "-c", script, *map(str, argv)], capture_output=True,
                         text=True)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "cli.tsv").read_text() == written["frame"].read_text()


@pytest.mark.parametrize("ungapped", [True, False])
def test_counters_count_the_search(blast_data, ungapped):
    """counters= gets the search's counts and seconds by stage, the rows unchanged; for one
    query the ungapped stage's counts equal those of the stage alone (_core.blast_ungapped_hsps
    with the query's X-drop and cutoff)."""
    codes, offsets, _ = blast.encode(blast_data["db_fasta"])
    qcodes, qoffsets, _ = blast.encode(blast_data["query_fasta"])
    query = qcodes[qoffsets[0] : qoffsets[1]]
    options = {"ungapped": ungapped, "comp_based_stats": 0, "evalue": 100}
    counters: dict = {}
    hits = gpuseq.blastp([("q", query_letters(query))], blast_data["db_fasta"],
                         counters=counters, **options)  # fmt: skip
    plain = gpuseq.blastp([("q", query_letters(query))], blast_data["db_fasta"], **options)
    assert blast.outfmt6_lines(hits) == blast.outfmt6_lines(plain)
    stages = {"lookup", "scan", "lists"} | (set() if ungapped else {"traceback"})
    assert stages <= set(counters["seconds"])
    assert all(v >= 0 for v in counters["seconds"].values())
    st = blast.query_statistics(query, int(offsets[-1]), len(offsets) - 1, evalue=100)
    cutoff = st["word_cutoff"] if ungapped else None
    if cutoff is not None:
        rows, alone = _core.blast_ungapped_hsps(query, codes, offsets, st["x_drop"], cutoff)
        assert counters["ungapped_hsps"] == len(rows["score"]) > 0
        assert (counters["word_hits"], counters["extensions"]) == (
            alone["word_hits"], alone["extensions"])
    assert counters["extensions"] > 0 and counters["word_hits"] > counters["extensions"]


def query_letters(codes: np.ndarray) -> str:
    return "".join(_core.blast_letters[c] for c in codes)
