"""Shared fixtures of the backplane pytest suite (run by //python:python_test)."""

import numpy as np
import pytest

import backplane as bp


@pytest.fixture
def torch():
    """PyTorch, for golden values and messages; tests that take it skip without it."""
    return pytest.importorskip("torch", reason="torch is not installed (python3-torch)")


def floats(*shape, dtype=np.float32):
    """A tensor of distinct values in (0, 1) of the given shape (a fresh copy)."""
    n = int(np.prod(shape)) if shape else 1
    values = (np.arange(n, dtype=np.float64) + 1) / (n + 1)
    return bp.from_numpy(values.astype(dtype).reshape(shape)).clone()
