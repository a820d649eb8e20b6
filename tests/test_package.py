"""The package's surface: ``import gpuseq`` stays light (names load on first use), every public
name resolves, and the typed stubs of the extension cover what it exports."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys

import gpuseq

HEAVY = ("pandas", "pyhmmer", "tqdm", "numpy", "gpuseq._core", "gpuseq.hmmsearch")


def _modules_after(code: str) -> set:
    """sys.modules of a fresh interpreter after running ``code``: which heavy ones loaded."""
    probe = f"{code}\nimport json, sys\n"
    probe += f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.splitlines()[-1]))


def test_import_loads_no_heavy_dependency():
    assert _modules_after("import gpuseq") == set()


def test_cli_help_loads_no_heavy_dependency():
    code = "import contextlib, io\nfrom gpuseq import cli\n"
    code += "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
    code += "    cli.main(['--help'])"
    assert _modules_after(code) == set()


def test_public_names_resolve():
    for name in gpuseq.__all__:
        value = getattr(gpuseq, name)
        assert value is not None, name
        if name != "__version__":
            assert getattr(value, "__module__", "").startswith("gpuseq"), name
    assert set(gpuseq.__all__) <= set(dir(gpuseq))


def test_public_names_are_the_defining_objects():
    from gpuseq.distance import pairwise_distances
    from gpuseq.errors import GpuseqError
    from gpuseq.hmmsearch import hmmsearch

    assert gpuseq.hmmsearch is hmmsearch
    assert gpuseq.pairwise_distances is pairwise_distances
    assert gpuseq.GpuseqError is GpuseqError


def test_unknown_name_raises_attribute_error():
    try:
        gpuseq.no_such_name  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("gpuseq.no_such_name resolved")


def _stub_names(tree) -> dict[str, set[str]]:
    """Top-level names of a stub file, and for each class the names it declares."""
    import ast

    names: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            members = set()
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.FunctionDef):
                        members.add(item.name)
                    elif isinstance(item, ast.AnnAssign):
                        members.add(item.target.id)
            names[node.name] = members
        elif isinstance(node, ast.AnnAssign):
            names[node.target.id] = set()
        elif isinstance(node, ast.Assign):
            names.update({t.id: set() for t in node.targets})
    return names


def test_core_stubs_cover_the_extension():
    """_core.pyi declares every name the compiled module exports (b1_*, gpu_* and Gpu* exist
    only in CUDA builds), every public member of its classes, and nothing it lacks."""
    import ast
    from pathlib import Path

    from gpuseq import _core

    stubs = _stub_names(ast.parse(Path(gpuseq.__file__).with_name("_core.pyi").read_text()))
    stubs = {n: m for n, m in stubs.items() if not n.startswith("_")}  # stub-only aliases
    exported = {n for n in dir(_core) if not n.startswith("_")}
    cuda_only = {n for n in stubs if n.startswith(("b1_", "gpu_", "Gpu"))}
    assert exported - set(stubs) == set()
    assert set(stubs) - exported - cuda_only == set()
    if _core.built_with_cuda:
        assert cuda_only <= exported
    for name, members in stubs.items():
        obj = getattr(_core, name, None)
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            public = {m for m in vars(obj) if not m.startswith("_")}
            assert public == {m for m in members if not m.startswith("_")}, name
    assert (Path(gpuseq.__file__).with_name("py.typed")).exists()
