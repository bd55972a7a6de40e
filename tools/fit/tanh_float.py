#!/usr/bin/python3
"""Fits the coefficients of sdk/iter/vec/vec_exp.h's tanh_float and prints them as C++.

    /usr/bin/python3 tools/fit/tanh_float.py

Development tool (Debian's python3-numpy and python3-scipy), with erf_float.py's fitting: a
weighted minimax fit of degree 6, coefficients rounded to float one at a time. For |x| < SMALL,
tanh_float computes x + x^3 P(x^2); P fits (tanh(x) - x) / x^3, weighted by x^3 / tanh(x) so
that the error is relative to tanh. The header's bound (float rounding included) comes from
vec_exp_test.cc, which can check every float.
"""
import numpy as np

from erf_float import POINTS, fit_float, show

SMALL = 1.0  # from here on, 1 - 2 / (e^2x + 1) is within about 1 ulp


def main():
    x = np.linspace(1e-3, SMALL, POINTS)
    target = (np.tanh(x) - x) / x**3
    weight = x**3 / np.tanh(x)
    p = fit_float(x * x, target, weight)
    error = np.abs((x + x**3 * np.polyval(p[::-1], x * x)) / np.tanh(x) - 1).max()
    show("P", p, error)


if __name__ == "__main__":
    main()
