"""Input conversion shared by the sgmcmc estimators: count matrices to CSR arrays."""

import numbers

import numpy as np
import scipy.sparse as sp


def csr_arrays(X):
    """(indptr, indices, data, n_features) of a documents x words count matrix.

    X is a scipy.sparse matrix (any format; converted to CSR) or anything numpy.asarray turns
    into a 2-D array. The entries are checked in C++ (non-negative integer counts); stored
    entries of a row become tokens in storage order.
    """
    if sp.issparse(X):
        X = sp.csr_matrix(X)
    else:
        X = np.asarray(X)
        if X.ndim != 2:
            raise ValueError("X must be a 2-D documents x words count matrix, got %d dimension(s)"
                             % X.ndim)
        X = sp.csr_matrix(X)
    return (np.ascontiguousarray(X.indptr, dtype=np.int64),
            np.ascontiguousarray(X.indices, dtype=np.int64),
            np.ascontiguousarray(X.data, dtype=np.float64), X.shape[1])


def csr_matrix(arrays):
    """A scipy.sparse.csr_matrix from the extension's (indptr, indices, data, n_words)."""
    indptr, indices, data, n_words = arrays
    return sp.csr_matrix((data, indices, indptr), shape=(len(indptr) - 1, n_words))


INT32_MAX = 2**31 - 1
INT64_MAX = 2**63 - 1
UINT64_MAX = 2**64 - 1


def check_int(name, value, low, high):
    """value as an int, if it is an integer (not a bool) in [low, high]; TypeError or
    ValueError naming the argument otherwise (instead of pybind11's signature dump or an
    overflow of the C++ type)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError("%s must be an int, got %r" % (name, value))
    if value < low:
        raise ValueError("%s must be >= %d, got %d" % (name, low, value))
    if value > high:
        raise ValueError("%s must be at most %d, got %d" % (name, high, value))
    return int(value)


def check_real(name, value):
    """value as a float, if it is a real number (not a bool); TypeError naming it otherwise.
    Ranges (finite, positive, ...) are checked by the C++ options."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError("%s must be a real number, got %r" % (name, value))
    return float(value)


def check_seed(name, value):
    """A library seed or stream: an int in [0, 2^64)."""
    return check_int(name, value, 0, UINT64_MAX)
