# `gpuseq hmmsearch ARGS` with the CLI's HmmsearchWriter render_threads from RT (session 43's
# A/B of 3dc8c80; unset: the build's own default).
import os, sys
import gpuseq.cli as cli
if os.environ.get("RT"):
    cli.REPORT_THREADS = int(os.environ["RT"])
sys.exit(cli.main(sys.argv[1:]))
