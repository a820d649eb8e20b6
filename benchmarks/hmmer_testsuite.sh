#!/bin/sh
# HMMER's own test suite with gpuseq in place of hmmsearch.
#
# Usage: benchmarks/hmmer_testsuite.sh HMMER_TREE [LOG]
#
#   HMMER_TREE  an HMMER 3.4 source tree that you configured and built yourself
#               (./configure && make; this script downloads and builds nothing)
#   LOG         where the log goes [benchmarks/results/hmmer_testsuite.log]
#   GPUSEQ      (environment) the command that runs gpuseq [gpuseq], e.g.
#               GPUSEQ="env PYTHONPATH=$PWD/python .venv/bin/python -m gpuseq.cli"
#
# HMMER_TREE/src/hmmsearch is moved aside and replaced by a wrapper that runs
# `$GPUSEQ hmmsearch "$@"`; the original is put back when the script ends (also on error
# or Ctrl-C). Only the suite's exercises that run hmmsearch are run, with the suite's own
# runner (Easel's devkit/sqc) on a filtered copy of testsuite/testsuite.sqc: the level-1
# `prep` lines, every exercise whose command is src/hmmsearch, and every exercise script
# (with `@@ !!` arguments) that calls hmmsearch. One extra exercise, `stdin_no_multiq`,
# runs i17-stdin.pl without its last hmmsearch check, which requires hmmsearch to refuse
# several query models against targets piped on stdin: gpuseq reads the targets once
# for all models, so it accepts that on purpose, and the rest of i17 is checked by it.
# For each failed exercise the log ends with its command and the tail of its output.
set -eu

tree=${1:?usage: $0 HMMER_TREE [LOG]}
here=$(cd "$(dirname "$0")" && pwd)
log=${2:-$here/results/hmmer_testsuite.log}
gpuseq=${GPUSEQ:-gpuseq}

tree=$(cd "$tree" && pwd)
sqc=$tree/easel/devkit/sqc
suite=$tree/testsuite/testsuite.sqc
prog=$tree/src/hmmsearch
backup=$tree/src/hmmsearch.orig-before-gpuseq
for f in "$sqc" "$suite" "$tree/src/hmmbuild" "$tree/easel/miniapps/esl-shuffle"; do
    [ -e "$f" ] || { echo "$0: $f not found: is $tree a built HMMER 3.4 tree?" >&2; exit 2; }
done
if [ -e "$backup" ]; then
    echo "$0: $backup exists (an earlier run did not finish): move it back to $prog first" >&2
    exit 2
fi
[ -x "$prog" ] || { echo "$0: $prog is not an executable: build HMMER first" >&2; exit 2; }
$gpuseq --version >/dev/null || { echo "$0: cannot run '$gpuseq'" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/gpuseq-hmmer-testsuite.XXXXXX")
restore() {
    if [ -e "$backup" ]; then mv -f "$backup" "$prog"; fi
    rm -rf "$work"
}
trap restore EXIT
trap 'exit 130' INT TERM

# The wrapper that stands in for hmmsearch.
mv "$prog" "$backup"
cat > "$prog" <<EOF
#!/bin/sh
# gpuseq in place of hmmsearch, put here by gpuseq's benchmarks/hmmer_testsuite.sh
exec $gpuseq hmmsearch "\$@"
EOF
chmod +x "$prog"

# Runs one exercise; on failure, records its command and output for the log.
failures=$work/failures.txt
: > "$failures"
cat > "$work/run_logged.sh" <<EOF
#!/bin/sh
name=\$1; shift
out=\$(mktemp "$work/out.XXXXXX")
"\$@" > "\$out" 2>&1; rc=\$?
if [ \$rc -ne 0 ]; then
    { echo "--- \$name: exit \$rc"; echo "\$*"; tail -c 4000 "\$out"; echo; } >> "$failures"
fi
rm -f "\$out"
exit \$rc
EOF
chmod +x "$work/run_logged.sh"

# i17 without its final check (several models vs. piped targets must be refused).
sed '/should fail on multiquery \$tag1, stdin \$tag2/d' "$tree/testsuite/i17-stdin.pl" \
    > "$work/i17-stdin-no-multiquery-refusal.pl"
chmod +x "$work/i17-stdin-no-multiquery-refusal.pl"

# The hmmsearch part of the suite, in the suite's order.
perl -ne '
    BEGIN { ($tree, $runner, $i17) = @ARGV[0..2]; @ARGV = ($ARGV[3]); }
    next unless /^1\s+(prep|exercise)\s+(\S+)\s+(.*)$/;
    ($type, $name, $cmd) = ($1, $2, $3);
    if ($type eq "prep") { print; next; }
    if ($cmd =~ /\@src\/(\w+)\@/) { next unless $1 eq "hmmsearch"; }
    else {
        next unless $cmd =~ /^!(\S+)!/;
        open(my $fh, "<", "$tree/$1") or next;
        next unless grep { /hmmsearch/ } <$fh>;
    }
    print "1 exercise $name $runner $name $cmd\n";
    if ($name eq "stdin_pipes") {
        $cmd =~ s/^!\S+!/$i17/;
        $cmd =~ s/%OUTFILES%/%NOMQ%/;  # its own temporary files (stdin_pipes may leave some)
        print "1 exercise stdin_no_multiq $runner stdin_no_multiq $cmd\n";
    }
' "$tree" "$work/run_logged.sh" "$work/i17-stdin-no-multiquery-refusal.pl" "$suite" \
    > "$work/hmmsearch.sqc"

mkdir -p "$(dirname "$log")"
{
    echo "# HMMER $(basename "$tree") test suite, hmmsearch exercises, with gpuseq as hmmsearch"
    echo "# date:    $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "# gpuseq:  $($gpuseq --version) ($gpuseq)"
    echo "# commit:  $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo "# HMMER:   $tree ($("$backup" -h | sed -n 's/^# HMMER \([^ ]*\).*/\1/p'))"
    echo "# runner:  easel/devkit/sqc 1 on $(grep -c exercise "$work/hmmsearch.sqc") exercises"
    echo "#          (testsuite.sqc filtered; stdin_no_multiq is this script's, see its header)"
    echo
} > "$log"

status=0
(cd "$tree/testsuite" && perl "$sqc" 1 "$work/hmmsearch.sqc" .. ..) >> "$log" 2>&1 || status=$?
if [ -s "$failures" ]; then
    { echo; echo "# Failed exercises: command and the tail of their output"; cat "$failures"; } \
        >> "$log"
fi
echo "$log"
grep -E "exercises at level" "$log" || true
exit $status
