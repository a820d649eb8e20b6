"""A 200,000-target database with homologs planted by hmmemit from five models of 71 to 1,142
nodes: gpuseq.hmmsearch's tblout/domtblout rows and pass counts equal Debian's hmmsearch 3.3.2
and pyhmmer's hmmsearch (HMMER 3.4)."""

from __future__ import annotations

import io
import os

import numpy as np
import pyhmmer
import pytest
from pyhmmer.easel import Alphabet, SequenceFile
from pyhmmer.plan7 import HMMFile

import gpuseq
from gpuseq._pyhmmer_state import pipeline_state
from synthetic import hmmemit, mutate, plant, random_proteins
from test_hmmsearch import COUNTERS, hmmsearch_332, rows, same_rows, written_as_hmmsearch

N_BACKGROUND = 200_000
MODELS = ("RRM_1", "globins4", "Pkinase", "Patched", "SMC_N")  # M = 71, 149, 260, 803, 1142
CPUS = max(1, min(4, os.cpu_count() or 1))

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def planted_db(tmp_path_factory, example_models):
    """Background proteins (HMMER's residue frequencies, log-normal lengths) with 100 homologs
    per model: 40 as emitted, 60 with 20-70% of residues replaced (near the thresholds)."""
    rng = np.random.default_rng(2026)
    names, seqs = [], []
    for i, s in enumerate(random_proteins(rng, N_BACKGROUND, mean_length=250)):
        names.append(f"bg{i}")
        seqs.append(s)
    for m in MODELS:
        for j, homolog in enumerate(hmmemit(example_models[m], 100, seed=17)):
            if j >= 40:
                homolog = mutate(rng, homolog, float(rng.uniform(0.2, 0.7)))
            names.append(f"{m}_{j}")
            seqs.append(plant(rng, homolog))
    order = rng.permutation(len(seqs))
    path = tmp_path_factory.mktemp("large") / "planted.fa"
    with open(path, "w") as f:
        for i in order:
            f.write(f">{names[i]} planted test target\n{seqs[i]}\n")
    return path


@pytest.fixture(scope="module")
def pyhmmer_block(planted_db):
    with SequenceFile(str(planted_db), digital=True, alphabet=Alphabet.amino()) as f:
        return f.read_block()


@pytest.mark.parametrize("model", MODELS)
def test_planted_database_equals_hmmsearch_and_pyhmmer(
    model, example_models, planted_db, pyhmmer_block, tmp_path
):
    hmm_path = example_models[model]
    res = gpuseq.hmmsearch(hmm_path, planted_db, cpus=CPUS)
    tbl, dom = io.StringIO(), io.StringIO()
    res.write_tblout(tbl)
    res.write_domtblout(dom)
    ours_tbl, ours_dom = rows(tbl.getvalue()), rows(dom.getvalue())

    ref_tbl, ref_dom, text = hmmsearch_332(hmm_path, planted_db, ["--noali"], tmp_path, CPUS)
    assert same_rows(ours_tbl, ref_tbl)
    assert same_rows(ours_dom, ref_dom)

    with HMMFile(hmm_path) as f:
        hmm = next(iter(f))
    (top,) = list(pyhmmer.hmmsearch([hmm], pyhmmer_block, cpus=CPUS))
    for fmt, ours in (("targets", ours_tbl), ("domains", ours_dom)):
        assert same_rows(ours, rows(written_as_hmmsearch(top, fmt)))
    ref_counts = {k: pipeline_state(top)[k] for k in COUNTERS}
    ours_counts = res.pipeline.iloc[0][list(COUNTERS)].to_dict()
    assert ours_counts == ref_counts
    # hmmsearch 3.3.2 prints the same counters.
    for label, key in (
        ("Passed MSV filter:", "n_past_msv"),
        ("Passed bias filter:", "n_past_bias"),
        ("Passed Vit filter:", "n_past_vit"),
        ("Passed Fwd filter:", "n_past_fwd"),
    ):
        line = next(x for x in text.splitlines() if x.startswith(label))
        assert int(line.split()[3]) == ours_counts[key], label
    assert ours_counts["nseqs"] == N_BACKGROUND + 100 * len(MODELS)
    # The planted homologs are found (most of the unmutated ones at least).
    found = {name for name in res.hits.target_name if name.startswith(model + "_")}
    assert len(found) >= 40
