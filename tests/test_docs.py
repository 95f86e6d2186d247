"""The project's own copies of the binding rules and formats (docs/RULES.md,
docs/NOTATION.md) must stay identical to ../shared/spec, which they copy: the
checker and the kernels are written from them, and a clone on its own must carry
the rules it implements."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT.parent / "shared" / "spec"


@pytest.mark.parametrize("name", ["RULES.md", "NOTATION.md"])
def test_docs_copy_equals_the_shared_spec(name):
    ours = ROOT / "docs" / name
    assert ours.is_file(), f"docs/{name} is missing"
    theirs = SPEC / name
    if not theirs.is_file():
        pytest.skip(f"no {theirs} beside this clone to compare with")
    assert ours.read_bytes() == theirs.read_bytes(), (
        f"docs/{name} has drifted from {theirs}: copy the shared spec again")


def test_license_and_links():
    assert (ROOT / "LICENSE").is_file()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    # the README links the project's own copies, never a folder outside the clone
    assert "../shared/" not in readme
    assert "docs/RULES.md" in readme and "docs/NOTATION.md" in readme


@pytest.mark.parametrize("name", ["DESIGN.md", "PLAYERS.md", "CLUSTER.md"])
def test_design_docs_say_each_point_once(name):
    # an edit once pasted one bullet into every position of DESIGN.md (73 MB):
    # each bullet's opening line appears once, and the file stays readable
    text = (ROOT / "docs" / name).read_text(encoding="utf-8")
    assert len(text) < 400_000, f"docs/{name} is {len(text):,} characters"
    heads = [line for line in text.splitlines() if line.startswith("- **")]
    repeated = sorted({h for h in heads if heads.count(h) > 1})
    assert not repeated, f"docs/{name} repeats: {repeated[:3]}"
