"""A batch sharded across Ray workers: many machines' cores on one batch (docs/batch.md).

Each worker is a Ray actor that builds the Model once (shipped by pickle: what ModelBuilder
takes, rebuilt bit for bit), its constraint set and a BatchWorkspace of ``threads`` threads, and
keeps them for every call. A call splits the N states into contiguous shards, one per worker,
runs the batch kernel on each shard there, and gathers the results in order: row i of the result
is the single process's row i, bit for bit.

    import ray, liedyn
    from liedyn.distributed import RayBatch

    ray.init()                                     # or ray.init(address="auto") on a cluster
    pool = RayBatch(model, workers=4, threads=2)   # actors start here, once
    ddq = pool.run("batch_aba", states, tau)       # = liedyn.batch_aba(model, ws, states, tau)
    pool.close()

Ray itself is not a dependency of liedyn: ``pip install ray`` where this module is used.
"""
import numpy as np

import liedyn

# The batch kernels that take the constraint set after the model (when the pool has one).
_TAKES_SET = frozenset((
    "batch_constrained_forward_dynamics",
    "batch_constrained_forward_dynamics_derivatives",
    "batch_impulse_dynamics",
    "batch_rollout",
    "batch_rollout_with_jacobians",
))


def _ray():
    try:
        import ray
    except ImportError as e:  # pragma: no cover - the message is the point
        raise ImportError("liedyn.distributed needs Ray: pip install ray") from e
    return ray


class _Worker:
    """One actor: its Model, constraint set and BatchWorkspace, built once."""

    def __init__(self, model, specs, threads):
        self.model = model
        self.set = liedyn.ConstraintSet(model, specs) if specs else None
        self.workspace = (liedyn.BatchWorkspace(model, self.set, threads) if self.set
                          else liedyn.BatchWorkspace(model, threads))

    def run(self, kernel, states, inputs, options):
        f = getattr(liedyn, kernel)
        if self.set is not None and kernel in _TAKES_SET:
            return f(self.model, self.set, self.workspace, states, *inputs, **options)
        return f(self.model, self.workspace, states, *inputs, **options)


class RayBatch:
    """Runs liedyn's batch kernels over Ray actors.

    model: the liedyn.Model (pickled once into Ray's object store).
    workers: the number of actors (default: the cluster's CPUs divided by threads).
    threads: each actor's BatchWorkspace threads (and the CPUs it reserves).
    constraints: ConstraintSpecs for the constrained kernels and rollouts (None: none).
    """

    def __init__(self, model, workers=None, threads=1, constraints=None):
        ray = _ray()
        if not ray.is_initialized():
            raise RuntimeError("liedyn.distributed.RayBatch: call ray.init() first")
        if threads < 1:
            raise ValueError("liedyn.distributed.RayBatch: threads must be at least 1")
        if workers is None:
            workers = max(1, int(ray.cluster_resources().get("CPU", 1)) // threads)
        if workers < 1:
            raise ValueError("liedyn.distributed.RayBatch: workers must be at least 1")
        actor = ray.remote(num_cpus=threads)(_Worker)
        model_ref = ray.put(model)
        specs = list(constraints) if constraints else None
        self._ray = ray
        self._actors = [actor.remote(model_ref, specs, threads) for _ in range(workers)]

    @property
    def workers(self):
        """The number of actors."""
        return len(self._actors)

    def run(self, kernel, states, *inputs, **options):
        """liedyn.<kernel>(model, [set,] workspace, states, *inputs, **options) over the actors.

        kernel: the name of a batch function ("batch_aba", "batch_linearize", ...). states and
        the per-state inputs (arrays of two or more dimensions: tau, ddq, controls) have the
        state index first, and each actor gets a contiguous shard of them; other inputs (dt,
        restitution, frame ids) go to every actor as they are. Returns what the kernel returns,
        its arrays concatenated along the state index.
        """
        if not kernel.startswith("batch_") or not callable(getattr(liedyn, kernel, None)):
            raise ValueError(f"liedyn.distributed.RayBatch.run: '{kernel}' is no batch kernel")
        states = np.asarray(states)
        bounds = np.linspace(0, len(states), self.workers + 1).round().astype(int)
        refs = []
        for actor, lo, hi in zip(self._actors, bounds[:-1], bounds[1:]):
            if hi > lo:
                shard = [u[lo:hi] if np.ndim(u) >= 2 else u for u in inputs]
                refs.append(actor.run.remote(kernel, states[lo:hi], shard, options))
        parts = self._ray.get(refs)
        if isinstance(parts[0], tuple):
            return tuple(np.concatenate(column) for column in zip(*parts))
        return np.concatenate(parts)

    def close(self):
        """Ends the actors (their models and workspaces go with them)."""
        for actor in self._actors:
            self._ray.kill(actor)
        self._actors = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
