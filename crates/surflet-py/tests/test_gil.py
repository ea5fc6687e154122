"""Long calls release the GIL."""

import threading
import time

import numpy as np
import surflet

N = surflet.Noise("perlin", seed=1)
SHAPE = (160, 256, 256)  # 10 M samples of 3D Perlin noise


def fill():
    return N.grid((0, 0, 0), (0.05, 0.05, 0.05), SHAPE, threads=1)


def test_python_runs_during_a_call():
    # If the call held the GIL, this loop could not run until it returned.
    done = threading.Event()
    ticks = 0

    def work():
        fill()
        done.set()

    t = threading.Thread(target=work)
    t.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.0005)
    t.join()
    assert ticks >= 20, ticks


def test_a_short_call_finishes_inside_a_long_one():
    # Two Python threads, each calling with threads=1, run side by side: a
    # short call started while a long one is in flight returns first. If the
    # long call held the GIL, the short one could not even start until it
    # returned; if the two shared one single-thread pool, the short call
    # would queue behind the long one. The test reads the order of events,
    # not a speed-up, so a busy machine slows it without failing it.
    ended = {}

    def long_call():
        N.grid((0, 0, 0), (0.05, 0.05, 0.05), (SHAPE[0] * 6,) + SHAPE[1:], threads=1)
        ended["long"] = time.perf_counter()

    t = threading.Thread(target=long_call)
    t.start()
    time.sleep(0.05)
    assert t.is_alive(), "the long call ended before the short one began"
    # A 24th of the long call: since value and Perlin grids share their
    # columns, the long call takes about 0.2 s, and a short call of a sixth
    # of it lost the race once to a scheduling delay on a 2-core machine.
    N.grid((0, 0, 0), (0.05, 0.05, 0.05), (SHAPE[0] // 4,) + SHAPE[1:], threads=1)
    ended["short"] = time.perf_counter()
    t.join()
    assert ended["short"] < ended["long"], ended
