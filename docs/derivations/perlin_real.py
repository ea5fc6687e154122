import numpy as np, itertools
fade=lambda t: t*t*t*(t*(t*6-15)+10)
s8=1/np.sqrt(2)
sets={
 2:np.array([[1,1],[1,-1],[-1,1],[-1,-1]],float),
 3:np.array([v for v in itertools.product((-1,0,1),repeat=3) if sorted(map(abs,v))==[0,1,1]],float),
 4:np.array([v for v in itertools.product((-1,0,1),repeat=4) if sorted(map(abs,v))==[0,1,1,1]],float),
}
sups={2:1.0,3:1.0363538112118027,4:1.5365823340468199}
rng=np.random.default_rng(5)
for D,G in sets.items():
    best=0
    for chunk in range(10):
        N=10**6
        p=rng.uniform(0,1,(N,D))
        tot=np.zeros(N)
        for c in itertools.product((0,1),repeat=D):
            c=np.array(c); d=p-c
            W=np.ones(N)
            for a in range(D):
                f=fade(p[:,a]); W*= f if c[a] else 1-f
            g=G[rng.integers(0,len(G),N)]
            tot+=W*(g*d).sum(1)
        best=max(best,np.abs(tot).max())
    print(D,'max over 1e7 random samples',best,'ratio to sup',best/sups[D])
