"""numpy's conventions: a kernel returns new arrays (results of successive calls never alias one
another nor Data), and takes out= to write into the caller's arrays instead (no allocation)."""
import tracemalloc

import numpy as np
import pytest

import liedyn


def test_a_list_of_results_holds_distinct_values(solo12):
    m = solo12
    d = liedyn.Data(m)
    xs = [liedyn.random_state(m, k) for k in range(5)]
    tau = np.linspace(-1.0, 1.0, m.nv)
    results = [liedyn.aba(m, d, x, tau) for x in xs]
    for x, got in zip(xs, results):
        np.testing.assert_array_equal(got, liedyn.aba(m, liedyn.Data(m), x, tau))
    for i in range(len(results)):
        for j in range(i):
            assert not np.shares_memory(results[i], results[j])
            assert not np.array_equal(results[i], results[j])


def test_later_kernels_leave_earlier_results_alone(solo12):
    m = solo12
    d = liedyn.Data(m)
    x = liedyn.random_state(m, 2)
    tau = np.zeros(m.nv)
    M = liedyn.crba(m, d, x)
    A, B = liedyn.linearize(m, d, x, tau)
    A_kept, B_kept, M_kept = A.copy(), B.copy(), M.copy()
    liedyn.linearize_discrete(m, d, x, tau, 0.01)  # overwrites data.A, data.B
    liedyn.crba(m, d, liedyn.random_state(m, 3))  # overwrites data.M
    np.testing.assert_array_equal(A, A_kept)
    np.testing.assert_array_equal(B, B_kept)
    np.testing.assert_array_equal(M, M_kept)
    assert not np.array_equal(A, d.A) and not np.array_equal(M, d.M)
    for a in (M, A, B):
        assert a.flags.writeable and a.flags.owndata


def test_out_receives_the_result_and_is_returned(solo12):
    m = solo12
    d = liedyn.Data(m)
    x = liedyn.random_state(m, 4)
    tau = np.linspace(-1.0, 1.0, m.nv)
    want = liedyn.aba(m, d, x, tau)
    out = np.empty(m.nv)
    got = liedyn.aba(m, d, x, tau, out=out)
    assert got is out and not np.shares_memory(out, d.ddq)
    np.testing.assert_array_equal(out, want)
    # Several outputs: a tuple of arrays, any layout (C order and a strided slice here).
    A_want, B_want = liedyn.linearize(m, d, x, tau)
    A = np.empty((2 * m.nv, 2 * m.nv))  # C order
    wide = np.zeros((2 * m.nv, 2 * m.nv))
    B = wide[:, ::2]  # non-contiguous columns
    got = liedyn.linearize(m, d, x, tau, out=(A, B))
    assert got[0] is A and got[1] is B
    np.testing.assert_array_equal(A, A_want)
    np.testing.assert_array_equal(B, B_want)
    np.testing.assert_array_equal(wide[:, 1::2], 0.0)  # nothing written between the columns
    M = np.asfortranarray(np.empty((m.nv, m.nv)))
    assert liedyn.crba(m, d, x, out=M) is M
    np.testing.assert_array_equal(M, liedyn.crba(m, d, x))


def test_out_is_checked(solo12):
    m = solo12
    d = liedyn.Data(m)
    x = liedyn.random_state(m, 5)
    tau = np.zeros(m.nv)
    with pytest.raises(ValueError, match=r"liedyn: aba: out has shape \(17,\), expected \(18,\)"):
        liedyn.aba(m, d, x, tau, out=np.empty(17))
    with pytest.raises(ValueError, match=r"liedyn: crba: out has shape \(18,\), expected \(18, 18\)"):
        liedyn.crba(m, d, x, out=np.empty(18))
    with pytest.raises(TypeError, match="liedyn: aba: out must be a numpy array of float64"):
        liedyn.aba(m, d, x, tau, out=np.empty(18, dtype=np.float32))
    with pytest.raises(TypeError, match="liedyn: aba: out must be a numpy array of float64"):
        liedyn.aba(m, d, x, tau, out=[0.0] * 18)
    frozen = np.empty(18)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="liedyn: aba: out is read-only"):
        liedyn.aba(m, d, x, tau, out=frozen)
    with pytest.raises(TypeError, match="liedyn: linearize: out must be a tuple of 2 arrays"):
        liedyn.linearize(m, d, x, tau, out=np.empty((36, 36)))
    with pytest.raises(TypeError):  # keyword-only: a sixth positional argument is refused
        liedyn.aba(m, d, x, tau, None, np.empty(18))  # type: ignore[call-arg]  # on purpose


def peak_bytes(call, n):
    """Peak of the memory tracemalloc traces (numpy's array buffers included) over n calls."""
    call()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        for _ in range(n):
            call()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def test_out_allocates_no_result_per_call(solo12):
    m = solo12
    d = liedyn.Data(m)
    x = liedyn.random_state(m, 6)
    tau = np.zeros(m.nv)
    A, B = np.empty((36, 36)), np.empty((36, 18))
    result_bytes = A.nbytes + B.nbytes  # 15.5 kB
    fresh = peak_bytes(lambda: liedyn.linearize(m, d, x, tau), 50)
    reused = peak_bytes(lambda: liedyn.linearize(m, d, x, tau, out=(A, B)), 50)
    # New arrays: at least the two results live at once. out=: only the call's argument tuple
    # and the like (a few hundred bytes), never a result-sized buffer.
    assert fresh >= result_bytes
    assert reused < 2048, reused


def test_inputs_in_any_layout_give_the_contiguous_arrays_result(solo12):
    """A contiguous vector or a Fortran-ordered matrix of native float64 is viewed in place; other
    layouts, byte orders and lists are converted: the same numbers either way."""
    m = solo12
    d = liedyn.Data(m)
    x = liedyn.random_state(m, 3)
    tau = np.linspace(-1.0, 1.0, m.nv)
    want = liedyn.aba(m, d, x, tau)
    for t in (tau.astype(">f8"), np.repeat(tau, 2)[::2], list(tau), np.frombuffer(tau.tobytes())):
        np.testing.assert_array_equal(liedyn.aba(m, d, x, t), want)
    liedyn.aza_factorize(m, d, x.s)
    Y = np.arange(m.nv * 3, dtype=float).reshape(m.nv, 3)
    want_X = liedyn.aza_solve(m, d, np.asfortranarray(Y))
    wide = np.asfortranarray(np.zeros((m.nv + 2, 6)))
    wide[1:-1, ::2] = Y  # a strided block of a larger array
    for Y_other in (np.ascontiguousarray(Y), Y.astype(">f8"), wide[1:-1, ::2], Y.astype(int)):
        np.testing.assert_array_equal(liedyn.aza_solve(m, d, Y_other), want_X)
