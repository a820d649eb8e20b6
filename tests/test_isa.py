"""The built module runs on any x86-64 CPU: AVX instructions only in kernels chosen by CPUID.

cpp/hmm/filters_avx2.cpp is compiled with -mavx2. An inline or template function that it shares
with other files (standard-library templates included) could be emitted there with AVX code and
be the copy the linker keeps for everyone, which would crash the baseline path on a CPU without
AVX2. The test disassembles the module and fails if any instruction with a VEX or EVEX encoding
(every AVX, AVX2 and AVX-512 instruction: a `v` mnemonic, or ymm/zmm/mask registers) lies outside
the functions that are only ever called after a CPUID check."""

from __future__ import annotations

import bisect
import platform
import re
import shutil
import subprocess

import pytest

from gpuseq import _core

# Functions allowed to hold AVX/AVX2/AVX-512 code, by qualified name, and why that is safe.
ALLOWED = [
    # The AVX2 filter kernels (msv.hpp, viterbi_filter.hpp compiled in namespace avx2 by
    # filters_avx2.cpp), reached only through avx2_filter_kernels(), which
    # cpu_filter_kernels() returns only when __builtin_cpu_supports("avx2").
    (re.compile(r"gpuseq::hmm::avx2::"), "AVX2 filter kernels"),
    # The AVX-512 VPOPCNTDQ popcount (cpp/distance/genotypes.cpp), picked by CPUID.
    (re.compile(r"gpuseq::distance::isa::and_popcount_avx512_"), "AVX-512 popcount kernel"),
]
# Third-party code: the CUDA build links the CUDA runtime statically (stripped, so its code is
# unnamed here). A census of the module built for an H100 (sm_80, sm_90a) found no VEX/EVEX
# instruction in it, so it needs no entry; were one added, it would name the CPUID dispatch
# that guards it.

_AVX_OPERAND = re.compile(r"%([yz]mm\d+|xmm(1[6-9]|2\d|3[01])|k[0-7])\b")
_INSTRUCTION = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
# VEX-only mnemonics start with v; of the legacy instructions only the virtualization and
# segment-verify ones do, and none of those can appear in user code.
_NOT_AVX = re.compile(r"^(verr|verw|vm[a-z]+)$")


def _function_extents(path: str) -> tuple[list[int], list[tuple[int, int, str]]]:
    """(sorted starts, (start, end, name)) of every sized function symbol, from the dynamic
    symbol table and, when the module is not stripped, the full one."""
    extents = {}
    for args in (["-D"], []):
        proc = subprocess.run(["nm", *args, "-S", "-C", "--defined-only", path],
                              capture_output=True, text=True, errors="replace")
        for line in proc.stdout.splitlines():
            parts = line.split(maxsplit=3)
            if len(parts) == 4 and parts[2] in "TtWwi" and len(parts[2]) == 1:
                start, size = int(parts[0], 16), int(parts[1], 16)
                if size:
                    extents[start] = (start, start + size, parts[3].split("@@")[0])
    ordered = sorted(extents.values())
    return [e[0] for e in ordered], ordered


def qualified_name(demangled: str) -> str:
    """`ns::f<T>` of a demangled signature: without the parameters and, for a template
    instance, the return type that precedes it ("int ns::f<1>(int)")."""
    depth, end = 0, len(demangled)
    for i, c in enumerate(demangled):
        depth += {"<": 1, ">": -1}.get(c, 0)
        if c == "(" and depth == 0 and i > 0:
            end = i
            break
    head, depth, start = demangled[:end], 0, 0
    for i, c in enumerate(head):
        depth += {"<": 1, ">": -1}.get(c, 0)
        if c == " " and depth == 0:
            start = i + 1
    return head[start:]


def avx_code_by_function(path: str) -> dict[str, list[str]]:
    """Function name -> the first few AVX instructions found in it. Code that lies in no
    named function (a local function of a stripped module) is keyed "<unnamed, after F>"."""
    if shutil.which("nm") is None:
        pytest.skip("nm (binutils) not installed")
    starts, extents = _function_extents(path)
    dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-C", path],
                         capture_output=True, text=True, errors="replace", check=True).stdout
    found: dict[str, list[str]] = {}
    for line in dis.splitlines():
        m = _INSTRUCTION.match(line)
        if m is None:
            continue
        address, mnemonic, operands = int(m.group(1), 16), m.group(2), m.group(3)
        is_avx = (mnemonic.startswith("v") and not _NOT_AVX.match(mnemonic)) or bool(
            _AVX_OPERAND.search(operands))
        if not is_avx:
            continue
        i = bisect.bisect_right(starts, address) - 1
        if i >= 0 and address < extents[i][1]:
            where = extents[i][2]
        else:
            where = f"<unnamed, after {extents[i][2] if i >= 0 else 'start'}>"
        shown = found.setdefault(where, [])
        if len(shown) < 3:
            shown.append(f"{address:x}: {mnemonic} {operands}".strip())
    return found


def test_avx_code_only_in_cpuid_chosen_kernels():
    if shutil.which("objdump") is None:
        pytest.skip("objdump (binutils) not installed: cannot disassemble the module")
    found = avx_code_by_function(_core.__file__)
    outside = {name: code for name, code in found.items()
               if not any(pattern.match(qualified_name(name)) for pattern, _ in ALLOWED)}
    assert not outside, (
        "AVX instructions outside the CPUID-chosen kernels (a shared inline/template function "
        "compiled with -mavx2, or a new ISA kernel without an allowed name):\n"
        + "\n".join(f"  {name}: {code}" for name, code in sorted(outside.items())[:20]))
    # An x86-64 GCC/Clang build always has the AVX2 kernels: finding them shows the parsing
    # works (a parsing bug would otherwise pass silently).
    if platform.machine() in ("x86_64", "AMD64"):
        assert any(ALLOWED[0][0].match(qualified_name(n)) for n in found), sorted(found)
