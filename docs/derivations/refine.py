import itertools, numpy as np
from mpmath import mp, mpf, findroot, diff
mp.dps=40
fade=lambda t: t*t*t*(t*(t*6-15)+10)
def setG(D):
    return [v for v in itertools.product((-1,0,1),repeat=D) if sorted(map(abs,v))==[0]+[1]*(D-1)]
def active(p,G,D):
    res=[]
    for c in itertools.product((0,1),repeat=D):
        d=[p[a]-c[a] for a in range(D)]
        best=max(G,key=lambda g: sum(g[a]*d[a] for a in range(D)))
        res.append((c,best))
    return res
def Fpoly(p,act,D):
    tot=mpf(0)
    for c,g in act:
        W=mpf(1)
        for a in range(D): W*= fade(p[a]) if c[a] else 1-fade(p[a])
        tot+=W*sum(g[a]*(p[a]-c[a]) for a in range(D))
    return tot
for D,p0 in ((3,[0.3552567,0.5,0.48149222]),(4,[0.51837483,0.49192551,0.5,0.35641248])):
    G=setG(D); act=active(p0,G,D)
    f=lambda *p: Fpoly(list(p),act,D)
    grad=[ (lambda a: (lambda *p: diff(lambda t: f(*[p[b] if b!=a else t for b in range(D)]), p[a])))(a) for a in range(D)]
    sol=findroot(grad,[mpf(v) for v in p0])
    sol=[sol[a] for a in range(D)]
    # check active set unchanged
    act2=active([float(v) for v in sol],G,D)
    print(D,'argmax',[mp.nstr(v,20) for v in sol],'same active',act2==act)
    print('  sup =',mp.nstr(f(*sol),30),' 1/sup =',mp.nstr(1/f(*sol),30))
