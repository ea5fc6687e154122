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


def test_two_threads_beat_one_after_the_other():
    # Two Python threads, each filling with one Rust thread: with the GIL
    # released they overlap on two cores. Best of three, to be robust
    # against a busy machine.
    fill()
    serial, parallel = [], []
    for _ in range(3):
        t0 = time.perf_counter()
        fill()
        fill()
        serial.append(time.perf_counter() - t0)
        ts = [threading.Thread(target=fill) for _ in range(2)]
        t0 = time.perf_counter()
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        parallel.append(time.perf_counter() - t0)
    assert min(parallel) < 0.8 * min(serial), (serial, parallel)
