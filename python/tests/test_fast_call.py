"""The small kernels' fast entry (python/src/fast_call.hpp) takes the common call and hands every
other one to the pybind11 function: whichever answers, a call gives the same result or the same
error as a plain pybind11 binding would."""
import numpy as np
import pytest

import liedyn

FAST = ("rnea", "eidamb", "bias_force", "gravity_force", "coriolis_force", "aba",
        "eidamb_derivatives")


@pytest.fixture
def call(solo12):
    m = solo12
    d = liedyn.Data(m)
    x = liedyn.random_state(m, 4)
    v = np.linspace(-1.0, 1.0, m.nv)
    return m, d, x, v


@pytest.mark.parametrize("name", FAST)
def test_the_fast_functions_keep_the_pybind11_signature(name):
    f = getattr(liedyn, name)
    assert f.__name__ == name
    assert f.__module__ == "liedyn._liedyn"
    assert (f.__doc__ or "").startswith(name + "(model: ")


def test_every_spelling_of_a_call_gives_one_result(call):
    m, d, x, v = call
    want = liedyn.aba(m, liedyn.Data(m), x, v)
    out = np.empty(m.nv)
    spellings = [
        lambda: liedyn.aba(m, d, x, v),
        lambda: liedyn.aba(model=m, data=d, x=x, tau=v),
        lambda: liedyn.aba(m, d, tau=v, x=x),
        lambda: liedyn.aba(m, d, x, v, None),
        lambda: liedyn.aba(m, d, x, v, fext=None),
        lambda: liedyn.aba(m, d, x, v, out=out),
        lambda: liedyn.aba(m, d, x, v, **{"o" + "ut": out}),  # a keyword that is not interned
        lambda: liedyn.aba(m, d, x, list(v)),  # converted by pybind11
        lambda: liedyn.aba(m, d, x, v[::-1].copy()[::-1]),  # a strided view: pybind11 copies
    ]
    for spelling in spellings:
        got = spelling()
        np.testing.assert_array_equal(got, want)


def test_external_wrenches_reach_the_kernel(call):
    m, d, x, v = call
    fext = np.zeros((m.num_bodies, 6))
    fext[3] = [1.0, -2.0, 3.0, 0.5, 0.0, -0.5]
    with_wrench = liedyn.rnea(m, d, x, v, fext)
    assert not np.array_equal(with_wrench, liedyn.rnea(m, d, x, v))
    np.testing.assert_array_equal(liedyn.rnea(m, d, x, v, fext=fext), with_wrench)
    np.testing.assert_array_equal(liedyn.rnea(m, d, x, v, fext.tolist()), with_wrench)


def test_a_call_the_signature_refuses_raises_pybind11s_error(call):
    m, d, x, v = call
    out = np.empty(m.nv)
    aba = getattr(liedyn, "aba")  # untyped: the stubs (and mypy) refuse these calls already
    for wrong in (lambda: aba(m, d, x, v, None, out),  # out is keyword-only
                  lambda: aba(m, d, x, v, oot=out),
                  lambda: aba(m, d, x),
                  lambda: aba(m, d, x, v, x=x),
                  lambda: aba(m, d, x, **{"tau": v, "x": x})):
        with pytest.raises(TypeError, match="incompatible function arguments|multiple values"):
            wrong()


def test_errors_of_the_checks_come_through_typed(call):
    m, d, x, v = call
    with pytest.raises(liedyn.InvalidArgument, match="another Model object"):
        liedyn.aba(m, liedyn.Data(liedyn.random_model(3)), x, v)
    with pytest.raises(liedyn.InvalidArgument, match="non-finite"):
        liedyn.aba(m, d, x, np.full(m.nv, np.nan))
    with pytest.raises(TypeError, match="complex"):
        liedyn.aba(m, d, x, v + 0j)
    with pytest.raises(ValueError, match="shape"):
        liedyn.aba(m, d, x, v, out=np.empty(m.nv + 1))
    with pytest.raises(ValueError, match="read-only"):
        liedyn.aba(m, d, x, v, out=d.ddq)


def test_the_derivatives_take_their_defaults_and_tuples(call):
    m, d, x, v = call
    want = [a.copy() for a in liedyn.eidamb_derivatives(m, d, x, v)]
    spatial = liedyn.eidamb_derivatives(m, d, x, v, liedyn.TwistRepresentation.Inertial)
    assert not np.array_equal(spatial[0], want[0])
    out = tuple(np.empty_like(a) for a in want)
    assert liedyn.eidamb_derivatives(m, d, x, v, out=out) is out
    for got, expected in zip(out, want):
        np.testing.assert_array_equal(got, expected)
