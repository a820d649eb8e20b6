import random
MIN=-(2**30)
def serial(a,b,S,go,ge,xd,mask=None,max_rows=10**9):
    m,n=len(a),len(b)
    if m<=0 or n<=0: return True,(0,0,0)
    oe=go+ge; e=ge; x=max(xd,oe)
    H={};E={}
    def room(first,size): return mask is None or size-first<=mask
    H[0]=0;E[0]=-oe; v=-oe; j=1
    while j<=n and v>=-x:
        if not room(0,j): return False,None
        H[j]=v;E[j]=v-oe;v-=e;j+=1
    size=j; best=bi=bj=0; first=0
    for i in range(1,m+1):
        if i>max_rows: return False,None
        cur=MIN;F=MIN;last=first
        j=first
        while j<size:
            ec=E[j]; diag=H[j]+(S[a[i-1]][b[j]] if j<n else S[a[i-1]][0]) ; 
            if cur<ec: cur=ec
            if cur<F: cur=F
            if best-cur>x:
                if j==first: first+=1
                else: H[j]=MIN
            else:
                last=j
                if cur>best: best,bi,bj=cur,i,j
                F-=e; ec-=e
                E[j]=cur-oe if ec<cur-oe else ec
                if F<cur-oe: F=cur-oe
                H[j]=cur
            cur=diag; j+=1
        if first==size: break
        if last<size-1: size=last+1
        else:
            while F>=best-x and size<=n:
                if not room(first,size): return False,None
                H[size]=F;E[size]=F-oe;F-=e;size+=1
        if size<=n:
            if not room(first,size): return False,None
            H[size]=MIN;E[size]=MIN;size+=1
    return True,(best,bi,bj)

def warp(a,b,S,go,ge,xd,mask=None,max_rows=10**9):
    m,n=len(a),len(b)
    if m<=0 or n<=0: return True,(0,0,0)
    oe=go+ge; e=ge; x=max(xd,oe)
    M=mask if mask is not None else 10**9
    H={};E={}
    row0=min(n,(x-oe)//e+1) if e>0 else n
    if row0>M: return False,None
    for j in range(row0+1):
        v=0 if j==0 else -oe-e*(j-1); H[j]=v;E[j]=v-oe
    size=row0+1; best=bi=bj=0; first=0
    for i in range(1,m+1):
        if i>max_rows: return False,None
        carry_t=MIN; carry_h=MIN; fl=-1; ll=-1
        c0=first&~31
        while c0<size:
            js=[c0+l for l in range(32)]
            valid=[first<=j<size for j in js]
            hold=[H[j] if v else MIN for j,v in zip(js,valid)]
            ecol=[E[j] if v else MIN for j,v in zip(js,valid)]
            hl=[carry_h]+hold[:31]
            d=[]
            for l in range(32):
                j=js[l]
                diag=hl[l]+S[a[i-1]][b[j-1+1-1] if False else (b[j-1] if j<=n else 0)] if (valid[l] and j>first) else MIN
                d.append(max(diag,ecol[l]))
            t=[d[l]+e*js[l] if valid[l] else MIN for l in range(32)]
            tinc=[];r=MIN
            for v in t: r=max(r,v); tinc.append(r)
            cur=[];
            for l in range(32):
                tb=carry_t if l==0 else max(carry_t,tinc[l-1])
                f=tb-oe-e*(js[l]-1)
                cur.append(max(d[l],f))
            cinc=[];r=MIN
            for l in range(32):
                r=max(r,cur[l] if valid[l] else MIN); cinc.append(r)
            live=[]
            for l in range(32):
                cb=best if l==0 else max(best,cinc[l-1])
                lv=valid[l] and not (cb-cur[l]>x)
                live.append(lv)
                if valid[l]:
                    if lv: H[js[l]]=cur[l]; E[js[l]]=max(ecol[l]-e,cur[l]-oe)
                    else: H[js[l]]=MIN
            L=[l for l in range(32) if live[l]]
            if L:
                if fl<0: fl=c0+L[0]
                ll=c0+L[-1]
            cm=cinc[31]
            if cm>best:
                best=cm;bi=i;bj=c0+[l for l in range(32) if valid[l] and cur[l]==cm][0]
            carry_t=max(carry_t,tinc[31]); carry_h=hold[31]
            c0+=32
        if fl<0: break
        first=fl
        if ll<size-1: size=ll+1
        else:
            fe=carry_t-oe-e*ll
            if fe>=best-x:
                cnt=(fe-(best-x))//e+1 if e>0 else n+1-size
                cnt=min(cnt,n+1-size)
                if cnt>0 and size+cnt-1-first>M: return False,None
                for k in range(max(cnt,0)):
                    v=fe-e*k; H[size+k]=v;E[size+k]=v-oe
                size+=max(cnt,0)
        if size<=n:
            if size-first>M: return False,None
            H[size]=MIN;E[size]=MIN;size+=1
    return True,(best,bi,bj)
