"""A short structure-aware fuzz of the harness server: no well-formed JSON request
built from the shipped vectors may end in an ``errored`` answer.

Each request is a shipped vector's input with a few mutations — a value replaced by one of
another JSON type, an object key dropped, an extra key added, an array element removed or
duplicated — sent as a line through the real :func:`answer`.  Malformed input is a case, not a
crash (HARNESS-MSG-3): every answer must be an ``output``.  Seeded, so a CI verdict reproduces.
"""

from __future__ import annotations

import random
from collections import Counter

from mcp_touchstone import serde_json
from mcp_touchstone.conformance import Vector, default_vectors_dir, load_vectors
from mcp_touchstone.harness._registry import reference_operations
from mcp_touchstone.harness._server import answer
from mcp_touchstone.serde_json import JSON

REQUESTS = 3000
SEED = 14

_WRONG: tuple[JSON, ...] = (
    None, True, False, 0, -1, 2**63, 2**64, 1.5, -0.0, 1e300, "", "x", "\u0000", "\ud7ff",
    [], [None], [[]], {}, {"": None}, {"a": []}, "2025-11-25", "ref/prompt", "elicitation/create",
)  # fmt: skip


def _nodes(value: JSON, path: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _nodes(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _nodes(item, (*path, index))
    return out


def _mutate(value: JSON, rng: random.Random) -> JSON:
    """One structural mutation of a copy of ``value``."""
    root: JSON = serde_json.from_str(serde_json.to_string_ordered(value))
    path = rng.choice(_nodes(root))
    parent: JSON = None
    node = root
    for step in path:
        parent = node
        node = node[step]  # type: ignore[index]  # the path was read off this very tree
    choice = rng.randrange(4)
    if choice == 0 or not path:
        replacement = rng.choice(_WRONG)
        if not path:
            return replacement
        parent[path[-1]] = replacement  # type: ignore[index]  # parent holds path[-1]
    elif choice == 1 and isinstance(node, dict) and node:
        del node[rng.choice(list(node))]
    elif choice == 2 and isinstance(node, dict):
        node[rng.choice(("extra", "_meta", "type", "params", "id"))] = rng.choice(_WRONG)
    elif isinstance(node, list) and node:
        index = rng.randrange(len(node))
        if rng.random() < 0.5:
            del node[index]
        else:
            node.insert(index, node[index])
    else:
        parent[path[-1]] = rng.choice(_WRONG)  # type: ignore[index]  # parent holds path[-1]
    return root


def test_harness_fuzz_answers_every_mutated_vector_with_an_output() -> None:
    """HARNESS-MSG-3, HARNESS-MSG-5: 3,000 mutated vector inputs through answer(): zero
    errored answers, every one an output."""
    root = default_vectors_dir()
    assert root is not None
    vectors: list[Vector] = load_vectors(root)
    ops = reference_operations()
    rng = random.Random(SEED)
    errored: Counter[str] = Counter()
    for seq in range(REQUESTS):
        vector = rng.choice(vectors)
        data = vector.input
        for _ in range(rng.randint(1, 3)):
            data = _mutate(data, rng)
        case: dict[str, JSON] = {"operation": vector.operation, "input": data}
        line = serde_json.to_string_ordered({"cmd": "run", "seq": seq, "case": case})
        response = answer(line, ops)
        assert response is not None
        assert response.get("seq") == seq
        if "output" not in response:
            errored[f"{vector.operation}: {response.get('message')}"[:160]] += 1
    assert not errored, errored.most_common(5)
