#!/usr/bin/env python3
"""Spectral Python's MNF of an ENVI cube, for reference_test's cross-check.

    spy_mnf.py CUBE.hdr COMPONENTS

Prints the eigenvalues (descending, one line, space-separated), then COMPONENTS lines: the
transform's columns (noise.sqrt_inv_cov @ V, each with its largest-magnitude entry positive, the
lab's sign rule). Noise from spectral.noise_from_diffs (lower-right differences) on the cube
converted to float64 first (SPy differences in the input's type: a uint8 cube would wrap).
Exits 77 when Spectral Python or numpy is missing (CTest: skipped).
"""
import sys

try:
    import numpy as np
    import spectral
    from spectral.algorithms.algorithms import noise_from_diffs, calc_stats, mnf
except ImportError as e:
    print("SKIP: %s (install python3-spectral python3-numpy)" % e)
    sys.exit(77)

path, m = sys.argv[1], int(sys.argv[2])
img = spectral.envi.open(path)
x = np.asarray(img.open_memmap(interleave="bip"), dtype=np.float64)  # lines x samples x bands
signal = calc_stats(x)
noise = noise_from_diffs(x)
result = mnf(signal, noise)
values = result.napc.eigenvalues
vectors = noise.sqrt_inv_cov.dot(result.napc.eigenvectors)
print(" ".join("%.17g" % v for v in values))
for j in range(m):
    col = vectors[:, j]
    if col[np.argmax(np.abs(col))] < 0:
        col = -col
    print(" ".join("%.17g" % v for v in col))
