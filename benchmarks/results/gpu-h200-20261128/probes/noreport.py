# `gpuseq hmmsearch ARGS`; NOREPORT=1 makes the text report's per-query block a no-op (tables
# still written): the most a faster text report could save (session 43).
import os, sys
import gpuseq.cli
if os.environ.get("NOREPORT"):
    from gpuseq import hmmer_text
    hmmer_text.write_query_report = lambda fh, hits, **k: None
sys.exit(gpuseq.cli.main(sys.argv[1:]))
