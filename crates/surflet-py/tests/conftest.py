"""Shared fixtures: the ``surflet`` command-line tool, to compare against."""

import os
import pathlib
import subprocess

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


def _find_cli() -> pathlib.Path:
    env = os.environ.get("SURFLET_BIN")
    if env:
        return pathlib.Path(env)
    for profile in ("debug", "release"):
        p = ROOT / "target" / profile / "surflet"
        if p.exists():
            return p
    subprocess.run(["cargo", "build", "--bin", "surflet"], cwd=ROOT, check=True)
    return ROOT / "target" / "debug" / "surflet"


@pytest.fixture(scope="session")
def cli():
    """Runs ``surflet ARGS`` with ``stdin`` and returns (code, stdout, stderr)."""
    exe = _find_cli()

    def run(args, stdin=""):
        r = subprocess.run(
            [str(exe), *args], input=stdin, capture_output=True, text=True, timeout=300
        )
        return r.returncode, r.stdout, r.stderr

    return run


def points_text(points: np.ndarray) -> str:
    """One CSV line per point, each coordinate exact (``repr`` of a float
    round-trips; a float32 widens to float64 exactly)."""
    return "".join(",".join(repr(float(c)) for c in p) + "\n" for p in points)


def parse_cli(stdout: str, columns: int) -> np.ndarray:
    rows = [[float(f) for f in line.split(",")] for line in stdout.splitlines()]
    a = np.array(rows, dtype=np.float64)
    assert a.shape[1] == columns
    return a


def bits(a) -> np.ndarray:
    """float64 bit patterns, so that NaN equals NaN and -0 differs from +0."""
    return np.ascontiguousarray(np.asarray(a, dtype=np.float64)).view(np.uint64)


# Under CI (CI=true) a skipped test is a failure: a test that skips because
# dask, distributed or the CLI is missing has not run, and a green run must
# mean every test ran. Locally a skip stays a skip, with its reason shown
# (`-rs` in .ci/python).
_skipped = []


def pytest_runtest_logreport(report):
    if report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        _skipped.append(f"{report.nodeid}: {reason}")


def pytest_sessionfinish(session, exitstatus):
    if _skipped and os.environ.get("CI") == "true":
        print("\nCI=true: skipped tests are failures here:", *_skipped, sep="\n  ")
        session.exitstatus = 1
