import numpy as np, itertools
from scipy.optimize import minimize
def setup(D):
    F=(np.sqrt(D+1)-1)/D; G=(1-1/np.sqrt(D+1))/D
    return F,G
def corners(p,D,F,G):
    s=p.sum()*F; ps=p+s; c=np.floor(ps); f=ps-c
    order=np.argsort(-f,kind='stable')
    cs=[np.zeros(D)]
    cur=np.zeros(D)
    for a in order:
        cur=cur.copy(); cur[a]+=1; cs.append(cur)
    out=[]
    for k in cs:
        lat=c+k
        v=lat-lat.sum()*G
        out.append(p-v)
    return out
def bound(p,D,F,G,r2=0.5,dim1=False):
    tot=0
    for d in corners(p,D,F,G):
        q=r2-d@d
        if q>0: tot+=np.sqrt(d@d)*q**3
    return tot
for D in (2,3,4):
    F,G=setup(D)
    rng=np.random.default_rng(1)
    P=rng.uniform(-3,3,size=(200000,D))
    vals=np.array([bound(p,D,F,G) for p in P[:60000]])
    idx=np.argsort(-vals)[:40]
    best=0;bp=None
    for i in idx:
        r=minimize(lambda p:-bound(p,D,F,G),P[i],method='Nelder-Mead',options={'xatol':1e-13,'fatol':1e-17,'maxiter':20000})
        if -r.fun>best: best=-r.fun;bp=r.x
    print(D,'sup bound',repr(best),'1/sup',1/best)
    print('  argmax corners dists', [np.sqrt(d@d) for d in corners(bp,D,F,G)])
print('2D catlike center', 125*np.sqrt(2)/5832, 'edge', np.sqrt(6)/81, 'scale',2916*np.sqrt(2)/125)
print('3D catlike edge', 125*np.sqrt(3)/8192, 'scale', 8192*np.sqrt(3)/375)
print('4D edge mid', 54/(1000*np.sqrt(5)), 'scale', 500*np.sqrt(5)/27)
