"""The one place that uses a pyhmmer internal: the state of a ``TopHits``.

pyhmmer's public API has no setter for the pipeline's counters and no getter for some of them
(the "Passed ... filter" counts, nres, nnodes, how Z was set), and no way to take hits out of
a ``TopHits``. ``TopHits.__getstate__()`` (made for pickling) returns the pipeline as
``state["pipeline"]``, a dict of HMMER's P7_PIPELINE fields, and the hits as HMMER's P7_TOPHITS
keeps them (``unsrt``: the hits in the order they were found, ``hit``: their sorted order, as
indices into ``unsrt``; ``N``), and ``__setstate__`` takes them back. A pyhmmer that lays that
state out differently must fail here, with a message saying so, not deep inside a writer.
"""

from __future__ import annotations

from typing import Any

from . import _pyhmmer
from .errors import GpuseqError

__all__ = ["PyhmmerStateError", "found_order", "pipeline_state", "set_pipeline_state",
           "without_hits"]

# The P7_PIPELINE fields gpuseq reads (report statistics, HmmsearchResult.pipeline) or writes
# (the whole search's counters and filter settings).
PIPELINE_FIELDS = frozenset(
    {
        "nmodels",
        "nnodes",
        "nseqs",
        "nres",
        "n_past_msv",
        "n_past_bias",
        "n_past_vit",
        "n_past_fwd",
        "F1",
        "F2",
        "F3",
        "do_biasfilter",
        "do_max",
        "Z",
        "domZ",
        "Z_setby",
        "domZ_setby",
        "mode",
        "long_targets",
    }
)


class PyhmmerStateError(GpuseqError, RuntimeError):
    """The installed pyhmmer keeps its TopHits pipeline state in a layout gpuseq does not
    know."""


def _state(top: Any) -> dict:
    try:
        state = top.__getstate__()
        pipeline = state["pipeline"]
        missing = PIPELINE_FIELDS - set(pipeline)
    except (AttributeError, KeyError, TypeError) as exc:
        raise _layout_error(f"TopHits.__getstate__() has no 'pipeline' dict ({exc!r})") from exc
    if missing:
        raise _layout_error(f"its pipeline state lacks {', '.join(sorted(missing))}")
    return state


def _layout_error(what: str) -> PyhmmerStateError:
    try:
        _pyhmmer.load()
        import pyhmmer

        version = pyhmmer.__version__
    except Exception:  # pragma: no cover - pyhmmer is a dependency
        version = "?"
    return PyhmmerStateError(
        f"pyhmmer {version}: {what}. gpuseq reads HMMER's pipeline counters from pyhmmer's "
        "TopHits state; install a pyhmmer version that pyproject.toml allows."
    )


def pipeline_state(top: Any) -> dict[str, Any]:
    """HMMER's pipeline counters and settings of one ``TopHits`` (a copy)."""
    return dict(_state(top)["pipeline"])


def set_pipeline_state(top: Any, **values: Any) -> None:
    """Overwrite pipeline fields of ``top`` (names of PIPELINE_FIELDS)."""
    unknown = set(values) - PIPELINE_FIELDS
    if unknown:
        raise ValueError(f"not a pipeline field gpuseq writes: {', '.join(sorted(unknown))}")
    state = _state(top)
    state["pipeline"].update(values)
    top.__setstate__(state)


def _hit_lists(state: dict) -> tuple[list, list[int]]:
    try:
        unsrt, order, n = state["unsrt"], list(state["hit"]), state["N"]
    except KeyError as exc:
        raise _layout_error(f"its state has no {exc.args[0]!r}") from None
    if len(order) != n or len(unsrt) < n or sorted(order) != list(range(n)):
        raise _layout_error("its 'hit' list is not an order of its N hits in 'unsrt'")
    return list(unsrt[:n]), order


def found_order(top: Any) -> list[int]:
    """The ranks of ``top``'s hits (its sorted order) in the order the pipeline found them,
    which is the order of the targets it was given."""
    _, order = _hit_lists(_state(top))
    ranks = [0] * len(order)
    for rank, found in enumerate(order):
        ranks[found] = rank
    return ranks


def without_hits(top: Any, ranks: set[int]) -> Any:
    """A ``TopHits`` of the same query holding ``top``'s hits but those at ``ranks`` (its
    sorted order), in the same order, flags as they were."""
    from pyhmmer.plan7 import TopHits

    state = _state(top)
    unsrt, order = _hit_lists(state)
    gone = {order[rank] for rank in ranks}
    renumbered: dict[int, int] = {}
    kept = []
    for found, hit in enumerate(unsrt):
        if found not in gone:
            renumbered[found] = len(kept)
            kept.append(hit)
    state.update(unsrt=kept, hit=[renumbered[f] for f in order if f not in gone], N=len(kept))
    left = [top[rank] for rank in range(len(order)) if rank not in ranks]
    state.update(nreported=sum(hit.reported for hit in left),
                 nincluded=sum(hit.included for hit in left))
    copy = TopHits(top.query)  # (as pickle makes one: its query, then its state)
    copy.__setstate__(state)
    return copy
