"""The end state tau2-bench's own retail tools reach for each task's expected actions.

Test oracle for src/core/import/shared.test.ts, run by hand (never by the app or the importer):

    python3 scripts/tau2/expected_end_states.py ../shared/tau2/retail \
        > src/core/import/testdata/tau2-retail-end-states.json

It loads the domain's real data_model.py and tools.py with the few `tau2` modules they import
stubbed (a pydantic base for the database, a no-op `is_tool`), replays each task's expected
actions in order on a fresh copy of db.json (a call that raises changes nothing, as in
tau2-bench, where the error goes back to the agent), and writes, per task, a SHA-256 of every row
whose value differs from db.json afterwards. Only hashes are written, never the domain's text.
Needs python3 with pydantic 2.
"""

import enum
import hashlib
import json
import sys
import types
from pathlib import Path

from pydantic import BaseModel


def stub(name: str, **attrs) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(attrs)
    sys.modules[name] = module
    return module


class DB(BaseModel):
    @classmethod
    def load(cls, path):
        return cls.model_validate(json.loads(Path(path).read_text()))


class ToolType(str, enum.Enum):
    READ = "read"
    WRITE = "write"
    THINK = "think"
    GENERIC = "generic"


class ToolKitBase:
    def __init__(self, db):
        self.db = db


def is_tool(_kind):
    return lambda fn: fn


def load(name: str, path: Path) -> types.ModuleType:
    module = stub(name)
    exec(compile(path.read_text(), str(path), "exec"), module.__dict__)
    return module


def canonical(value):
    """JSON text both sides agree on: sorted keys, no nulls, integral floats as integers."""

    def norm(v):
        if isinstance(v, dict):
            return {k: norm(x) for k, x in v.items() if x is not None}
        if isinstance(v, list):
            return [norm(x) for x in v]
        if isinstance(v, float) and v.is_integer():
            return int(v)
        return v

    return json.dumps(norm(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(value) -> str:
    return hashlib.sha256(canonical(value).encode("utf-8")).hexdigest()


def main(root: Path) -> None:
    for package in ["tau2", "tau2.domains", "tau2.domains.retail", "tau2.environment", "tau2.utils"]:
        stub(package)
    stub("tau2.utils.utils", DATA_DIR=root)
    stub("tau2.domains.retail.utils", RETAIL_DB_PATH=root / "data" / "db.json")
    stub("tau2.environment.db", DB=DB)
    stub("tau2.environment.toolkit", ToolKitBase=ToolKitBase, ToolType=ToolType, is_tool=is_tool)
    model = load("tau2.domains.retail.data_model", root / "src" / "data_model.py")
    tools = load("tau2.domains.retail.tools", root / "src" / "tools.py")

    raw = (root / "data" / "db.json").read_text()
    before = json.loads(raw)
    sources = {
        name: hashlib.sha256((root / path).read_bytes()).hexdigest()
        for name, path in [
            ("tools.py", "src/tools.py"),
            ("db.json", "data/db.json"),
            ("tasks.json", "data/tasks.json"),
        ]
    }
    tasks = json.loads((root / "data" / "tasks.json").read_text())
    out = {}
    for task in tasks:
        kit = tools.RetailTools(model.RetailDB.model_validate(json.loads(raw)))
        errors = []
        for action in task["evaluation_criteria"].get("actions") or []:
            try:
                getattr(kit, action["name"])(**action["arguments"])
            except Exception as error:  # tau2-bench hands the error to the agent
                errors.append(f'{action["name"]}: {error}')
        after = json.loads(kit.db.model_dump_json())
        changed = {}
        for table, rows in after.items():
            for key, row in rows.items():
                if canonical(row) != canonical(before[table].get(key)):
                    changed[f"{table}/{key}"] = digest(row)
        out[task["id"]] = {"changed": changed, "errors": errors}
    json.dump({"sources": sources, "tasks": out}, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
