"""Session 53 probe: the S-lane SSV's shared blocks by the number of models sharing an S.
python3 minblocks.py split MANY OUTDIR       writes OUTDIR/first-K.hmm for K = 4, 8, 16, 32
python3 minblocks.py run N -- hmmsearch ...  the gpuseq command with SSV_BLOCKS_MIN_MODELS = N
"""
import importlib
import sys

if sys.argv[1] == "split":
    from pyhmmer.plan7 import HMMFile

    with HMMFile(sys.argv[2]) as f:
        hmms = list(f)
    for k in (4, 8, 16, 32):
        with open(f"{sys.argv[3]}/first-{k}.hmm", "wb") as out:
            for h in hmms[:k]:
                h.write(out)
else:
    hs = importlib.import_module("gpuseq.hmmsearch")
    hs.SSV_BLOCKS_MIN_MODELS = int(sys.argv[2])
    sys.argv = ["gpuseq", *sys.argv[sys.argv.index("--") + 1:]]
    from gpuseq import cli

    sys.exit(cli.main())
