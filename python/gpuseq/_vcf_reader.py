"""Genotypes of a VCF/BCF file through cyvcf2, run as a child process by distance.read_genotypes.

htslib hands on records it failed to parse, and cyvcf2 crashes on them (a record with malformed
GT text segfaults on any access): a damaged file must not be read in the caller's process.
Usage: python _vcf_reader.py VCF OUT.npy. Exit 0: OUT.npy holds samples x variants int8 counts of
non-reference alleles, -1 missing; exit 3: stdout holds {"message", "record"} of a FormatError."""

from __future__ import annotations

import json
import sys

import numpy as np

MISSING = -1  # the core's missing code (cpp/distance/genotypes.hpp)
BAD_INPUT = 3


class _BadInput(Exception):
    def __init__(self, message: str, record: str | None = None):
        super().__init__(message)
        self.record = record


def read_counts(path: str) -> np.ndarray:
    from cyvcf2 import VCF

    columns = []
    vcf = VCF(path, lazy=True)
    if not vcf.samples:
        raise _BadInput("the VCF has no samples")
    for record in vcf:
        try:
            gt = record.genotype
        except Exception:  # cyvcf2: "couldn't get genotypes for variant"
            gt = None
        if gt is None:
            raise _BadInput("variant has no GT field", f"{record.CHROM}:{record.POS}")
        alleles = gt.array()[:, :-1]  # the last column is the phasing flag
        called = alleles != -2        # -2 pads calls of lower ploidy
        values = ((alleles > 0) & called).sum(axis=1).astype(np.int8)
        values[((alleles == -1) & called).any(axis=1)] = MISSING
        columns.append(values)
    vcf.close()
    if not columns:
        raise _BadInput("the VCF has no variant records")
    return np.ascontiguousarray(np.stack(columns, axis=1))


def main(path: str, out: str) -> int:
    try:
        np.save(out, read_counts(path))
    except _BadInput as exc:
        print(json.dumps({"message": str(exc), "record": exc.record}))
        return BAD_INPUT
    except Exception as exc:  # cyvcf2/htslib report damaged files with their own types
        print(json.dumps({"message": f"unreadable VCF/BCF file: {exc}", "record": None}))
        return BAD_INPUT
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
