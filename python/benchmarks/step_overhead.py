"""Python overhead per sampler step: SGLD on a 100-dimensional standard normal target,
10^4 steps driven from a Python loop, the gradient computed in NumPy.

Prints, per step (best of 5 repetitions):
  python_loop   chain.step() called from a Python for-loop (the user's loop)
  cxx_loop      chain.run(n): the same steps and NumPy callback, looped in C++
  callback      the NumPy gradient callback alone, called from Python with the same arrays
  overhead      python_loop - (cxx_loop - callback): everything Python adds to one step of
                the C++ sampler (the loop, the call into the extension, the callback's
                dispatch and NumPy work); cxx_loop - callback estimates the C++ work.

Usage: ./bazelw run //python:step_overhead   (or python3 step_overhead.py with sgmcmc importable)
"""

import time

import numpy as np

import sgmcmc

DIMENSION = 100
STEPS = 10**4


def gradient(theta, batch, scale, out):
    np.copyto(out, theta)  # -grad log N(0, I) = theta


def best(fn, repeats=5):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times) / STEPS


def main():
    chain = sgmcmc.samplers.sgld(gradient, np.zeros(DIMENSION), step_size=1e-2, seed=1)

    def python_loop():
        step = chain.step
        for _ in range(STEPS):
            step()

    theta, batch, out = np.zeros(DIMENSION), np.zeros(1, dtype=np.int64), np.zeros(DIMENSION)

    def callback_only():
        for _ in range(STEPS):
            gradient(theta, batch, 1.0, out)

    python_loop()  # warm up
    t_python = best(python_loop)
    t_cxx = best(lambda: chain.run(STEPS))
    t_callback = best(callback_only)
    overhead = t_python - (t_cxx - t_callback)
    print("SGLD, D = %d, %d steps per repetition, best of 5, per step:" % (DIMENSION, STEPS))
    print("  python_loop %.2f us   cxx_loop %.2f us   callback %.2f us" %
          (t_python * 1e6, t_cxx * 1e6, t_callback * 1e6))
    print("  python overhead per step: %.2f us (target < 10 us)" % (overhead * 1e6))
    print("  final |theta|^2 / D = %.3f (about 1 for the standard normal)" %
          (float(chain.theta @ chain.theta) / DIMENSION))


if __name__ == "__main__":
    main()
