"""The examples in the module's docstrings run and say what they show."""

import doctest

import surflet
import surflet.dask


def test_docstrings():
    for module in (surflet, surflet.dask):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


def test_stubs_match_the_module():
    # mypy's stubtest compares _surflet.pyi with the compiled module.
    import subprocess
    import sys

    r = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "surflet._surflet"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stdout + r.stderr
