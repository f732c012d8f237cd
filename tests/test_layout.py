"""The layering rules of the code (issue 11): no module imports another's private names, and
every error class the tutor raises is declared in ``tutor/core/errors.py``."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = sorted([*ROOT.joinpath("tutor").rglob("*.py"), *ROOT.joinpath("pages").glob("*.py"), ROOT / "app.py",
               *ROOT.joinpath("benchmarks").glob("*.py")])


def _trees() -> list[tuple[str, ast.Module]]:
    return [(str(p.relative_to(ROOT)), ast.parse(p.read_text(encoding="utf-8"))) for p in CODE]


def test_no_private_name_is_imported_from_another_module() -> None:
    found = [f"{path}: from {node.module} import {alias.name}"
             for path, tree in _trees() for node in ast.walk(tree)
             if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tutor")
             for alias in node.names if alias.name.startswith("_") and not alias.name.startswith("__")]
    assert found == []


def test_every_error_class_is_declared_in_errors_py() -> None:
    found = [f"{path}: class {node.name}" for path, tree in _trees() if path != "tutor/core/errors.py"
             for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
             and (node.name.endswith(("Error", "Exception"))
                  or any(isinstance(b, ast.Name) and b.id.endswith(("Error", "Exception")) for b in node.bases))]
    assert found == []


def test_the_twin_simulator_is_gone() -> None:
    assert not ROOT.joinpath("tutor", "sim.py").exists()
    assert not list(ROOT.joinpath("tutor").rglob("sim.py"))
