import numpy as np, itertools
from scipy.optimize import minimize
fade=lambda t: t*t*t*(t*(t*6-15)+10)
def F(p,G):
    D=len(p); tot=0
    for c in itertools.product((0,1),repeat=D):
        c=np.array(c); d=p-c
        W=np.prod([fade(p[a]) if c[a] else 1-fade(p[a]) for a in range(D)])
        tot+=W*max(G@d)
    return tot
def sup(G,D,n=4000):
    rng=np.random.default_rng(0)
    P=rng.uniform(0,1,(n,D))
    v=np.array([F(p,G) for p in P]); idx=np.argsort(-v)[:20]
    best=0;bp=None
    for i in idx:
        r=minimize(lambda p:-F(p,G),P[i],method='Nelder-Mead',options={'xatol':1e-12,'fatol':1e-16,'maxiter':40000})
        if -r.fun>best: best,bp=-r.fun,r.x
    return best,bp
s8=1/np.sqrt(2)
sets={
 '1D +-1':(1,np.array([[1.],[-1.]])),
 '2D diag (+-1,+-1)':(2,np.array([[1,1],[1,-1],[-1,1],[-1,-1]],float)),
 '2D 8 unit':(2,np.array([[1,0],[-1,0],[0,1],[0,-1],[s8,s8],[s8,-s8],[-s8,s8],[-s8,-s8]])),
 '3D 12 edges':(3,np.array([v for v in itertools.product((-1,0,1),repeat=3) if sorted(map(abs,v))==[0,1,1]],float)),
 '4D 32 edges':(4,np.array([v for v in itertools.product((-1,0,1),repeat=4) if sorted(map(abs,v))==[0,1,1,1]],float)),
}
for k,(D,G) in sets.items():
    b,p=sup(G,D, 3000 if D<4 else 1500)
    print(k,len(G),'sup',repr(b),'at',p)
