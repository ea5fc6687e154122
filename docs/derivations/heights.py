import numpy as np, itertools
for D in (2,3,4):
    G=(1-1/np.sqrt(D+1))/D
    # simplex corners: 0, e_{p0}, e_{p0}+e_{p1}, ...
    perm=list(range(D)); V=[np.zeros(D)]; cur=np.zeros(D)
    for a in perm: cur=cur.copy(); cur[a]+=1; V.append(cur)
    V=[v - v.sum()*G for v in V]
    hs=[]
    for k in range(D+1):
        others=[V[j] for j in range(D+1) if j!=k]
        B=np.array([o-others[0] for o in others[1:]]).T
        # distance from V[k] to affine hull of others
        y=V[k]-others[0]
        coef,*_=np.linalg.lstsq(B,y,rcond=None)
        hs.append(np.linalg.norm(y-B@coef)**2)
    print(D,'height^2 per vertex',np.round(hs,12))
