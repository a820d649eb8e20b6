import re,sys,collections
rows=collections.OrderedDict(); tags=[]
for l in open(sys.argv[1]):
    m=re.match(r'\[\s*(\w+)\]\s+(\w+) M=\s*(\d+) T=(\d) Q=\s*(\d+)\s+([\d.]+) GCUPS equal=(\w+)',l)
    if not m: continue
    tag,name,M,T,Q,g,eq=m.groups()
    if tag not in tags: tags.append(tag)
    rows.setdefault((name,int(M),T,Q),{})[tag]=(float(g),eq)
print(f"{'case':22s}"+"".join(f"{t:>9s}" for t in tags))
for k,v in rows.items():
    print(f"{k[0]:>9s} M={k[1]:4d} T{k[2]} Q{k[3]:>2s} "+"".join(f"{v[t][0]:9.0f}" if t in v else " "*9 for t in tags), "" if all(x[1]=='True' for x in v.values()) else "UNEQUAL")
