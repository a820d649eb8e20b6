"""gpuseq reads and writes HMMER's pipeline counters through pyhmmer's TopHits state (the one
pyhmmer internal it uses, python/gpuseq/_pyhmmer_state.py). On the installed pyhmmer the state
must hold what hmmsearch 3.3.2 prints for the same search; on a pyhmmer whose layout changed,
gpuseq must stop with a message that says so."""

from __future__ import annotations

import io
import subprocess

import pytest
from pyhmmer.easel import Alphabet, DigitalSequenceBlock, SequenceFile
from pyhmmer.plan7 import HMMFile, Pipeline

from conftest import HMMER_EXAMPLES
from gpuseq._pyhmmer_state import (
    PIPELINE_FIELDS,
    PyhmmerStateError,
    found_order,
    pipeline_state,
    set_pipeline_state,
    without_hits,
)
from synthetic import require_tool

TUTORIAL = HMMER_EXAMPLES / "tutorial"


def _search(hmm_path, fasta):
    with HMMFile(hmm_path) as f:
        hmm = next(iter(f))
    with SequenceFile(str(fasta), digital=True, alphabet=Alphabet.amino()) as f:
        return Pipeline(hmm.alphabet).search_hmm(hmm, f.read_block())


def test_state_holds_the_counters_hmmsearch_prints():
    hmm, fasta = TUTORIAL / "globins4.hmm", TUTORIAL / "globins45.fa"
    state = pipeline_state(_search(hmm, fasta))
    assert PIPELINE_FIELDS <= set(state)
    text = subprocess.run(
        [require_tool("hmmsearch"), str(hmm), str(fasta)],
        check=True, capture_output=True, text=True,
    ).stdout
    printed = {line.split(":")[0]: line.split() for line in text.splitlines() if ":" in line}
    assert state["nseqs"] == int(printed["Target sequences"][2])
    assert state["nres"] == int(printed["Target sequences"][3].lstrip("("))
    assert state["nnodes"] == int(printed["Query model(s)"][3].lstrip("("))
    for label, key in (
        ("Passed MSV filter", "n_past_msv"),
        ("Passed bias filter", "n_past_bias"),
        ("Passed Vit filter", "n_past_vit"),
        ("Passed Fwd filter", "n_past_fwd"),
    ):
        assert state[key] == int(printed[label][3]), label
    assert (state["F1"], state["F2"], state["F3"]) == pytest.approx((0.02, 1e-3, 1e-5))
    assert state["Z"] == float(printed["Initial search space (Z)"][4])


def test_written_state_is_kept():
    top = _search(TUTORIAL / "globins4.hmm", TUTORIAL / "globins45.fa")
    set_pipeline_state(top, nseqs=12345, n_past_msv=321, Z_setby=0)
    state = pipeline_state(top)
    assert (state["nseqs"], state["n_past_msv"], state["Z_setby"]) == (12345, 321, 0)
    assert len(top) == 45  # the hits survive the round trip
    with pytest.raises(ValueError, match="not a pipeline field"):
        set_pipeline_state(top, n_past_everything=1)


def test_hits_taken_out_leave_the_search_of_the_other_targets():
    """without_hits: the hits of the targets left are those of a search of those targets
    alone, once thresholds are applied again (merge); found_order gives the targets' order."""
    with HMMFile(TUTORIAL / "globins4.hmm") as f:
        hmm = next(iter(f))
    with SequenceFile(str(TUTORIAL / "globins45.fa"), digital=True,
                      alphabet=Alphabet.amino()) as f:  # fmt: skip
        seqs = list(f)
    top = Pipeline(hmm.alphabet, Z=45).search_hmm(hmm, DigitalSequenceBlock(hmm.alphabet, seqs))
    assert [top[rank].name for rank in found_order(top)] == [s.name for s in seqs]
    ranks = {0, 7, 30, 44}
    gone = {top[rank].name for rank in ranks}
    alone = Pipeline(hmm.alphabet, Z=45).search_hmm(
        hmm, DigitalSequenceBlock(hmm.alphabet, [s for s in seqs if s.name not in gone]))

    def written(hits):
        out = []
        for fmt in ("targets", "domains"):
            buf = io.BytesIO()
            hits.merge().write(buf, format=fmt, header=False)
            out.append(buf.getvalue())
        return out

    kept = without_hits(top, ranks)
    assert len(kept) == 41 and len(top) == 45
    assert written(kept) == written(alone)
    assert pipeline_state(kept) == pipeline_state(top)


class _ChangedTopHits:
    """A TopHits as a pyhmmer with another state layout would give it."""

    def __init__(self, state):
        self.state = state

    def __getstate__(self):
        return self.state


def test_a_changed_layout_fails_with_a_clear_message():
    good = pipeline_state(_search(TUTORIAL / "globins4.hmm", TUTORIAL / "globins45.fa"))
    lacking = {k: v for k, v in good.items() if k != "n_past_msv"}
    with pytest.raises(PyhmmerStateError, match=r"pyhmmer \S+: .*lacks n_past_msv"):
        pipeline_state(_ChangedTopHits({"pipeline": lacking}))
    with pytest.raises(PyhmmerStateError, match="has no 'pipeline' dict"):
        pipeline_state(_ChangedTopHits({"pli": good}))
    with pytest.raises(PyhmmerStateError, match="install a pyhmmer version"):
        set_pipeline_state(_ChangedTopHits(None), nseqs=1)
