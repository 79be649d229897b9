"""The Python example in the repository README runs."""

import os
import re

README = os.path.join(os.path.dirname(__file__), "..", "..", "..", "README.md")


def test_readme_python_example_runs(capsys):
    with open(README, encoding="utf-8") as f:
        text = f.read()
    section = text.split("## Python\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert blocks, "no python example in the README's Python section"
    exec(compile(blocks[0], "README.md", "exec"), {})
    line, column = capsys.readouterr().out.splitlines()[0].split()
    assert int(line) == 1 and int(column) >= 1
