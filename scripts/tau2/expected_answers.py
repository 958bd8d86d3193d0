"""What tau2-bench's own read tools answer, in any domain: the oracle for
src/core/import/answers.test.ts, run by hand (never by the app or the importer):

    python3 scripts/tau2/expected_answers.py ../shared/tau2/telecom \
        > src/core/import/testdata/tau2-telecom-answers.json

For each task, on a fresh environment made as expected_end_states.py makes it (initialization
data, initialization actions, the message history's calls): every read tool of either side that
takes no argument is asked once (what a customer's "check my phone" or an agent's lookup sees
first); then the task's expected actions run in order, and each read among them is answered where
it stands. Each answer is written as the first 16 hex digits of a SHA-256 of its canonical JSON
(a model as its JSON dump, enum members as their values); one that raises is written "error".
Only hashes are written, never the domain's text. Needs python3 (3.11+) and pydantic 2.
"""

import inspect
import json
import sys
from pathlib import Path

from pydantic import BaseModel

sys.path.insert(0, str(Path(__file__).parent))
from expected_end_states import Domain, canonical  # noqa: E402
import hashlib  # noqa: E402


def plain(value):
    """An answer as JSON would carry it: models dumped, enum members as their values."""
    if isinstance(value, BaseModel):
        return json.loads(value.model_dump_json())
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if hasattr(value, "value") and type(value).__module__ != "builtins":
        return value.value
    return value


def short(value) -> str:
    return hashlib.sha256(canonical(plain(value)).encode("utf-8")).hexdigest()[:16]


def answer(run, kind: str, name: str, arguments: dict) -> str:
    kit = run.env.user_tools if kind == "user" else run.env.tools
    try:
        value = getattr(kit, name)(**arguments)
    except Exception:  # the agent would be told the error
        return "error"
    return short(value)


def no_argument_reads(domain: Domain):
    """The read tools of each side that take no argument, by side and name."""
    out = []
    for kind, kit in [("assistant", domain.tools_class), ("user", domain.user_tools_class)]:
        if kit is None:
            continue
        for name, fn in inspect.getmembers(kit, inspect.isfunction):
            if name.startswith("_") or domain.tool_type(kind, name) != "read":
                continue
            params = list(inspect.signature(fn).parameters.values())[1:]
            if all(p.default is not inspect.Parameter.empty for p in params):
                out.append((kind, name))
    return out


def main(root: Path) -> None:
    domain = Domain(root)
    probes = no_argument_reads(domain)
    out = {}
    for task in domain.tasks:
        run = domain.start(task)
        first = {name: answer(run, kind, name, {}) for kind, name in probes}
        gold = {}
        criteria = task.get("evaluation_criteria") or {}
        for i, action in enumerate(criteria.get("actions") or []):
            kind = action.get("requestor", "assistant")
            arguments = action.get("arguments") or {}
            if domain.tool_type(kind, action["name"]) == "read":
                gold[str(i)] = answer(run, kind, action["name"], arguments)
            else:
                run.call(kind, action["name"], arguments)
        out[task["id"]] = {"first": first, "gold": gold}
    json.dump({"sources": domain.sources, "tasks": out}, sys.stdout, indent=0, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
