"""The CI recipe: .github/workflows/evals.yml and the composite action it uses
(.github/actions/ragspine-evals). Both parse; every file, make target, action input and
`ragspine` option they name exists (each command's --help is asked); the action's shell steps run
here as a runner runs them, replaying a recorded cassette strictly with no key and gating it; and
the sticky-comment script, run by node against a stand-in for the GitHub API, edits the one
comment its marker finds instead of adding one."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from ragspine.evals.run.records import read_run
from tests.cli import invoke
from tests.fakes.corpora import Stores

ROOT = Path(__file__).parents[2]
WORKFLOW = ROOT / ".github" / "workflows" / "evals.yml"
ACTION_DIR = ROOT / ".github" / "actions" / "ragspine-evals"
ACTION = ACTION_DIR / "action.yml"
EXPR = re.compile(r"\$\{\{\s*(.+?)\s*\}\}")
RAGSPINE = str(Path(sys.executable).parent / "ragspine")


def _yaml(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text("utf-8"))
    assert isinstance(data, dict), path
    return data


def _workflow_steps() -> list[dict[str, Any]]:
    flow = _yaml(WORKFLOW)
    return [step for job in flow["jobs"].values() for step in job["steps"]]


def _action_steps() -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = _yaml(ACTION)["runs"]["steps"]
    return steps


# -- what the files name ----------------------------------------------------------------------


def test_the_workflow_runs_each_suite_through_the_action_with_inputs_that_exist() -> None:
    flow = _yaml(WORKFLOW)
    assert flow["permissions"] == {
        "contents": "read", "pull-requests": "write", "checks": "write",
    }  # fmt: skip
    assert set(flow[True]) == {"pull_request", "push"}  # YAML 1.1 reads the key `on` as True
    inputs = _yaml(ACTION)["inputs"]
    required = {name for name, spec in inputs.items() if spec.get("required")}
    makefile = (ROOT / "Makefile").read_text("utf-8")
    suites = [s for s in _workflow_steps() if s.get("uses") == "./.github/actions/ragspine-evals"]
    assert [s["with"]["name"] for s in suites] == ["acme", "jinyu", "english"]
    for step in suites:
        given = step["with"]
        assert set(given) <= set(inputs) and required <= set(given), given
        for key in ("golden", "baseline", "thresholds", "profile"):
            if key in given:
                assert (ROOT / given[key]).exists(), given[key]
        assert (ROOT / given["baseline"] / "run.json").is_file()
        target = given["prepare"].removeprefix("make ")
        assert re.search(rf"^{re.escape(target)}:", makefile, re.M), target
        assert given["ragspine"] == ".venv/bin/ragspine" and "VENV := .venv" in makefile
    for later in suites[1:]:  # each later suite runs after a failed gate
        assert later["if"] == "${{ !cancelled() }}"


def test_every_action_pinned_and_every_expression_names_something_defined() -> None:
    for step in _workflow_steps() + _action_steps():
        uses = step.get("uses", "")
        if uses and not uses.startswith("./"):
            assert re.fullmatch(r"[\w.-]+/[\w.-]+@v\d+", uses), uses  # a major version
        elif uses:
            assert (ROOT / uses / "action.yml").is_file(), uses
    inputs = set(_yaml(ACTION)["inputs"])
    outputs: dict[str, set[str]] = {}
    for step in _action_steps():
        text = json.dumps(step, ensure_ascii=False)
        for expr in EXPR.findall(text):
            for name in re.findall(r"inputs\.([\w-]+)", expr):
                assert name in inputs, name
            for sid, out in re.findall(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expr):
                assert out in outputs.get(sid, set()), f"{sid}.{out} is not written before"
        if "run" in step:
            assert step["shell"] == "bash", step["name"]
            assert "${{" not in step["run"], "inputs reach a script through env only"
            if "id" in step:
                outputs[step["id"]] = set(re.findall(r'echo "([\w-]+)=', step["run"]))
    for name, spec in _yaml(ACTION)["outputs"].items():
        (sid, out) = re.findall(r"steps\.([\w-]+)\.outputs\.([\w-]+)", spec["value"])[0]
        assert out in outputs[sid], name


def _ragspine_commands() -> dict[str, set[str]]:
    """Each `ragspine eval CMD` the action's scripts run, with the options they give it: on the
    line that runs it, or built up in an ``args`` array (``args=(eval CMD …``, ``args+=(…``)."""
    commands: dict[str, set[str]] = {}
    for step in _action_steps():
        building = None
        for line in step.get("run", "").splitlines():
            line = line.strip()
            started = re.match(r"args=\(eval (\w+)", line)
            if started:
                building = started.group(1)
            direct = re.search(r'"\$RAGSPINE" eval (\w+)', line)
            name = direct.group(1) if direct else building
            if name and (started or direct or line.startswith(("args+=", "if ["))):
                commands.setdefault(name, set()).update(re.findall(r"(--[a-z][\w-]*)", line))
    return commands


def test_every_ragspine_option_the_action_gives_is_one_the_command_takes() -> None:
    commands = _ragspine_commands()
    assert set(commands) == {"run", "diff", "compare", "gate"}
    assert commands["run"] >= {"--golden", "--provider", "--cassette", "--cassette-mode"}
    assert commands["gate"] == {"--baseline", "--current", "--thresholds"}
    for command, options in commands.items():
        helped = invoke("eval", command, "--help")
        assert helped.returncode == 0, helped.stderr
        for option in options:
            assert option in helped.stdout, f"ragspine eval {command} has no {option}"
    assert "strict" in invoke("eval", "run", "--help").stdout


# -- the action's steps, run here -------------------------------------------------------------


def _run_action(
    inputs: dict[str, str],
    cwd: Path,
    *,
    start_at: str | None = None,
    outputs: dict[str, dict[str, str]] | None = None,
) -> tuple[int, dict[str, dict[str, str]], str]:
    """The action's shell steps in order, as a runner runs them (``bash -eo pipefail``, inputs
    and step outputs resolved into each step's env, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY);
    the steps that use another action are GitHub's own and are skipped. ``start_at`` a step id,
    with the ``outputs`` of the steps before it. Returns the last exit code, each step's outputs
    and the job summary."""
    spec = _yaml(ACTION)
    given = {name: str(s.get("default", "")) for name, s in spec["inputs"].items()} | inputs
    outputs = dict(outputs or {})
    summary = cwd / "summary.md"
    summary.unlink(missing_ok=True)
    steps = spec["runs"]["steps"]
    if start_at is not None:
        steps = steps[next(i for i, s in enumerate(steps) if s.get("id") == start_at) :]
    base = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    # a key in the job's environment: the run must not see it (`env -u`)
    base["ANTHROPIC_API_KEY"] = "sk-must-not-be-used"

    def resolve(expr: str) -> str:
        if expr.startswith("inputs."):
            return given[expr.removeprefix("inputs.")]
        m = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expr)
        assert m is not None, expr
        return outputs.get(m.group(1), {}).get(m.group(2), "")

    rc = 0
    for n, step in enumerate(steps):
        if "run" not in step:
            continue
        out_file = cwd / f"output-{n}"
        out_file.write_text("", "utf-8")
        env = base | {
            k: EXPR.sub(lambda m: resolve(m.group(1)), str(v)) for k, v in step["env"].items()
        }
        env |= {"GITHUB_OUTPUT": str(out_file), "GITHUB_STEP_SUMMARY": str(summary)}
        script = cwd / f"step-{n}.sh"
        script.write_text(step["run"], "utf-8")
        ran = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        rc = ran.returncode
        written = dict(line.split("=", 1) for line in out_file.read_text("utf-8").splitlines())
        outputs[step.get("id", str(n))] = written
        if rc != 0:
            assert step is spec["runs"]["steps"][-1], f"{step['name']}: {ran.stderr}"
    return rc, outputs, summary.read_text("utf-8") if summary.exists() else ""


GOLDEN = """\
suite: ci
defaults: {reference_date: 2025-06-30}
cases:
  - id: ci-cn
    question: 中国内地FY2024的REVENUE是多少
    expect: {route: structured, statuses: [found]}
  - id: ci-hk
    question: 香港FY2024的REVENUE是多少
    expect: {route: structured, statuses: [found]}
"""


@pytest.mark.slow
def test_the_action_replays_a_cassette_strictly_with_no_key_and_gates_it(
    tmp_path: Path, facts_alone: Stores
) -> None:
    golden, tape = tmp_path / "golden.yaml", tmp_path / "cassettes" / "mock"
    db, corpus = facts_alone
    golden.write_text(GOLDEN, "utf-8")
    stores = ["--db", str(db), "--corpus", str(corpus)]
    recorded = invoke("eval", "run", "--golden", str(golden), "--out", str(tmp_path / "rec"),
                      "--cassette", str(tape), "--cassette-mode", "record", *stores)  # fmt: skip
    assert recorded.returncode == 0, recorded.stderr
    blessed = invoke("eval", "bless", str(tmp_path / "rec"), "--baseline", str(tmp_path / "base"))
    assert blessed.returncode == 0, blessed.stderr
    (tmp_path / "thresholds.yaml").write_text(
        "max:\n  errors: 0\ncompare:\n  primary: route_accuracy\n", "utf-8"
    )
    inputs = {
        "name": "demo", "golden": str(golden), "baseline": str(tmp_path / "base"),
        "thresholds": str(tmp_path / "thresholds.yaml"), "cassette": str(tape),
        "db": str(db), "corpus": str(corpus), "ragspine": RAGSPINE,
    }  # fmt: skip

    rc, outputs, summary = _run_action(inputs, tmp_path)
    run = tmp_path / "reports" / "demo"  # the default out
    assert rc == 0 and outputs["gate"]["verdict"] == "passed", summary
    assert outputs["run"] == {"folder": "reports/demo", "rc": "0"}
    assert (read_run(run).endpoint or "").endswith("(strict)")  # replayed, never called
    for name in ("junit.xml", "report.html", "diff.md", "compare.md", "compare.html"):
        assert (run / name).is_file(), name
    # compare judges what the thresholds file's compare: section declares
    assert "The primary rate (route_accuracy)" in (run / "compare.md").read_text("utf-8")
    section = (tmp_path / outputs["report"]["section"]).read_text("utf-8")
    assert section.startswith("### ragspine evals · demo: gate passed ✅\n")
    assert "gate: passed" in section and section in summary

    # a case regressed (its result edited to fail): the steps from the gate on say so, the
    # report is written all the same, and the last step fails the job
    results = run / "results.jsonl"
    lines = results.read_text("utf-8").splitlines(keepends=True)
    regressed = json.loads(lines[1]) | {"passed": False}
    results.write_text(lines[0] + json.dumps(regressed, ensure_ascii=False) + "\n", "utf-8")
    rc, outputs, summary = _run_action(inputs, tmp_path, start_at="gate", outputs=outputs)
    assert rc == 1 and outputs["gate"]["verdict"] == "failed"
    section = (tmp_path / outputs["report"]["section"]).read_text("utf-8")
    assert section.startswith("### ragspine evals · demo: gate FAILED ❌\n")
    assert f"regressed: {regressed['case_id']}" in section and section in summary


# -- the sticky comment -----------------------------------------------------------------------

NODE_HARNESS = """
const fs = require("fs");
const [script, scenarios] = [process.argv[2], JSON.parse(fs.readFileSync(process.argv[3]))];
const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
const run = new AsyncFunction("github", "context", "core", "require", script);
(async () => {
  const seen = [];
  for (const comments of scenarios) {
    const calls = [];
    const github = {
      paginate: async (fn, args) => { calls.push(["list", args.issue_number]); return comments; },
      rest: { issues: {
        listComments: "listComments",
        createComment: async (a) => {
          calls.push(["create", a.body]);
          return { data: { html_url: "u" } };
        },
        updateComment: async (a) => { calls.push(["update", a.comment_id, a.body]); },
      } },
    };
    const context = { repo: { owner: "o", repo: "r" }, issue: { number: 7 } };
    await run(github, context, { info: () => {} }, require);
    seen.push(calls);
  }
  console.log(JSON.stringify(seen));
})();
"""


def test_the_comment_script_edits_the_one_comment_its_marker_finds(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node here to run the github-script step")
    step = next(s for s in _action_steps() if str(s.get("uses", "")).startswith("actions/github"))
    section = tmp_path / "section.md"
    section.write_text("### ragspine evals · acme: gate passed ✅\nnew text", "utf-8")
    marker, start, end = (
        "<!-- ragspine-evals -->", "<!-- ragspine-evals:acme:start -->",
        "<!-- ragspine-evals:acme:end -->",
    )  # fmt: skip
    other = "<!-- ragspine-evals:jinyu:start -->\njinyu text\n<!-- ragspine-evals:jinyu:end -->"
    bot, person = {"type": "Bot"}, {"type": "User"}
    scenarios = [
        [],  # the first push: no comment yet
        [{"id": 1, "user": person, "body": f"quoting {marker}"}],  # a person's is not ours
        [{"id": 2, "user": bot, "body": f"{marker}\n{other}"}],  # another suite's section
        [{"id": 3, "user": bot, "body": f"{marker}\n{start}\nold text\n{end}\n\n{other}"}],
    ]
    (tmp_path / "scenarios.json").write_text(json.dumps(scenarios), "utf-8")
    (tmp_path / "script.js").write_text(NODE_HARNESS, "utf-8")
    harness, given = tmp_path / "script.js", tmp_path / "scenarios.json"
    ran = subprocess.run(
        [node, str(harness), step["with"]["script"], str(given)],
        env={**os.environ, "SUITE": "acme", "SECTION": str(section)},
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    first, beside_a_person, beside_another, again = json.loads(ran.stdout)
    ours = f"{start}\n{section.read_text('utf-8')}\n{end}"
    assert first == [["list", 7], ["create", f"{marker}\n{ours}"]]
    assert beside_a_person == [["list", 7], ["create", f"{marker}\n{ours}"]]
    assert beside_another == [["list", 7], ["update", 2, f"{marker}\n{other}\n\n{ours}"]]
    assert again == [["list", 7], ["update", 3, f"{marker}\n{ours}\n\n{other}"]]  # in place
