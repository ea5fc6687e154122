"""The examples in the module's docstrings run and say what they show."""

import doctest

import surflet
import surflet.dask


def test_docstrings():
    for module in (surflet, surflet.dask):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__
