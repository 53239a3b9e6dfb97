#!/usr/bin/env python3
"""The include graph of include/liedyn follows CONTRIBUTING's layers and has no cycle.

Each header belongs to the layer of its folder (an umbrella header `X.hpp` beside folder `X/`
to that folder's); a header may include its own layer's headers and those of the layers below,
never one above or beside it. Exits 1 and prints each offending edge or cycle.
"""
import pathlib
import re
import sys

# Bottom to top: CONTRIBUTING.md, "Layers". Folders on one line share a rank and may not
# include each other.
LAYERS = [
    ["config", "version"],
    ["arithmetic", "parallel"],
    ["spatial"],
    ["model"],
    ["algorithm"],
    ["numdiff", "testing"],
    ["interop"],
    ["crocoddyl"],
    ["liedyn"],  # the umbrella header
]
RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}
INCLUDE = re.compile(r'#include\s+[<"]liedyn/([^">]+)[">]')


def layer_of(relative):
    first = relative.split("/")[0]
    return first[: -len(".hpp")] if first.endswith(".hpp") else first


def main():
    root = pathlib.Path(__file__).resolve().parent.parent / "include" / "liedyn"
    graph, problems = {}, []
    for path in sorted(root.rglob("*.hpp")):
        source = str(path.relative_to(root))
        targets = INCLUDE.findall(path.read_text(encoding="utf-8"))
        graph[source] = targets
        for target in targets:
            a, b = layer_of(source), layer_of(target)
            if a not in RANK or b not in RANK:
                problems.append(f"{source} -> {target}: a folder missing from LAYERS")
            elif RANK[b] > RANK[a] or (RANK[b] == RANK[a] and a != b):
                problems.append(f"{source} -> {target}: {a} may not include {b}")
    # Cycles, by depth-first search (0 unvisited, 1 on the stack, 2 done).
    state = {node: 0 for node in graph}

    def visit(node, stack):
        state[node] = 1
        for target in graph.get(node, []):
            if state.get(target) == 1:
                problems.append("cycle: " + " -> ".join(stack[stack.index(target):] + [target]))
            elif state.get(target) == 0:
                visit(target, stack + [target])
        state[node] = 2

    for node in graph:
        if state[node] == 0:
            visit(node, [node])
    for line in problems:
        print(line)
    if problems:
        return 1
    print(f"check-layers: {len(graph)} headers, no edge against the layering, no cycle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
