import random
from emu import serial, warp
random.seed(5)
K=21
S=[[0]*K for _ in range(K)]
for i in range(K):
    for j in range(i,K):
        v=random.randint(4,11) if i==j else random.choice([-4,-3,-2,-2,-1,-1,-1,0,0,1,2,3])
        S[i][j]=S[j][i]=v
def rs(n): return [random.randint(1,20) for _ in range(n)]
def mut(s,p,indel):
    o=[]
    for c in s:
        r=random.random()
        if r<indel/2: continue
        if r<indel: o.append(random.randint(1,20))
        o.append(c if random.random()<p else random.randint(1,20))
    return o
bad=0;tot=0
for trial in range(600):
    kind=trial%3
    if kind==0: a=rs(random.randint(1,120)); b=rs(random.randint(1,120))
    else:
        a=rs(random.randint(1,150)); b=mut(a,random.choice([0.4,0.6,0.9]),random.choice([0,0.05,0.15]))
        if not b: b=[1]
    go,ge=random.choice([(11,1),(11,1),(10,2),(5,1)])
    xd=random.choice([38,15,60,100])
    mask=random.choice([None,31,63,255])
    mr=random.choice([10**9,10**9,40])
    s=serial(a,b,S,go,ge,xd,mask,mr); w=warp(a,b,S,go,ge,xd,mask,mr)
    tot+=1
    if s!=w:
        bad+=1
        if bad<5: print("MISMATCH",trial,len(a),len(b),go,ge,xd,mask,mr,s,w)
print("bad",bad,"of",tot)
