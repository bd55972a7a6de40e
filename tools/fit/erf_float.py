#!/usr/bin/python3
"""Fits the coefficients of sdk/iter/vec/vec_erf.h's erf_float and prints them as C++.

    /usr/bin/python3 tools/fit/erf_float.py

Development tool (Debian's python3-numpy and python3-scipy); the header holds its output, and
running it again prints the same numbers. erf_float computes, for a = |x|:
    a <  SMALL:  erf(a) = a + a P(a^2)
    a >= SMALL:  erf(a) = 1 - 2^(z - 2),  z = Z(min(a, BIG) - SMALL),  2^z = 2^n E(z - n)
with n = round(z), so z - n is in [-0.5, 0.5]. Z fits log2(erfc(a)) + 2: near SMALL it is small
(-0.39), so rounding it to float costs little; the 2 goes into the exponent of 2^n.
Each polynomial (degree 6) is a weighted minimax fit (a linear program on a dense grid) of the
error that reaches the result, relative to erf: P's times a; Z's times erfc(a) ln 2 (an error d
in z moves erfc by d ln2 erfc); E's relative to 2^f, whose error erfc(a) scales down again (the
weight is E's own relative error: the boundary, where erfc = 0.19, needs all of it). The
coefficients are rounded to float one at a time, the constant term first, each rounding
followed by a refit of the higher ones. The fit errors printed are far below float's 2^-24;
the header's bound (float rounding included) comes from vec_erf_test.cc, which can check every
float.
"""
import numpy as np
from scipy.optimize import linprog
from scipy.special import erf, erfc

SMALL = 0.921875  # where the two forms meet (exact in float); erfc(SMALL) = 0.19
BIG = 4.0  # a is clamped to this: erfc(4) = 1.5e-8 < 2^-25, so 1 - erfc rounds to 1
DEGREE = 6
POINTS = 8000


def minimax(basis, target, weight):
    """Coefficients c minimising max |weight * (basis @ c - target)|."""
    a = weight[:, None] * basis
    b = weight * target
    # Least squares first; the linear program then solves for the (small) correction, scaled
    # to order 1 so the solver's tolerances (1e-7) do not swamp errors of order 1e-9.
    c_ls = np.linalg.lstsq(a, b, rcond=None)[0]
    r = b - a @ c_ls
    scale = np.abs(r).max()
    cols = np.abs(a).max(axis=0)
    an, rn = a / cols, r / scale
    n, k = an.shape
    ones = np.ones((n, 1))
    res = linprog(
        np.r_[np.zeros(k), 1.0],  # minimise the bound t: -t <= an @ d - rn <= t
        A_ub=np.block([[an, -ones], [-an, -ones]]),
        b_ub=np.r_[rn, -rn],
        bounds=[(None, None)] * (k + 1),
        method="highs",
    )
    assert res.success, res.message
    return c_ls + res.x[:k] / cols * scale


def fit_float(var, target, weight):
    """Degree-DEGREE polynomial in var with float coefficients, lowest degree first."""
    basis = np.vander(var, DEGREE + 1, increasing=True)
    fixed = []
    for j in range(DEGREE + 1):
        c = minimax(basis[:, j:], target - basis[:, :j] @ np.array(fixed), weight)
        fixed.append(float(np.float32(c[0])))
    return np.array(fixed)


def show(name, coefficients, error):
    print(f"// {name}: max relative error {error:.2e}; highest degree first")
    for c in coefficients[::-1]:
        print(f"{c:.9e}f")


def main():
    x = np.linspace(1e-6, SMALL, POINTS)
    p = fit_float(x * x, erf(x) / x - 1, x / erf(x))
    show("P", p, np.abs((x + x * np.polyval(p[::-1], x * x)) / erf(x) - 1).max())

    a = np.linspace(SMALL, BIG, POINTS)
    z = np.log2(erfc(a)) + 2
    w = erfc(a) * np.log(2) / erf(a)
    c = fit_float(a - SMALL, z, w)
    show("Z (relative to erf)", c, np.abs((np.polyval(c[::-1], a - SMALL) - z) * w).max())

    f = np.linspace(-0.5, 0.5, POINTS)
    e = fit_float(f, 2.0**f, 2.0**-f)
    show("E", e, np.abs(np.polyval(e[::-1], f) * 2.0**-f - 1).max())


if __name__ == "__main__":
    main()
