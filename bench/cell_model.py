# A model of cellular noise's branch-and-bound search (kernel/cellular.rs):
# cells visited per 16-lane vector along a grid row spaced 0.03 (the
# benchmark's points), 2D and 3D, euclidean, jitter 1, 300 random rows;
# bounded by F2 (every return before 2026-11-29) or F1 (f1 and the cell
# value since), in the kernel's order (0, 1, -1, ... on each axis) or
# nearest side first per lane (not implemented). Feature points are drawn
# uniformly per cell (not the kernel's hash), so counts are expectations.
#
#   python3 bench/cell_model.py
import random, math
random.seed(1)
J=1.0; reach=J/2+1/4096
pts={}
def fp(c):
    if c not in pts: pts[c]=tuple(ci+0.5+J*(random.random()-0.5) for ci in c)
    return pts[c]
def order(i): return (i+1)//2 if i&1 else -(i//2)
def search(P, D, bound_f2, near_first):
    # P: list of lane points; returns cells visited (union visit count)
    cells=[tuple(math.floor(x) for x in p) for p in P]
    fr=[tuple(x-math.floor(x) for x in p) for p in P]
    f1=[math.inf]*len(P); f2=[math.inf]*len(P)
    visits=0
    sgn=[[1 if f[a]>=0.5 else -1 for a in range(D)] for f in fr]
    def rec(level, partial, ks):
        nonlocal visits
        done=[False,False]
        for i in range(0, 2*(D+2)+1):
            if done[0] and done[1]: break
            k=order(i); side=int(k<0)
            if done[side]: continue
            lbs=[]
            for n in range(len(P)):
                kk = k*sgn[n][level] if near_first else k
                b=kk+0.5-fr[n][level]
                l=max(0,abs(b)-reach)
                lbs.append(partial[n]+l*l)
            ref=f2 if bound_f2 else f1
            if not any(lbs[n]<ref[n] for n in range(len(P))):
                done[side]=True
                if k==0: done[1]=True
                continue
            if level>0:
                rec(level-1, lbs, ks+[k])
            else:
                visits+=1
                kk_all=[k]+ks[::-1]  # axis0..D-1 ; ks holds outer first
                for n in range(len(P)):
                    kv=[kk_all[a]*(sgn[n][a] if near_first else 1) for a in range(D)]
                    c=tuple(cells[n][a]+kv[a] for a in range(D))
                    q=fp(c)
                    d=sum((q[a]-P[n][a])**2 for a in range(D))
                    if d<f1[n]: f2[n]=f1[n]; f1[n]=d
                    elif d<f2[n]: f2[n]=d
    rec(D-1,[0.0]*len(P),[])
    return visits
for D in (2,3):
    for bf2 in (True, False):
        for nf in (False, True):
            tot=0;N=300
            for t in range(N):
                o=[random.uniform(0,1000) for _ in range(D)]
                P=[tuple([o[0]+0.03*i]+o[1:]) for i in range(16)]
                tot+=search(P,D,bf2,nf)
            print(D, "bound F2" if bf2 else "bound F1", "near-first" if nf else "0,1,-1", tot/N)
