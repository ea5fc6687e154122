"""Long calls release the GIL: point samples and grids, of noises, stacks
and graphs."""

import threading
import time

import numpy as np
import pytest
import surflet

N = surflet.Noise("perlin", seed=1)
# A plain noise's grid call that takes tens of milliseconds on one thread
# however fast the grid engine gets: 2.6 M samples of 3D cellular noise
# (about 50 ms on the project's machine; a 10 M-sample Perlin grid, which
# this once was, takes under 2 ms there now).
CELLS = surflet.Noise("cellular", seed=1)


def fill():
    return CELLS.grid((0, 0, 0), (0.05, 0.05, 0.05), (40, 256, 256), threads=1)


STACK = surflet.Stack.from_toml('noise = "simplex"\n[fractal]\noctaves = 3\n')
GRAPH = surflet.Graph.parse("perlin(seed=1) + simplex(seed=2) * 0.5")
# 4 M 3D points, made once (making them holds the GIL).
POINTS = np.random.default_rng(0).uniform(-100, 100, size=(4_000_000, 3))


def ticks_during(call):
    """How often the calling thread ran while ``call`` ran in another: if
    the call held the GIL, the loop could not run until it returned."""
    done = threading.Event()
    ticks = 0

    def work():
        call()
        done.set()

    t = threading.Thread(target=work)
    started = time.perf_counter()
    t.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.0005)
    t.join()
    return ticks, time.perf_counter() - started


def test_python_runs_during_a_call():
    ticks, seconds = ticks_during(fill)
    assert seconds > 0.02, seconds
    assert ticks >= 20, (ticks, seconds)


@pytest.mark.parametrize(
    "name,call",
    [
        ("Noise.sample", lambda: N.sample(POINTS, gradient=True, threads=1)),
        ("Stack.sample", lambda: STACK.sample(POINTS, threads=1)),
        ("Stack.grid", lambda: STACK.grid((0, 0, 0), (0.05, 0.05, 0.05), (160, 256, 256), threads=1)),
        ("Graph.sample", lambda: GRAPH.sample(POINTS, threads=1)),
        ("Graph.grid", lambda: GRAPH.grid((0, 0, 0), (0.05, 0.05, 0.05), (160, 256, 256), threads=1)),
    ],
)
def test_python_runs_during_every_kind_of_call(name, call):
    # A call that held the GIL would let the loop tick once or twice (at
    # the start, and at most once per 5 ms switch interval before the call
    # takes the GIL for good). Each call here takes tens of milliseconds on
    # one thread (4 M points, or 10 M grid points of a fractal or a
    # graph), in which a free loop ticks every half millisecond or so.
    ticks, seconds = ticks_during(call)
    assert seconds > 0.02, (name, seconds)
    assert ticks >= 10, (name, ticks, seconds)


# The long call of the race below: 8 octaves of 3D simplex noise over 4 M
# grid points, 34 M kernel evaluations (0.3 s on one core of the project's
# machine; simplex grids do not share columns, so the engine's row sharing
# barely shortens it), against a short call of 4096 points of the same
# stack (0.3 ms). The race is decided by a margin of a thousand to one, not
# by how fast one engine is this year: a race with a short call a 24th of a
# long Perlin grid was once lost when the grid engine got faster.
LONG = surflet.Stack.from_toml('noise = "simplex"\n[fractal]\noctaves = 8\n')


def test_a_short_call_finishes_inside_a_long_one():
    # Two Python threads, each calling with threads=1, run side by side: a
    # short call started while a long one is in flight returns first. If the
    # long call held the GIL, the short one could not even start until it
    # returned; if the two shared one single-thread pool, the short call
    # would queue behind the long one. The test reads the order of events,
    # not a speed-up, so a busy machine slows it without failing it.
    ended = {}

    def long_call():
        LONG.grid((0, 0, 0), (0.05, 0.05, 0.05), (64, 256, 256), threads=1)
        ended["long"] = time.perf_counter()

    t = threading.Thread(target=long_call)
    t.start()
    time.sleep(0.05)
    assert t.is_alive(), "the long call ended before the short one began"
    LONG.grid((0, 0, 0), (0.05, 0.05, 0.05), (1, 64, 64), threads=1)
    ended["short"] = time.perf_counter()
    t.join()
    assert ended["short"] < ended["long"], ended
