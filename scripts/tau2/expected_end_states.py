"""The end state tau2-bench's own tools reach for each task's expected actions, in any domain.

Test oracle for src/core/import/shared.test.ts and endStates.test.ts, run by hand (never by the
app or the importer):

    python3 scripts/tau2/expected_end_states.py ../shared/tau2/retail \
        > src/core/import/testdata/tau2-retail-end-states.json

It loads the domain's real modules (data_model.py, user_data_model.py, tools.py, user_tools.py,
environment.py) with the few `tau2` modules they import stubbed, and for each task does what
tau2-bench's evaluator does with the gold actions: a fresh database and user database (db.json or
db.toml, user_db.*), the task's initialization data merged in, its initialization actions and
the tool calls of its message history run, then its expected actions in order (a call that raises changes nothing, as in tau2-bench, where the
error goes back to the agent), the environment's `sync_tools` after each call where the domain
has one. It writes, per task, a SHA-256 of every row whose value differs from the files afterwards
(agent rows as "table/key", user rows as "user:table/key"; a top-level field that is not a map of
records is one row keyed by the field's name), the errors, and each env assertion's outcome.
Only hashes are written, never the domain's text. Needs python3 (3.11+, for tomllib) and pydantic 2.
"""

import enum
import hashlib
import inspect
import json
import sys
import tomllib
import types
from pathlib import Path

from pydantic import BaseModel, ConfigDict


def stub(name: str, **attrs) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(attrs)
    sys.modules[name] = module
    return module


def read_data(path: Path):
    text = path.read_text()
    return tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)


class DB(BaseModel):
    @classmethod
    def load(cls, path):
        return cls.model_validate(read_data(Path(path)))


class BaseModelNoExtra(BaseModel):
    model_config = ConfigDict(extra="forbid")


def update_pydantic_model_with_dict(model, update: dict):
    """tau2's deep merge: nested dicts merge into nested models, other values replace."""
    data = model.model_dump()

    def merge(into, new):
        for key, value in new.items():
            if isinstance(value, dict) and isinstance(into.get(key), dict):
                merge(into[key], value)
            else:
                into[key] = value

    merge(data, update)
    return type(model).model_validate(data)


class ToolType(str, enum.Enum):
    READ = "read"
    WRITE = "write"
    THINK = "think"
    GENERIC = "generic"


class ToolKitBase:
    def __init__(self, db=None):
        self.db = db

    def update_db(self, update: dict | None):
        if update:
            self.db = update_pydantic_model_with_dict(self.db, update)


def is_tool(kind=None, **_):
    """Marks a tool with its type (read, write, ...), as tau2-bench's decorator does."""

    def mark(fn):
        fn.tool_type = kind
        return fn

    return mark


class Environment:
    def __init__(self, domain_name=None, policy=None, tools=None, user_tools=None, **_):
        self.tools = tools
        self.user_tools = user_tools

    def sync_tools(self):
        pass


class Quiet:
    def __getattr__(self, _name):
        return lambda *args, **kwargs: None


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


def list_key(records: list) -> str | None:
    """The field that names each record of a list: the first "*id" field unique over them all."""
    if not records or not all(isinstance(r, dict) for r in records):
        return None
    for field in records[0]:
        if field.lower().endswith("id"):
            values = [r.get(field) for r in records]
            if all(isinstance(v, (str, int)) for v in values) and len(set(values)) == len(values):
                return field
    return None


def rows(data: dict) -> dict:
    """Each record of a database as "table/key": a map of records gives one row per entry, a
    list of records one row per record (named by its id field); anything else is one row."""
    out = {}
    for table, value in data.items():
        if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
            for key, row in value.items():
                out[f"{table}/{key}"] = row
        elif isinstance(value, list) and list_key(value):
            field = list_key(value)
            for row in value:
                out[f"{table}/{row[field]}"] = row
        else:
            out[f"{table}/{table}"] = value
    return out


def subclass_in(module, base):
    found = [
        value
        for value in vars(module).values()
        if inspect.isclass(value)
        and issubclass(value, base)
        and value is not base
        and value.__module__ == module.__name__
    ]
    return found[0] if found else None


def data_file(root: Path, stem: str) -> Path | None:
    for suffix in (".json", ".toml"):
        path = root / "data" / f"{stem}{suffix}"
        if path.exists():
            return path
    return None


class Domain:
    """A tau2-bench domain's own modules and files, loaded with the `tau2` modules they import stubbed."""

    def __init__(self, root: Path) -> None:
        self.name = name = root.name
        package = f"tau2.domains.{name}"
        for module in ["tau2", "tau2.domains", package, "tau2.environment", "tau2.utils", "tau2.data_model"]:
            stub(module)
        stub("tau2.utils.utils", DATA_DIR=root)
        stub("tau2.utils.pydantic_utils", BaseModelNoExtra=BaseModelNoExtra,
             update_pydantic_model_with_dict=update_pydantic_model_with_dict)
        sys.modules["tau2.utils"].load_file = lambda path: read_data(Path(path))
        stub("tau2.data_model.tasks", Task=dict)
        stub("tau2.environment.db", DB=DB)
        stub("tau2.environment.toolkit", ToolKitBase=ToolKitBase, ToolType=ToolType, is_tool=is_tool)
        stub("tau2.environment.environment", Environment=Environment)
        stub("loguru", logger=Quiet())
        src = root / "src"
        if (src / "utils.py").exists():
            load(f"{package}.utils", src / "utils.py")
        modules = {}
        for part in ["data_model", "user_data_model", "tools", "user_tools", "environment"]:
            if (src / f"{part}.py").exists():
                modules[part] = load(f"{package}.{part}", src / f"{part}.py")

        self.db_class = subclass_in(modules["data_model"], DB)
        self.tools_class = subclass_in(modules["tools"], ToolKitBase)
        self.user_db_class = (
            subclass_in(modules["user_data_model"], DB) if "user_data_model" in modules else None
        )
        self.user_tools_class = (
            subclass_in(modules["user_tools"], ToolKitBase) if "user_tools" in modules else None
        )
        env_class = subclass_in(modules["environment"], Environment) if "environment" in modules else None
        self.env_class = env_class or Environment

        db_path = data_file(root, "db")
        user_db_path = data_file(root, "user_db")
        self.db_raw = read_data(db_path)
        self.user_raw = read_data(user_db_path) if user_db_path and self.user_db_class else None
        # The files as the domain's own models read them (defaults filled in, dates as text).
        self.before = rows(json.loads(self.db_class.model_validate(self.db_raw).model_dump_json()))
        self.user_before = (
            rows(json.loads(self.user_db_class.model_validate(self.user_raw).model_dump_json()))
            if self.user_raw is not None else {}
        )
        tasks_path = root / "data" / "tasks.json"
        self.sources = {
            path.name: hashlib.sha256(path.read_bytes()).hexdigest()
            for path in [src / "tools.py", src / "user_tools.py", db_path, user_db_path, tasks_path]
            if path is not None and path.exists()
        }
        tasks = json.loads(tasks_path.read_text())
        if isinstance(tasks, dict) and "tasks" in tasks:
            tasks = tasks["tasks"]
        self.tasks = tasks

    def tool_type(self, kind: str, function: str):
        """The type tau2-bench's decorator gives a tool ("read", "write", ...), or None."""
        kit = self.user_tools_class if kind == "user" else self.tools_class
        kind = getattr(getattr(kit, function, None), "tool_type", None)
        return kind.value if isinstance(kind, ToolType) else kind

    def start(self, task: dict) -> "Run":
        """A fresh environment for the task: its initialization data and actions, then the tool
        calls of its message history, in order."""
        tools = self.tools_class(self.db_class.model_validate(self.db_raw))
        user_tools = (
            self.user_tools_class(self.user_db_class.model_validate(self.user_raw))
            if self.user_raw is not None else None
        )
        run = Run(self.env_class(domain_name=self.name, policy="", tools=tools, user_tools=user_tools))
        state = task.get("initial_state") or {}
        data = state.get("initialization_data") or {}
        if data.get("agent_data"):
            run.env.tools.update_db(data["agent_data"])
        if data.get("user_data") and run.env.user_tools is not None:
            run.env.user_tools.update_db(data["user_data"])
        for action in state.get("initialization_actions") or []:
            run.call(action.get("env_type", "assistant"), action["func_name"], action.get("arguments") or {})
        # The conversation so far happened: its tool calls are made again, in order.
        for message in state.get("message_history") or []:
            for tool_call in message.get("tool_calls") or []:
                kind = "user" if message.get("role") == "user" else "assistant"
                run.call(kind, tool_call["name"], tool_call.get("arguments") or {})
        return run


class Run:
    """One environment as a trajectory changes it: each call through its side's toolkit, the
    environment's `sync_tools` after it; a call that raises changes nothing, as in tau2-bench,
    where the error goes back to the agent."""

    def __init__(self, env) -> None:
        self.env = env
        self.errors = []

    def call(self, kind: str, function: str, arguments: dict, raise_errors: bool = False):
        kit = self.env.user_tools if kind == "user" else self.env.tools
        try:
            result = getattr(kit, function)(**arguments)
        except Exception as error:  # tau2-bench hands the error to the agent
            if raise_errors:
                raise
            self.errors.append(f"{function}: {error}")
            result = None
        try:
            self.env.sync_tools()
        except Exception as error:
            self.errors.append(f"sync_tools: {error}")
        return result

    def env_assertions(self, task: dict) -> list:
        """Each env assertion of the task: held (True/False), or the error it raised."""
        out = []
        for assertion in (task.get("evaluation_criteria") or {}).get("env_assertions") or []:
            try:
                value = self.call(assertion.get("env_type", "assistant"), assertion["func_name"],
                                  assertion.get("arguments") or {}, raise_errors=True)
                held = value == assertion.get("assert_value", True)
            except Exception as error:
                held = f"error: {error}"
            out.append(held)
        return out

    def dumps(self) -> tuple:
        """The agent's and the user's databases as JSON, as tau2-bench hashes them."""
        user = self.env.user_tools.db if self.env.user_tools else None
        return (
            json.loads(self.env.tools.db.model_dump_json()),
            json.loads(user.model_dump_json()) if user is not None else None,
        )


def main(root: Path) -> None:
    domain = Domain(root)
    out = {}
    for task in domain.tasks:
        run = domain.start(task)
        criteria = task.get("evaluation_criteria") or {}
        for action in criteria.get("actions") or []:
            run.call(action.get("requestor", "assistant"), action["name"], action.get("arguments") or {})
        assertions = run.env_assertions(task)
        agent, user = run.dumps()
        changed = {}
        for prefix, db, start in [("", agent, domain.before), ("user:", user, domain.user_before)]:
            if db is None:
                continue
            for key, row in rows(db).items():
                if canonical(row) != canonical(start.get(key)):
                    changed[prefix + key] = digest(row)
        out[task["id"]] = {"changed": changed, "errors": run.errors, "env_assertions": assertions}
    json.dump({"sources": domain.sources, "tasks": out}, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
