"""The stores named once: ragspine.toml (the current folder's, else RAGSPINE_HOME's) and
RAGSPINE_HOME give every command its db, corpus, faq, keys and profile, after the flag and the
variable and before the built-in default. Driven as a user does: real files, the real CLI, run
from an empty folder with the shell's store settings unset.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.small_company import ANSWER, QUESTION, company, run

# Where each level of the precedence puts the fact store of `facts load`.
FLAG, ENV, TOML, HOME = "flag.db", "env.db", "toml.db", "home/facts.db"
BUILTIN = "cwd/data/fact_metric.db"


def folders(tmp_path: Path) -> tuple[Path, Path]:
    """An empty folder to run in and an empty RAGSPINE_HOME, beside the company's files."""
    company(tmp_path)
    (tmp_path / "cwd").mkdir()
    (tmp_path / "home").mkdir()
    return tmp_path / "cwd", tmp_path / "home"


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        # the flag beats the variable, the file and the home
        ({"flag", "env", "toml", "home"}, FLAG),
        # the variable beats the file and the home
        ({"env", "toml", "home"}, ENV),
        # the current folder's ragspine.toml beats the home's files (its path read from its folder)
        ({"toml", "home"}, "cwd/" + TOML),
        # the home alone: its facts.db
        ({"home"}, HOME),
        # nothing: the built-in default, in the current folder
        (set(), BUILTIN),
        # a ragspine.toml in the home is read too, its paths from the home
        ({"home-toml", "home"}, "home/" + TOML),
        # the current folder's ragspine.toml wins over the home's
        ({"toml", "home-toml", "home"}, "cwd/" + TOML),
    ],
)
def test_the_fact_store_comes_from_the_first_level_that_names_it(
    tmp_path: Path, given: set[str], expected: str
) -> None:
    cwd, home = folders(tmp_path)
    if "toml" in given:
        (cwd / "ragspine.toml").write_text(f'db = "{TOML}"\n', "utf-8")
    if "home-toml" in given:
        (home / "ragspine.toml").write_text(f'db = "{TOML}"\n', "utf-8")
    env = {"RAGSPINE_HOME": str(home)} if given & {"home", "home-toml"} else {}
    if "env" in given:
        env["RAGSPINE_DB"] = str(tmp_path / ENV)
    flag = ["--db", str(tmp_path / FLAG)] if "flag" in given else []
    out = run("facts", "load", tmp_path / "facts.csv", "--profile", tmp_path / "shili.yaml",
              *flag, cwd=cwd, env=env)  # fmt: skip
    assert out.returncode == 0, out.stderr
    written = {
        p: (tmp_path / p).is_file()
        for p in (FLAG, ENV, "cwd/" + TOML, "home/" + TOML, HOME, BUILTIN)
    }
    assert [p for p, there in written.items() if there] == [expected]


def test_a_home_holds_every_store_and_the_profile(tmp_path: Path) -> None:
    """Set once, RAGSPINE_HOME is where ingest writes and ask, faq and keys read and write."""
    cwd, home = folders(tmp_path)
    env = {"RAGSPINE_HOME": str(home)}
    (home / "profile.yaml").write_text((tmp_path / "shili.yaml").read_text("utf-8"), "utf-8")
    note = tmp_path / "note.md"
    note.write_text("# 示例科技退货政策\n\n凭小票可以退货。\n", "utf-8")
    assert run("facts", "load", tmp_path / "facts.csv", cwd=cwd, env=env).returncode == 0
    assert run("ingest", note, cwd=cwd, env=env).returncode == 0
    faq = run("faq", "add", "--question", "退货政策是什么?", "--answer", "凭小票可以退货。",
              "--source", "note.md#section=1,para=1", cwd=cwd, env=env)  # fmt: skip
    assert faq.returncode == 0, faq.stderr
    keys = run("keys", "new", "alice", "--clearance", "INTERNAL", cwd=cwd, env=env)
    assert keys.returncode == 0, keys.stderr
    assert {"chunks.db", "chunks.index", "facts.db", "faq.db", "keys.yaml"} <= {
        p.name for p in home.iterdir()
    }
    listed = run("documents", cwd=cwd, env=env)  # the home's corpus, listed
    assert listed.returncode == 0 and " note.md  (ingested " in listed.stdout, listed.stderr
    assert listed.stdout.splitlines()[-1] == f"1 document in {home / 'chunks.db'}"
    (home / "profile.yaml").unlink()  # the store remembers it
    asked = run("ask", QUESTION, cwd=cwd, env=env)
    assert asked.stdout.startswith(ANSWER), asked.stdout
    hit = run("ask", "退货政策是什么?", cwd=cwd, env=env)
    assert "(FAQ item 1: a vetted answer)" in hit.stdout  # the home's FAQ cache is consulted
    assert not any(cwd.iterdir())  # nothing went to a default path


def test_each_key_of_ragspine_toml_reaches_its_commands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cwd, _ = folders(tmp_path)
    (cwd / "ragspine.toml").write_text(
        "# the stores of 示例科技, beside this file\n"
        'db = "stores/facts.db"\ncorpus = "stores/chunks.db"\nfaq = "stores/faq.db"\n'
        f'keys = "stores/keys.yaml"\nprofile = "{tmp_path / "shili.yaml"}"\n',
        "utf-8",
    )
    stores = cwd / "stores"
    loaded = run("facts", "load", tmp_path / "facts.csv", cwd=cwd)  # checked against shili.yaml
    assert loaded.returncode == 0, loaded.stderr
    asked = run("ask", QUESTION, cwd=cwd)  # no FAQ cache yet: none consulted, no error
    assert asked.returncode == 0 and asked.stdout.startswith(ANSWER), asked.stderr
    (tmp_path / "note.md").write_text("# 年报\n\n见年报。\n", "utf-8")
    assert run("ingest", tmp_path / "note.md", cwd=cwd).returncode == 0
    assert run("keys", "new", "bob", "--clearance", "PUBLIC", cwd=cwd).returncode == 0
    source = "示例科技_2023_年报.pdf#page=5,row=营业收入,col=2023"  # a fact the store holds
    faq = run("faq", "add", "--question", "报告在哪里?", "--answer", "见年报。", "--source", source,
              cwd=cwd)  # fmt: skip
    assert faq.returncode == 0, faq.stderr
    assert {"chunks.db", "chunks.index", "facts.db", "faq.db", "keys.yaml"} <= {
        p.name for p in stores.iterdir()
    }

    def workers_start(*args: object, **kwargs: object) -> None:
        from ragspine.service.settings import ServiceSettings

        for key, value in ServiceSettings.from_env().to_env().items():
            print(f"{key}={value}")

    monkeypatch.setattr("uvicorn.run", workers_start)
    for name in ("DB", "CORPUS", "PROFILE", "FAQ", "KEYS"):  # serve sets them: restored after
        monkeypatch.setenv(f"RAGSPINE_SERVICE_{name}", "")
    served = run("serve", cwd=cwd)
    assert served.returncode == 0, served.stderr
    for name, path in (("DB", "facts.db"), ("CORPUS", "chunks.db"), ("FAQ", "faq.db"),
                       ("KEYS", "keys.yaml")):  # fmt: skip
        assert f"RAGSPINE_SERVICE_{name}={Path('stores', path)}\n" in served.stdout


@pytest.mark.parametrize(
    ("text", "says"),
    [
        # a misspelt key is never read as no key (the default store would be used in silence)
        ('dbb = "x.db"\n', "unknown key 'dbb' (known: db, corpus, faq, keys, profile)"),
        # a section the file does not have
        ('[stores]\ndb = "x.db"\n', "unknown key 'stores' (known: db, corpus, faq, keys, profile)"),
        # a path written as a number
        ("db = 3\n", "db: a path is a string, got 3"),
        # not TOML at all
        ("db = \n", "not valid TOML: Invalid value (at line 1, column 6)"),
    ],
)
def test_a_bad_ragspine_toml_is_one_error_line_naming_the_file(
    tmp_path: Path, text: str, says: str
) -> None:
    cwd, home = folders(tmp_path)
    (home / "ragspine.toml").write_text(text, "utf-8")
    out = run("ask", QUESTION, cwd=cwd, env={"RAGSPINE_HOME": str(home)})
    assert (out.returncode, out.stdout) == (1, "")
    assert out.stderr == f"error: {home / 'ragspine.toml'}: {says}\n"


def test_the_demo_never_uses_the_configured_stores(tmp_path: Path) -> None:
    """`fixtures` replaces its store whole: it and `demo` keep data/demo/…, whatever the config."""
    cwd, home = folders(tmp_path)
    out = run("demo", cwd=cwd, env={"RAGSPINE_HOME": str(home)})
    assert out.returncode == 1
    assert out.stderr.startswith("error: fact database not found: data/demo/facts.db")


def test_a_corpus_the_home_names_may_not_exist_yet_for_a_question(tmp_path: Path) -> None:
    """As the home's FAQ cache counts once it exists, its corpus may be absent before the first
    `ingest`: figures are answered and a document question says there is no corpus (unlike one
    named by --corpus or RAGSPINE_CORPUS, which must exist: tests/test_cli_corpus.py)."""
    cwd, home = folders(tmp_path)
    env = {"RAGSPINE_HOME": str(home)}
    loaded = run("facts", "load", tmp_path / "facts.csv", "--profile", tmp_path / "shili.yaml",
                 cwd=cwd, env=env)  # fmt: skip
    assert loaded.returncode == 0, loaded.stderr
    asked = run("ask", QUESTION, cwd=cwd, env=env)
    assert asked.returncode == 0 and asked.stdout.startswith(ANSWER), asked.stderr
    policy = run("ask", "示例科技的退货政策是什么?", cwd=cwd, env=env)
    assert policy.returncode == 0, policy.stderr
    assert policy.stdout.startswith("未检索到相关文档:没有可用的文档库(no document corpus")
    assert not (home / "chunks.db").exists()
