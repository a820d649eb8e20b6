"""benchmarks/anchors.py: reading MMseqs2-GPU libmarv `align --verbose` output, and the rows
it gives when the binary is missing or fails (no GPU needed).

The sample output below is written from the format statements of libmarv's sources
(soedinglab/MMseqs2 lib/libmarv/src at f71d0a6: printOptions in options.cpp, main() in
main.cu, CudaSW4::printDBInfo and the PSSM set-up lines in cudasw4.cuh, CpuTimer::print in
hpc_helpers/timers.cuh), with iostream's default double format; the figures in it are made up
so that GCUPS = query length x 1,024,000,000 residues / seconds / 1e9, as align computes it.
"""

import os
import stat
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import anchors  # noqa: E402

SAMPLE = """\
Selected options:
verbose: 1
interactive: 0
loadFullDBToGpu: 1
prefetchDBFile: 0
numTopOutputs: 0
gop: -11
gex: -1
maxBatchBytes: 134217728
maxBatchSequences: 10000000
maxTempBytes: 4294967296
queryFile 0 : /tmp/marv-x/queries.fa
blosum: BLOSUM62
Using built-in pseudo db with 2000000 sequences of length 512. All sequences are different
memory limit per gpu: unlimited
Output mode: Plain
Output file: /dev/stdout
Scan type: Gapless
File with subject Ids:  unspecified
kernelConfigsFile_gapless: unspecified
kernelConfigsFile_sw: unspecified
allowInt8: 0
Will use GPU 0
Set scan type to Gapless
Generating pseudo db
# elapsed time (Generate DB): 9.81234s
2000000 sequences, 1024000000 characters
Min length 512, max length 512, avg length 512
Processing query file /tmp/marv-x/queries.fa
Processing query 0 ... Query length 50. Set up PSSM for single-tile processing. \
Tilesize 64 = 32 * 1 * 2, datatype: Short2, approach: kernelparamzero
Done. Scan time: 0.0512 s, 1000 GCUPS
Processing query 1 ... Query length 50. Set up PSSM for single-tile processing. \
Tilesize 64 = 32 * 1 * 2, datatype: Short2, approach: kernelparamzero
Done. Scan time: 0.00512 s, 10000 GCUPS
Processing query 2 ... Query length 50. Set up PSSM for single-tile processing. \
Tilesize 64 = 32 * 1 * 2, datatype: Short2, approach: kernelparamzero
Done. Scan time: 0.0064 s, 8000 GCUPS
Processing query 3 ... Query length 50. Set up PSSM for single-tile processing. \
Tilesize 64 = 32 * 1 * 2, datatype: Short2, approach: kernelparamzero
Done. Scan time: 0.004096 s, 12500 GCUPS
Processing query 4 ... Query length 400. Set up PSSM for single-tile processing. \
Tilesize 512 = 64 * 4 * 2, datatype: Short2, approach: kernelparamzero
Done. Scan time: 0.0256 s, 16000 GCUPS
Processing query 5 ... Query length 400. Set up PSSM for single-tile processing. \
Tilesize 512 = 64 * 4 * 2, datatype: Short2, approach: kernelparamzero
Done. Scan time: 0.02048 s, 20000 GCUPS
Processing query 6 ... Query length 400. Set up PSSM for single-tile processing. \
Tilesize 512 = 64 * 4 * 2, datatype: Short2, approach: kernelparamzero
Done. Scan time: 0.032 s, 12800 GCUPS
Total time: 0.146 s, 9117.81 GCUPS
"""


def test_parse_reads_every_scan_in_order():
    parsed = anchors.parse_align_output(SAMPLE)
    assert parsed["db_sequences"] == 2_000_000
    assert parsed["db_residues"] == 1_024_000_000
    scans = parsed["scans"]
    assert [s["query_length"] for s in scans] == [50, 50, 50, 50, 400, 400, 400]
    assert [s["gcups"] for s in scans] == [1000, 10000, 8000, 12500, 16000, 20000, 12800]
    assert scans[2]["seconds"] == pytest.approx(0.0064)
    assert "datatype: Short2" in scans[0]["setup"]
    # "Total time: ... GCUPS" is the whole run, not a scan.
    assert 9117.81 not in [s["gcups"] for s in scans]


def test_parse_reads_exponent_notation():
    # iostream's default format switches to an exponent below 1e-4 and from 1e6 up.
    text = "Processing query 0 ... Done. Scan time: 9.5e-05 s, 1.07789e+06 GCUPS\n"
    (scan,) = anchors.parse_align_output(text)["scans"]
    assert scan["seconds"] == pytest.approx(9.5e-05)
    assert scan["gcups"] == pytest.approx(1.07789e06)


def _fake_align(tmp_path: Path, output: str, status: int = 0) -> Path:
    """A stand-in for align: records its arguments and query FASTA, prints `output`."""
    (tmp_path / "output.txt").write_text(output)
    script = tmp_path / "align"
    script.write_text(
        "#!/bin/sh\n"
        f'echo "$@" >> "{tmp_path}/argv.txt"\n'
        f'cp "$2" "{tmp_path}/queries.fa"\n'
        f'cat "{tmp_path}/output.txt"\n'
        f"exit {status}\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


@pytest.mark.skipif(os.name != "posix", reason="the stand-in is a shell script")
def test_rows_are_medians_of_the_repeats_without_the_warmup(tmp_path):
    align = _fake_align(tmp_path, SAMPLE)
    rows = anchors.run_mmseqs_align(align, [50, 400], scan_types=["Gapless"], repeats=3)
    assert [(r["scan_type"], r["query_length"]) for r in rows] == [("Gapless", 50),
                                                                  ("Gapless", 400)]
    assert all(r["error"] is None for r in rows)
    assert rows[0]["gcups"] == 10000 and rows[0]["tcups"] == pytest.approx(10.0)
    assert rows[0]["seconds"] == pytest.approx(0.00512)
    assert rows[1]["gcups"] == 16000 and rows[1]["seconds"] == pytest.approx(0.0256)
    argv = (tmp_path / "argv.txt").read_text().split()
    tail = "--pseudodb 2000000 512 0 --uploadFull --top 0 --verbose --scanType Gapless".split()
    assert argv[0] == "--query" and argv[2:] == tail
    fasta = (tmp_path / "queries.fa").read_text().splitlines()
    assert [len(line) for line in fasta[1::2]] == [50, 50, 50, 50, 400, 400, 400]
    assert set("".join(fasta[1::2])) <= set("ACDEFGHIKLMNPQRSTVWY")


@pytest.mark.skipif(os.name != "posix", reason="the stand-in is a shell script")
def test_relative_path_is_not_looked_up_on_path(tmp_path, monkeypatch):
    _fake_align(tmp_path, SAMPLE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")  # the stand-in needs cp and cat
    rows = anchors.run_mmseqs_align("./align", [50, 400], scan_types=["Gapless"], repeats=3)
    assert all(r["error"] is None for r in rows)


def test_missing_binary_gives_error_rows(tmp_path):
    rows = anchors.run_mmseqs_align(tmp_path / "nowhere" / "align", [100, 200])
    assert len(rows) == 4  # two scan types x two lengths
    assert {r["scan_type"] for r in rows} == {"Gapless", "SW_Endpos"}
    for row in rows:
        assert row["tcups"] is None and "not found" in row["error"]
        assert "--pseudodb 2000000 512 0" in row["command"]


@pytest.mark.skipif(os.name != "posix", reason="the stand-in is a shell script")
def test_failing_binary_gives_error_rows_with_its_output(tmp_path):
    # What align printed on the (driverless) dev host: a CUDA error, then exit(1) (CUERR).
    printed = ("Selected options:\nCUDA error: CUDA driver version is insufficient for CUDA "
               "runtime version : /tmp/marv-src/lib/libmarv/src/main.cu, line 140\n")
    align = _fake_align(tmp_path, printed, status=1)
    rows = anchors.run_mmseqs_align(align, [100], scan_types=["SW_Endpos"])
    (row,) = rows
    assert row["tcups"] is None
    assert "exit status 1" in row["error"] and "driver version is insufficient" in row["error"]


@pytest.mark.skipif(os.name != "posix", reason="the stand-in is a shell script")
def test_too_few_scans_is_an_error(tmp_path):
    align = _fake_align(tmp_path, SAMPLE)  # 7 scans; 2 lengths x 4 repeats + 1 need 9
    rows = anchors.run_mmseqs_align(align, [50, 400], scan_types=["Gapless"], repeats=4)
    assert all(r["tcups"] is None and "7 of 9 scans" in r["error"] for r in rows)


def test_published_anchors_name_their_source():
    for a in anchors.ANCHORS:
        assert a["source"] and a["tcups"]


def test_compare_takes_our_best_row_per_filter(capsys):
    ours = [
        dict(M=50, filter="ssv", lane_bits=8, variant="warp", gpu_gcups=15000.0),
        dict(M=50, filter="ssv", lane_bits=16, variant="S=4", gpu_gcups=20000.0),
        dict(M=50, filter="msv", lane_bits=16, variant="warp", gpu_gcups=90000.0),
        dict(M=50, filter="viterbi", lane_bits=16, variant="warp", gpu_gcups=300.0),
        dict(M=99, filter="ssv", lane_bits=16, variant="warp", gpu_gcups=1000.0),
    ]
    theirs = [
        dict(scan_type="Gapless", query_length=50, gcups=10000.0, error=None),
        dict(scan_type="SW_Endpos", query_length=50, gcups=1200.0, error=None),
        dict(scan_type="Gapless", query_length=99, gcups=None, error="exit status 1"),
    ]
    m50, m99 = anchors.compare(ours, theirs)
    assert m50["ssv_gcups"] == 20000.0 and m50["ssv_variant"] == "16-bit S=4"
    assert m50["ssv_over_Gapless"] == pytest.approx(2.0)
    assert m50["viterbi_over_SW_Endpos"] == pytest.approx(0.25)
    assert m99["Gapless_gcups"] is None and m99["ssv_over_Gapless"] is None
    assert m99["viterbi_gcups"] is None
    record = anchors.bench_anchors(None, [50, 99], ours)  # no binary: published figures only
    assert record["rows"] == [] and record["published"] == anchors.ANCHORS
    assert "CUDAMPF++ SSV on Tesla K40" in capsys.readouterr().out
