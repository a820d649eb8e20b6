#!/usr/bin/env python3
"""Which sources a benchmark or GPU-host run measured, taken from the tree itself.

``source_info()`` is what every benchmark records under ``software.git``:

* with a git repository: ``commit`` (HEAD), ``dirty`` (tracked files differ from HEAD) and
  ``changed`` (those files);
* always: ``source_hash``, a SHA-256 over the path and bytes of every source file (C++/CUDA,
  Python, build files, tests, benchmark scripts), so a copy of the tree without ``.git`` (the
  lent GPU machine gets one) still names exactly what ran. ``commit`` is then
  ``"tree:<first 12 hex digits>"``.

``GPUSEQ_GIT_COMMIT``, when set, is kept as ``stated_commit``: what the caller says it copied,
not evidence, unless the local git objects hold that commit and its source hash equals the
tree's (a copy with a stale ``.git``): then it becomes ``commit``, not dirty. To check a copy
against a commit, compare its ``source_hash`` with::

    python benchmarks/provenance.py --rev <commit>     # the hash of that commit's sources
    python benchmarks/provenance.py                    # this tree's record, as JSON
    python benchmarks/provenance.py --short            # the name used for result folders
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# What counts as source: the files that decide what a build does and what a run measures.
_SOURCE_DIRS = ("cpp", "cuda", "python/gpuseq", "tests", "benchmarks")
_SOURCE_FILES = ("CMakeLists.txt", "pyproject.toml")
_SOURCE_SUFFIXES = (".cpp", ".hpp", ".h", ".c", ".cu", ".cuh", ".py", ".pyi", ".sh", ".txt",
                    ".toml")
# Inside the source folders but not source: results, generated data, build products.
_SKIP_PARTS = ("benchmarks/results/", "benchmarks/data/", "__pycache__/", "/build/", ".carry/")


def is_source(path: str) -> bool:
    """``path`` is relative to the repository root, with '/' separators."""
    if path in _SOURCE_FILES:
        return True
    if not path.startswith(tuple(d + "/" for d in _SOURCE_DIRS)):
        return False
    if any(part in "/" + path for part in _SKIP_PARTS):
        return False
    return path.endswith(_SOURCE_SUFFIXES)


def _hash(files: dict[str, bytes]) -> str:
    h = hashlib.sha256()
    for path in sorted(files):
        data = files[path]
        h.update(f"{path}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


def tree_hash(root: Path = REPO) -> str:
    """Source hash of the files on disk under ``root``."""
    files = {}
    for folder in (root / d for d in _SOURCE_DIRS):
        for path in folder.rglob("*"):
            rel = path.relative_to(root).as_posix()
            if path.is_file() and is_source(rel):
                files[rel] = path.read_bytes()
    for name in _SOURCE_FILES:
        if (root / name).is_file():
            files[name] = (root / name).read_bytes()
    return _hash(files)


def _git(*args: str) -> bytes:
    return subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, check=True,
                          timeout=60).stdout


def commit_hash(rev: str) -> str:
    """Source hash of commit ``rev`` (the same selection, read from git's objects)."""
    names = _git("ls-tree", "-r", "--name-only", "-z", rev).decode().split("\0")
    return _hash({n: _git("show", f"{rev}:{n}") for n in names if n and is_source(n)})


def source_info() -> dict:
    """The record benchmarks store: commit, dirty flag, source hash (see the module doc)."""
    info: dict = {"source_hash": tree_hash()}
    try:
        if not (REPO / ".git").exists():
            raise FileNotFoundError(".git")
        commit = _git("rev-parse", "HEAD").decode().strip()
        changed = _git("status", "--porcelain", "--untracked-files=no").decode().splitlines()
        info.update(commit=commit, dirty=bool(changed), changed=changed[:50])
    except (OSError, subprocess.SubprocessError):
        info.update(commit="tree:" + info["source_hash"][:12], dirty=None,
                    note="no git repository here: the commit is named by its source hash")
    stated = os.environ.get("GPUSEQ_GIT_COMMIT")
    if stated:
        info["stated_commit"] = stated
        try:  # a stale .git may still hold the stated commit: then the hash can prove it
            if commit_hash(stated) == info["source_hash"]:
                info.update(commit=_git("rev-parse", stated).decode().strip(), dirty=False,
                            changed=[], note="sources equal GPUSEQ_GIT_COMMIT's (hash checked)")
        except (OSError, subprocess.SubprocessError):
            pass
    return info


def short_name(info: dict | None = None) -> str:
    """``<commit[:7]>``, ``<commit[:7]>-dirty-<hash[:8]>`` or ``tree-<hash[:12]>``: for file
    names."""
    info = info or source_info()
    if info["commit"].startswith("tree:"):
        return "tree-" + info["commit"][5:]
    if info["dirty"]:
        return f"{info['commit'][:7]}-dirty-{info['source_hash'][:8]}"
    return info["commit"][:7]


def machine_info() -> dict:
    """The host a CPU benchmark ran on: name, platform, Python, cores, load, CPU model."""
    import platform

    info = {"hostname": platform.node(), "platform": platform.platform(),
            "python": platform.python_version(), "cpu_count": os.cpu_count(),
            "load_average": os.getloadavg()}  # fmt: skip
    try:
        with open("/proc/cpuinfo") as f:
            info["cpu_model"] = next(line.split(":", 1)[1].strip() for line in f
                                     if line.startswith("model name"))  # fmt: skip
    except (OSError, StopIteration):
        pass
    return info


def record_header(name: str, started) -> dict:
    """The fields every benchmark's JSON record starts with: its name, start time, command
    line and host."""
    import shlex
    import sys

    return {"benchmark": name, "started": started.isoformat(timespec="seconds"),
            "command": shlex.join([sys.executable, *sys.argv]), "machine": machine_info()}


def wall_times(argv: list, repeat: int, *, env: dict | None = None,
               warm_up: bool = False) -> list[float]:
    """Wall seconds of `repeat` runs of a command as its own process (stdout discarded),
    after an untimed run with warm_up (page cache, bytecode)."""
    import time

    for _ in range(int(warm_up)):
        subprocess.run([str(a) for a in argv], check=True, stdout=subprocess.DEVNULL, env=env)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([str(a) for a in argv], check=True, stdout=subprocess.DEVNULL, env=env)
        times.append(time.perf_counter() - start)
    return times


def write_record(record: dict, out: str | None, name: str, started) -> Path:
    """The benchmark's JSON record to `out`, or to benchmarks/results/NAME-HOST-DATE.json."""
    import platform

    path = Path(out or REPO / "benchmarks" / "results" /
                f"{name}-{platform.node()}-{started:%Y%m%d-%H%M%S}.json")  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {path}")
    return path


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rev", help="print the source hash of this commit instead")
    p.add_argument("--short", action="store_true", help="print only the short name")
    args = p.parse_args(argv)
    if args.rev:
        print(commit_hash(args.rev))
    elif args.short:
        print(short_name())
    else:
        print(json.dumps(source_info(), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
