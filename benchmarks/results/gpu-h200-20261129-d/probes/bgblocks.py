"""Session 54 probe: the S-lane SSV's shared blocks planned on a host thread (the first models'
SSVs a warp per target meanwhile) or waited for, by the number of models sharing an S.
python3 bgblocks.py split MANY OUTDIR            writes OUTDIR/first-K.hmm, K = 4, 8, 16, 32
python3 bgblocks.py run N BG -- hmmsearch ...    the gpuseq command with SSV_BLOCKS_MIN_MODELS = N,
                                                 the blocks' plan in the background (BG = 1) or not
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
    if sys.argv[3] == "0":
        original = hs._Filters._share_ssv_blocks

        def waiting(self, models):
            original(self, models)
            for q in models:
                g = self._tables(q)
                if g is not None:
                    g.ssv_blocks_background = False

        hs._Filters._share_ssv_blocks = waiting
    sys.argv = ["gpuseq", *sys.argv[sys.argv.index("--") + 1:]]
    from gpuseq import cli

    sys.exit(cli.main())
