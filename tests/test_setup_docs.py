"""The README's test command is the one CI runs (.ci/run), so what a new user pastes is what
is tested."""

from __future__ import annotations

import re

from conftest import REPO


def readme_commands() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    setup = text.split("## Set up", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", setup, re.DOTALL)]


def test_ci_runs_exactly_the_readme_test_command():
    commands = readme_commands()
    assert len(commands) == 2, commands  # install and build, then test
    test_command = commands[1]
    assert "tox" in test_command
    ci = [line.strip() for line in (REPO / ".ci" / "run").read_text(encoding="utf-8")
          .splitlines() if line.strip() and not line.lstrip().startswith("#")]
    assert ci[-1] == test_command

