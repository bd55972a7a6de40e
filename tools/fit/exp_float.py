#!/usr/bin/python3
"""Fits the polynomial of sdk/iter/vec/vec_math_avx512.cc's exp and prints it as C++.

    /usr/bin/python3 tools/fit/exp_float.py

Development tool (Debian's python3-numpy and python3-scipy), with erf_float.py's fitting. On
r in [-ln2/2, ln2/2], e^r = 1 + r + r^2 P(r) with P of degree 4 (a degree-6 polynomial in all),
P fitting (e^r - 1 - r) / r^2 weighted by r^2 / e^r so that the error is relative to e^r;
coefficients rounded to float one at a time. The bound with float rounding comes from
vec_math_test.cc.
"""
import numpy as np

import erf_float
from erf_float import POINTS, fit_float, show

HALF_LN2 = 0.34657359027997264


def main():
    erf_float.DEGREE = 4
    r = np.linspace(-HALF_LN2, HALF_LN2, POINTS)
    r = r[np.abs(r) > 1e-4]  # the target's limit at 0 is 1/2; its samples there are noise
    target = (np.expm1(r) - r) / r**2
    weight = r**2 / np.exp(r)
    p = fit_float(r, target, weight)
    error = np.abs((1 + r + r**2 * np.polyval(p[::-1], r)) / np.exp(r) - 1).max()
    show("P", p, error)


if __name__ == "__main__":
    main()
