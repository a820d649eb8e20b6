# per-row instruction counts on the common path (no target end): the loop body minus the end block
import re, sys, collections
ins, labels, cur = [], {}, None
for l in open(sys.argv[1]):
    m = re.match(r"^\.(L_x_\d+):", l.strip())
    if m: cur = m[1]; continue
    m = re.match(r"\s+/\*([0-9a-f]+)\*/\s+(.*?);", l)
    if m:
        a = int(m[1], 16); ins.append((a, m[2].strip()))
        if cur: labels[cur] = a; cur = None
H = int(sys.argv[2])
best = None
for addr, text in ins:
    m = re.search(r"BRA `\(\.(L_x_\d+)\)", text)
    if m and m[1] in labels and labels[m[1]] < addr:
        lo = labels[m[1]]
        body = [(a, t) for a, t in ins if lo <= a <= addr]
        if any("LDS" in t for a, t in body) and (best is None or len(body) < len(best)):
            best = body
# drop the end blocks: from each 'VOTE.ANY' conditional branch to its target label
skip = set()
for i, (a, t) in enumerate(best):
    if "VOTE" not in t:
        continue
    for a2, t2 in best[i + 1:]:  # the first conditional forward branch after the vote
        m = re.search(r"@!?P\d BRA `\(\.(L_x_\d+)\)", t2)
        if m and labels.get(m[1], 0) > a2:
            skip.update(b for b, _ in best if a2 < b < labels[m[1]])
            break
path = [t for a, t in best if a not in skip]
rows = max(1, round(sum("LDS" in t for t in path) / H))
ops = collections.Counter(re.sub(r"^@!?P\d\s+", "", t).split()[0] for t in path)
mov = sum(v for k, v in ops.items() if "MOV" in k)
print(f"rows {rows}: per row {len(path)/rows:.1f} instr, MOV {mov/rows:.1f};", ", ".join(f"{k} {v/rows:.1f}" for k, v in ops.most_common(12)))
