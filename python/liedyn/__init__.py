"""liedyn: rigid-body dynamics of moving-base robots and their exact Lie-group linearization.

The compiled module ``liedyn._liedyn`` holds everything; this package re-exports it, and makes
the value types picklable and copyable (so that ``multiprocessing`` and Ray can ship them). See
docs/python.md for the API mapping and the rules for numpy views of ``Data``.
"""
from ._liedyn import *  # noqa: F401,F403
from ._liedyn import __version__, numdiff, _testing  # noqa: F401
from . import interop  # noqa: F401
from . import _liedyn


# pickle finds a reconstructor by its qualified name: a Python function of this module (the
# extension's own functions cannot be pickled by reference).
def _model_from_state(state):
    return _liedyn._model_from_state(state)


def _inertia_from_matrix(matrix):
    return _liedyn.SpatialInertia.from_matrix(matrix)


def _model_reduce(model):
    # What ModelBuilder takes; the far side rebuilds it through the builder (pickle.cpp).
    return (_model_from_state, (_liedyn._model_state(model),))


def _identity(self, *memo):
    # A Model is immutable: a copy of it is itself (as for a tuple), and a Data made for it
    # serves the copy.
    return self


_liedyn.Model.__reduce__ = _model_reduce
_liedyn.Model.__copy__ = _identity
_liedyn.Model.__deepcopy__ = _identity


def _data_reduce(data):
    raise TypeError("liedyn.Data is a workspace and is not pickled: pickle the Model and make "
                    "liedyn.Data(model) on the far side")


_liedyn.Data.__reduce__ = _data_reduce
_liedyn.BatchWorkspace.__reduce__ = _data_reduce


def _state_reduce(x):
    return (_liedyn.State, (x.H, x.s.copy(), x.nu.copy(), x.r.copy()))


def _se3_reduce(H):
    return (_liedyn.SE3, (H.rotation, H.translation))


def _inertia_reduce(I):
    return (_inertia_from_matrix, (I.matrix(),))


_liedyn.State.__reduce__ = _state_reduce
_liedyn.SE3.__reduce__ = _se3_reduce
_liedyn.SpatialInertia.__reduce__ = _inertia_reduce


def _fields(cls):
    # The read-write attributes the binding declares (def_readwrite): every field of the struct.
    return sorted(name for name, attr in vars(cls).items()
                  if isinstance(attr, property) and attr.fset is not None)


def _from_fields(cls, fields):
    obj = cls()
    for name, value in fields.items():
        setattr(obj, name, value)
    return obj


def _make_field_picklable(cls):
    names = _fields(cls)

    def reduce(obj):
        return (_from_fields, (cls, {name: getattr(obj, name) for name in names}))

    cls.__reduce__ = reduce


# The option types: plain structs, default-constructible, every field read-write.
# (ConstraintSpec pickles in C++: some of its fields are set by its factories only.)
for _cls in (_liedyn.LinearizationOptions, _liedyn.UrdfOptions, _liedyn.MjcfOptions,
             _liedyn.RandomModelOptions, _liedyn.numdiff.NumDiffOptions):
    _make_field_picklable(_cls)
del _cls
