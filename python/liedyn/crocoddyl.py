"""liedyn inside Crocoddyl: its state, action models and residuals on liedyn's dynamics.

The classes are Crocoddyl objects (they derive from Crocoddyl's StateAbstract,
DifferentialActionModelAbstract, ActionModelAbstract and ResidualModelAbstract), usable wherever
Crocoddyl takes one: IntegratedActionModelEuler, CostModelResidual, ShootingProblem and its
solvers, which call liedyn's C++ directly (no Python per node; ShootingProblem.nthreads runs the
nodes in parallel). docs/crocoddyl.md gives the layouts of x and dx, the contacts' senses and
gains, and how to convert to and from crocoddyl.StateMultibody.

Needs Crocoddyl 3.2 from PyPI: ``pip install liedyn[crocoddyl]``.

    import crocoddyl, liedyn
    from liedyn.crocoddyl import StateLiedyn, Actuation, DifferentialActionModelFreeFwdDynamicsLiedyn

    model = liedyn.load_urdf("solo12.urdf")
    state = StateLiedyn(model)
    costs = crocoddyl.CostModelSum(state, 12)
    dam = DifferentialActionModelFreeFwdDynamicsLiedyn(state, Actuation.FloatingBase, costs)
"""

try:
    import crocoddyl as _crocoddyl_module  # registers the base classes first
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        "liedyn.crocoddyl needs Crocoddyl 3.2: pip install 'liedyn[crocoddyl]' "
        f"(importing crocoddyl failed: {error})"
    ) from error

try:
    from ._crocoddyl import (  # noqa: F401
        ActionDataImpulseFwdDynamicsLiedyn,
        ActionModelImpulseFwdDynamicsLiedyn,
        Actuation,
        ContactLiedyn,
        DifferentialActionDataContactFwdDynamicsLiedyn,
        DifferentialActionDataFreeFwdDynamicsLiedyn,
        DifferentialActionModelContactFwdDynamicsLiedyn,
        DifferentialActionModelFreeFwdDynamicsLiedyn,
        ResidualModelCoMPositionLiedyn,
        ResidualModelContactForceLiedyn,
        ResidualModelContactFrictionConeLiedyn,
        ResidualModelContactWrenchConeLiedyn,
        ResidualModelFramePlacementLiedyn,
        ResidualModelFrameRotationLiedyn,
        ResidualModelFrameTranslationLiedyn,
        ResidualModelFrameVelocityLiedyn,
        ResidualModelStateLiedyn,
        StateLiedyn,
        __version__,
    )
except ImportError as error:  # pragma: no cover - depends on the build
    raise ImportError(
        "liedyn.crocoddyl: this liedyn was built without its Crocoddyl module (the build found "
        f"no Crocoddyl 3.2 and eigenpy): {error}"
    ) from error

__all__ = [
    "ActionDataImpulseFwdDynamicsLiedyn",
    "ActionModelImpulseFwdDynamicsLiedyn",
    "Actuation",
    "ContactLiedyn",
    "DifferentialActionDataContactFwdDynamicsLiedyn",
    "DifferentialActionDataFreeFwdDynamicsLiedyn",
    "DifferentialActionModelContactFwdDynamicsLiedyn",
    "DifferentialActionModelFreeFwdDynamicsLiedyn",
    "ResidualModelCoMPositionLiedyn",
    "ResidualModelContactForceLiedyn",
    "ResidualModelContactFrictionConeLiedyn",
    "ResidualModelContactWrenchConeLiedyn",
    "ResidualModelFramePlacementLiedyn",
    "ResidualModelFrameRotationLiedyn",
    "ResidualModelFrameTranslationLiedyn",
    "ResidualModelFrameVelocityLiedyn",
    "ResidualModelStateLiedyn",
    "StateLiedyn",
]
