"""The one place that uses a pyhmmer internal: the pipeline state inside ``TopHits``.

pyhmmer's public API has no setter for the pipeline's counters and no getter for some of them
(the "Passed ... filter" counts, nres, nnodes, how Z was set). ``TopHits.__getstate__()`` (made
for pickling) returns them as ``state["pipeline"]``, a dict of HMMER's P7_PIPELINE fields, and
``__setstate__`` takes them back. A pyhmmer that lays that state out differently must fail
here, with a message saying so, not deep inside a writer.
"""

from __future__ import annotations

from typing import Any

from . import _pyhmmer
from .errors import GpuseqError

__all__ = ["PyhmmerStateError", "pipeline_state", "set_pipeline_state"]

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
