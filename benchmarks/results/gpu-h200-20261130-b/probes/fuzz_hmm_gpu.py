"""tests/test_fuzz.py's model check (hmmsearch's rows, or a typed error where hmmsearch
rejects the file) on a GPU host, past CI's derandomized examples: globins4.hmm with 1-4
random edits drawn as mutated_hmm draws them, from seed argv[1], for argv[2] seconds.
Failing files go to $OUT/fuzz-fail-SEED-N.hmm; the example under way to
$OUT/fuzz-at-SEED.txt (a crash leaves it there)."""

import faulthandler
import os
import random
import sys
import time

sys.path.insert(0, "tests")
import test_fuzz  # noqa: E402

PIECES = [b"\xff", b"\x00", b"-", b"*", b"9", b"0.5", b" ", b"\n", b"e", b"nan", b"inf",
          b"1e9", b"//\n"]


def mutated(rng: random.Random) -> bytes:
    data = bytearray(test_fuzz.GLOBINS_HMM)
    for _ in range(rng.randint(1, 4)):
        at = rng.randint(0, len(data) - 1)
        what = rng.choice(["replace", "insert", "delete"])
        piece = rng.choice(PIECES)
        if what == "replace":
            data[at : at + len(piece)] = piece
        elif what == "insert":
            data[at:at] = piece
        else:
            del data[at : at + rng.randint(1, 40)]
    return bytes(data)


faulthandler.enable()
seed, seconds = int(sys.argv[1]), float(sys.argv[2])
skip = int(sys.argv[3]) if len(sys.argv) > 3 else 0  # examples drawn but not run
rng = random.Random(seed)
check = test_fuzz.test_hmm_input_gives_hmmsearchs_hits_or_a_typed_error.hypothesis.inner_test
end = time.monotonic() + seconds
n = failed = 0
while time.monotonic() < end:
    data = mutated(rng)
    n += 1
    if n <= skip:
        continue
    with open(os.path.join(os.environ["OUT"], f"fuzz-at-{seed}.txt"), "w") as f:
        f.write(f"{n}\n")
    try:
        check(data=data)
    except Exception as exc:  # noqa: BLE001
        failed += 1
        with open(os.path.join(os.environ["OUT"], f"fuzz-fail-{seed}-{n}.hmm"), "wb") as f:
            f.write(data)
        print(f"seed {seed} example {n}: {type(exc).__name__}: {str(exc)[:300]}", flush=True)
print(f"seed {seed}: {n} models, {failed} failed")
