"""liedyn.distributed on a local Ray cluster that the test starts (2 CPUs, loopback only): the
sharded batch equals the single process's batch bit for bit.

Ray is optional for liedyn; CI's wheel stage installs it and sets LIEDYN_REQUIRE_RAY=1, so that
a missing Ray fails there instead of skipping."""
import faulthandler
import os
import re

import numpy as np
import pytest

import liedyn
from conftest import SOLO12, four_feet

DOCS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs")

# Every Ray process binds and talks to 127.0.0.1 only: with this switch Ray takes the loopback
# address as the node's (as on a laptop) rather than the machine's network address.
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"

if os.environ.get("LIEDYN_REQUIRE_RAY") == "1":
    import ray
else:
    ray = pytest.importorskip("ray")

from liedyn.distributed import RayBatch  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    # Bounded: a cluster that hangs ends the run with its stacks after 5 minutes.
    faulthandler.dump_traceback_later(300, exit=True)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             object_store_memory=100 * 1024 * 1024)
    yield ray
    ray.shutdown()
    faulthandler.cancel_dump_traceback_later()


def test_the_cluster_is_on_loopback(cluster):
    assert cluster.get_runtime_context().gcs_address.startswith("127.0.0.1:")
    assert {n["NodeManagerAddress"] for n in cluster.nodes()} == {"127.0.0.1"}


def test_sharded_batches_equal_the_single_process(cluster, solo12):
    m = solo12
    n = 101
    X = liedyn.batch_states(m, [liedyn.random_state(m, i) for i in range(n)])
    tau = np.random.default_rng(1).uniform(-1.0, 1.0, (n, m.nv))
    ws = liedyn.BatchWorkspace(m, 1)
    with RayBatch(m, workers=2) as pool:
        assert pool.workers == 2
        assert np.array_equal(pool.run("batch_aba", X, tau), liedyn.batch_aba(m, ws, X, tau))
        for a, b in zip(pool.run("batch_linearize", X[:9], tau[:9]),
                        liedyn.batch_linearize(m, ws, X[:9], tau[:9])):
            assert np.array_equal(a, b)
        controls = np.repeat(tau[:5, None, :], 3, axis=1)
        assert np.array_equal(pool.run("batch_rollout", X[:5], controls, 0.01),
                              liedyn.batch_rollout(m, ws, X[:5], controls, 0.01))
        with pytest.raises(ValueError, match="no batch kernel"):
            pool.run("aba", X, tau)


def test_constrained_kernels_get_the_workers_constraint_set(cluster, solo12):
    m = solo12
    specs = [liedyn.ConstraintSpec.point_contact(f) for f in ("FL_FOOT", "FR_FOOT", "HL_FOOT",
                                                              "HR_FOOT")]
    cs = four_feet(m)
    X = liedyn.batch_states(m, [liedyn.random_state(m, i) for i in range(10)])
    tau = np.zeros((10, m.nv))
    ws = liedyn.BatchWorkspace(m, cs, 1)
    with RayBatch(m, workers=2, constraints=specs) as pool:
        for a, b in zip(pool.run("batch_constrained_forward_dynamics", X, tau),
                        liedyn.batch_constrained_forward_dynamics(m, cs, ws, X, tau)):
            assert np.array_equal(a, b)


def test_the_docs_snippets_run(cluster, solo12):
    """docs/batch.md's two Python snippets, in sequence, as printed (the robot path aside, and
    ray.init, which the fixture has done on loopback)."""
    text = open(os.path.join(DOCS, "batch.md"), encoding="utf-8").read()
    local, distributed = re.findall(r"```python\n(.*?)```", text, re.S)
    env: dict = {}
    exec(compile(local.replace('"tests/data/solo12.urdf"', repr(SOLO12)), "batch.md", "exec"), env)
    ray_line = 'ray.init(num_cpus=2)'
    assert ray_line in distributed
    exec(compile(distributed.replace(ray_line, "pass"), "batch.md", "exec"), env)
    assert np.array_equal(env["ddq_ray"], env["ddq"])
    assert np.array_equal(env["A_ray"], env["A"][:100])
