"""Input conversion shared by the sgmcmc estimators: count matrices to CSR arrays."""

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
