#!/usr/bin/env python3
"""Fails if files of a crate import each other, directly or around a loop.

    .ci/imports.py SRC_DIR...

Each SRC_DIR is a crate's `src`. A file imports another when one of its
`use` lines (`pub use` included) names an item of the other's module:
`crate::a::b`, `super::x` and `self::x` paths are resolved from the
module the line is in (inline `mod name { ... }` blocks included), a
path starting with a child module's name from the current module, and a
name that a `lib.rs` or `mod.rs` re-exports to the file that defines it.
Paths in code outside `use` lines, and test modules, are not counted.

Prints each set of files that import each other in a loop (a strongly
connected component of more than one file) with the imports that tie
it, and exits 1 if there is any, 0 if none.

This is a line scanner, not a parser, which is enough for rustfmt's
layout.
"""

import os
import re
import sys
from collections import defaultdict

USE = r"(?:pub(?:\([^)]*\))?\s+)?use\s+([^;]+);"
TOKEN = re.compile(
    r"(^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*\{)"  # inline module
    r"|(^\s*" + USE + r")"  # use line
    r"|([{}])",
    re.M,
)


def modules(src):
    """Module path (a tuple) -> file, for every `.rs` file under `src`."""
    out = {}
    for root, _, files in os.walk(src):
        for f in files:
            if f.endswith(".rs"):
                path = os.path.join(root, f)
                parts = os.path.relpath(path, src)[:-3].split(os.sep)
                if parts[-1] in ("mod", "lib", "main"):
                    parts = parts[:-1]
                out[tuple(parts)] = path
    return out


def expand(stmt):
    """`a::{b, c::{d}}` -> [`a::b`, `a::c::d`]."""
    m = re.match(r"^(.*?)\{(.*)\}$", stmt)
    if not m:
        return [stmt]
    prefix, inner = m.groups()
    parts, depth, cur = [], 0, ""
    for ch in inner:
        depth += (ch == "{") - (ch == "}")
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        parts.append(cur)
    return [u for p in parts for u in expand(prefix + p)]


def uses(text):
    """(inline module path within the file, use path) pairs."""
    out, stack, depth = [], [], 0
    for m in TOKEN.finditer(text):
        if m.group(1):
            stack.append((m.group(2), depth))
            depth += 1
        elif m.group(3):
            inner = [name for name, _ in stack]
            # `a::B as C` names `a::B`: drop the rename, then the spaces.
            stmt = re.sub(r"\s+as\s+\w+", "", m.group(4))
            for u in expand(re.sub(r"\s+", "", stmt)):
                out.append((inner, u))
        elif m.group(5) == "{":
            depth += 1
        else:
            depth -= 1
            if stack and stack[-1][1] == depth:
                stack.pop()
    return out


def source(path):
    """The file's text without its test module."""
    text = open(path, encoding="utf-8").read()
    return re.split(r"#\[cfg\(test\)\]\s*mod tests", text)[0]


def reexports(mods):
    """(module, name) -> the module file a lib.rs or mod.rs re-exports it from."""
    out = {}
    for mod, path in mods.items():
        if os.path.basename(path) not in ("lib.rs", "mod.rs"):
            continue
        for inner, u in uses(source(path)):
            segs = u.split("::")
            if inner or segs[0] in ("crate", "self", "super"):
                continue
            for k in range(len(segs), 0, -1):
                if tuple(list(mod) + segs[:k]) in mods:
                    out[tuple(list(mod) + [segs[-1]])] = tuple(list(mod) + segs[:k])
                    break
    return out


def resolve(mods, rex, here, segs):
    """The module file that a use path `segs`, written in module `here`, names."""
    if segs[0] == "crate":
        base, segs = [], segs[1:]
    elif segs[0] in ("super", "self"):
        base = list(here)
        while segs and segs[0] in ("super", "self"):
            if segs[0] == "super":
                base = base[:-1]
            segs = segs[1:]
    elif tuple(list(here) + segs[:1]) in mods:
        base = list(here)
    else:
        return None  # another crate, or `core`/`alloc`/`std`
    full = base + segs
    for k in range(len(full), 0, -1):
        if tuple(full[:k]) in rex:
            full = list(rex[tuple(full[:k])]) + full[k:]
            break
    for k in range(len(full), -1, -1):
        if tuple(full[:k]) in mods:
            return tuple(full[:k])
    return None


def cycles(src):
    mods = modules(src)
    rex = reexports(mods)
    edges = defaultdict(dict)
    for mod, path in mods.items():
        for inner, u in uses(source(path)):
            segs = u.split("::")
            target = resolve(mods, rex, list(mod) + inner, segs)
            if target is not None and target != mod:
                edges[mod].setdefault(target, []).append(u)
    # Tarjan's strongly connected components.
    index, low, stack, on, comps = {}, {}, [], set(), []
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(comp)

    for v in list(mods):
        if v not in index:
            visit(v)
    name = lambda m: "/".join(m) or "lib"
    for comp in comps:
        print(f"{src}: {len(comp)} files import each other:")
        members = set(comp)
        for v in sorted(comp):
            for w, us in sorted(edges[v].items()):
                if w in members:
                    print(f"  {name(v)} -> {name(w)}: {', '.join(sorted(set(us)))}")
    return len(comps)


if __name__ == "__main__":
    found = sum(cycles(src) for src in sys.argv[1:])
    sys.exit(1 if found else 0)
