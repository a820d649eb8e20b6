import re, sys
ins, labels, cur = [], {}, None
for l in open(sys.argv[1]):
    m = re.match(r"^\.(L_x_\d+):", l.strip())
    if m: cur = m[1]; continue
    m = re.match(r"\s+/\*([0-9a-f]+)\*/\s+(.*?);", l)
    if m:
        a = int(m[1], 16); ins.append((a, m[2].strip()))
        if cur: labels[cur] = a; cur = None
best=None
for addr, text in ins:
    m = re.search(r"BRA `\(\.(L_x_\d+)\)", text)
    if m and m[1] in labels and labels[m[1]] < addr:
        lo = labels[m[1]]
        body = [(a, t) for a, t in ins if lo <= a <= addr]
        if any("LDS" in t for a, t in body) and (best is None or len(body) < len(best)):
            best = body
body=[t for a,t in best]
d=[]
for i,t in enumerate(body):
    if t.startswith("LDS") or " LDS" in t:
        r=re.search(r"LDS\S*\s+(R\d+)", t)[1]
        for j in range(i+1,len(body)):
            if re.search(rf"\b{r}\b", body[j].split(" ",1)[1] if " " in body[j] else ""):
                d.append(j-i); break
print(f"body {len(body)} LDS {len(d)} min dist {min(d)} mean {sum(d)/len(d):.1f} dists<8: {sum(x<8 for x in d)}; first LDS at {next(i for i,t in enumerate(body) if 'LDS' in t)}")
