# The gpuseq command with a time stamp where its outputs are closed (cli._exit_now), so that
# the parent can time the end: os._exit, or the full teardown with GPUSEQ_FULL_EXIT=1.
import sys
import time

from gpuseq import cli

quick_exit = cli._exit_now


def stamped(code):
    print(f"END {time.time():.6f}", file=sys.stderr, flush=True)
    quick_exit(code)


cli._exit_now = stamped
sys.exit(cli.main())
