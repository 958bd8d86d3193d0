"""tau2-bench's grade for scripted agent behaviours, as its evaluator computes it.

Test oracle for src/core/import/grading.test.ts, run by hand (never by the app or the importer):

    python3 scripts/tau2/expected_grades.py ../shared/tau2 \
        src/core/import/testdata/tau2-behaviours.json \
        > src/core/import/testdata/tau2-grades.json

Each behaviour (see the "about" of the behaviours file) is a trajectory: tool calls made through
the domain's own tools (expected_end_states.py loads them) and what the agent says. Its grade is
what tau2-bench's evaluator gives, component by component:

- DB: the agent's and the user's databases after the trajectory equal those after the task's
  gold actions (each run from a fresh environment with the task's initial state);
- ENV_ASSERTION: every env assertion holds on the trajectory's end;
- ACTION: every gold action is matched by some call of the trajectory (same name; the arguments
  in `compare_args`, or every argument the call gives when it names none);
- COMMUNICATE: each `communicate_info` string is in some agent message, lowercased, once the
  message's commas are taken out;
- NL_ASSERTION: the scripted judge's answer (met or not);

a component with nothing to check is 1, and the reward is the product of those in the task's
`reward_basis` (DB and COMMUNICATE when it names none). Written: per behaviour, the gold actions
the trajectory kept (by index, so the test makes the same calls), the calls its tools refused,
the components and the reward;
never the domain's text.
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from expected_end_states import Domain, canonical  # noqa: E402

DEFAULT_BASIS = ["DB", "COMMUNICATE"]


def matches(action: dict, call: dict) -> bool:
    """tau2-bench's Action.compare_with_tool_call."""
    if action["name"] != call["name"]:
        return False
    arguments = call.get("arguments") or {}
    compare = action.get("compare_args")
    keys = list(arguments.keys()) if compare is None else compare
    if len(keys) == 0:
        return True
    mine = {k: v for k, v in arguments.items() if k in keys}
    theirs = {k: v for k, v in (action.get("arguments") or {}).items() if k in keys}
    return mine == theirs


def grade(domain: Domain, task: dict, behaviour: dict) -> dict:
    criteria = task.get("evaluation_criteria") or {}
    gold = criteria.get("actions") or []
    drop = behaviour.get("drop", [])
    if drop == "reads":
        drop = [
            i for i, a in enumerate(gold)
            if domain.tool_type(a.get("requestor", "assistant"), a["name"]) == "read"
        ]
    kept = [i for i in range(len(gold)) if i not in drop]
    calls = [
        {"name": gold[i]["name"], "arguments": gold[i].get("arguments") or {},
         "requestor": gold[i].get("requestor", "assistant")}
        for i in kept
    ] + [
        {"name": c["name"], "arguments": c.get("arguments") or {},
         "requestor": c.get("requestor", "assistant")}
        for c in behaviour.get("extra", [])
    ]
    say = behaviour.get("say", [])
    said = [" ".join(criteria.get("communicate_info") or [])] if say == "communicate" else say

    expected = domain.start(task)
    for action in gold:
        expected.call(action.get("requestor", "assistant"), action["name"], action.get("arguments") or {})
    actual = domain.start(task)
    refused = []
    for call in calls:
        before = len(actual.errors)
        actual.call(call["requestor"], call["name"], call["arguments"])
        if any(not e.startswith("sync_tools:") for e in actual.errors[before:]):
            refused.append(call["name"])

    components = {
        "DB": int(canonical(actual.dumps()) == canonical(expected.dumps())),
        "ENV_ASSERTION": int(all(held is True for held in actual.env_assertions(task))),
        "ACTION": int(all(any(matches(a, c) for c in calls) for a in gold)),
        "COMMUNICATE": int(all(
            any(info.lower() in message.lower().replace(",", "") for message in said)
            for info in criteria.get("communicate_info") or []
        )),
        "NL_ASSERTION": int(behaviour["nl"] == "met" or not criteria.get("nl_assertions")),
    }
    basis = criteria.get("reward_basis") or DEFAULT_BASIS
    reward = 1
    for part in basis:
        reward *= components[part]
    return {
        "domain": behaviour["domain"],
        "task": behaviour["task"],
        "behaviour": behaviour["behaviour"],
        "kept": kept,
        "refused": refused,
        "basis": basis,
        "components": components,
        "reward": reward,
    }


def main(shared: Path, spec: Path) -> None:
    behaviours = json.loads(spec.read_text())["behaviours"]
    domains = {}
    sources = {}
    out = []
    for behaviour in behaviours:
        name = behaviour["domain"]
        if name not in domains:
            domains[name] = Domain(shared / name)
            sources[name] = domains[name].sources
        domain = domains[name]
        task = next(t for t in domain.tasks if str(t["id"]) == behaviour["task"])
        out.append(grade(domain, task, behaviour))
    json.dump({"sources": sources, "grades": out}, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve())
