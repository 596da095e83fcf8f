"""The house: the kinds presets and rules share sit in a leaf module (no import circle); a family is
a folder that only the registry imports; the top level of engine/ imports no family, format or
computer; and the reader's names of presets, winds, suits and units come from one module."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from bot.runtime.words import preset_name, wind_text
from engine import kinds, names, presets
from engine.i18n import worded
from render import words

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "engine"
# the packages whose modules are held to the house rules (tests and benches may import families)
PACKAGES = ("engine", "bot", "render", "data")


def _engine_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    return {m for m in found if m == "engine" or m.startswith("engine.")}


def _imports(path: Path) -> set[str]:
    """Every module `path` imports at run time, wherever in it (lazy imports included; those
    only for the type checker are none)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(node)
        for n in ast.walk(tree)
        if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test)
        for stmt in n.body
        for node in ast.walk(stmt)
    }
    found: set[str] = set()
    for n in ast.walk(tree):
        if id(n) in typing_only:
            continue
        if isinstance(n, ast.Import):
            found.update(a.name for a in n.names)
        elif isinstance(n, ast.ImportFrom) and n.module:
            found.add(n.module)
            found.update(f"{n.module}.{a.name}" for a in n.names)
    return found


def _modules(*packages: str) -> list[Path]:
    return [p for package in packages for p in sorted((ROOT / package).rglob("*.py"))]


def _from(found: set[str], package: str) -> set[str]:
    return {m for m in found if m == package or m.startswith(package + ".")}


def test_nothing_outside_the_families_imports_a_family_but_the_registry() -> None:
    families = ENGINE / "families"
    allowed = {ENGINE / "presets.py"}
    crossing = {
        str(path.relative_to(ROOT)): sorted(_from(_imports(path), "engine.families"))
        for path in _modules(*PACKAGES)
        if not path.is_relative_to(families)
        and path not in allowed
        and _from(_imports(path), "engine.families")
    }
    assert crossing == {}


def test_the_top_level_of_engine_imports_no_family_format_or_computer() -> None:
    below = ("engine.families", "engine.formats", "engine.computer")
    crossing = {
        path.name: sorted(m for package in below for m in _from(_imports(path), package))
        for path in sorted(ENGINE.glob("*.py"))
        if path.name != "presets.py"  # the registry imports every family's presets
    }
    assert {name: found for name, found in crossing.items() if found} == {}


def test_the_kinds_module_is_a_leaf() -> None:
    assert _engine_imports(ENGINE / "kinds.py") == set()


def test_the_registry_imports_every_family_s_presets_at_the_top() -> None:
    source = (ENGINE / "presets.py").read_text(encoding="utf-8")
    assert "noqa: E402" not in source and "import_module" not in source
    families = {p.name for p in (ENGINE / "families").iterdir() if (p / "presets.py").exists()}
    assert {f"engine.families.{family}.presets" for family in families} <= _engine_imports(
        ENGINE / "presets.py"
    )


@pytest.mark.parametrize(
    "first",
    [
        "engine.rules",
        "engine.families.taiwan.rules",
        "engine.families.selfdraw.rules",
        "engine.presets",
    ],
)
def test_any_module_of_the_former_circle_imports_first(first: str) -> None:
    code = f"import {first}; import engine.presets as p; print(len(p.PRESETS))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) == len(presets.PRESETS)


def test_presets_read_the_kinds_from_the_leaf() -> None:
    assert presets.Rotation is kinds.Rotation and presets.MultiWin is kinds.MultiWin
    assert presets.find_preset("hk-fw2").rotation is kinds.Rotation.FOUR_WINDS


@pytest.mark.parametrize("preset_id", sorted(presets.PRESETS))
def test_runtime_and_pictures_name_a_preset_through_one_module(preset_id: str) -> None:
    preset = presets.find_preset(preset_id)
    for language in ("en", "zh-CN", "zh-TW"):
        full = worded(names.preset_name(preset.id, preset.name), language)
        short = worded(names.preset_name(preset.id, preset.name, short=True), language)
        assert worded(preset_name(preset), language) == full
        assert worded(words.preset_text(preset.id, preset.name), language) == short


def test_an_uncatalogued_preset_keeps_its_own_name() -> None:
    assert names.preset_name("test-nothing", "Nothing") == "Nothing"
    assert names.preset_name("test-nothing", "Nothing", short=True) == "Nothing"
    assert names.preset_summary("test-nothing", "Plays nothing.") == "Plays nothing."


def test_winds_suits_and_units_in_the_reader_language() -> None:
    assert worded(names.wind_name(2), "zh-TW") == "西"
    assert worded(names.suit_name("m"), "zh-CN") == "万子"
    assert worded(names.suit_name("m", short=True), "zh-CN") == "万"
    assert names.suit_name("x") == "x" and names.suit_name(None) == ""
    assert worded(names.unit_amount("faan", 5), "en") == "5 faan"
    assert names.unit_name("tai", "en") == "tai" and names.unit_name("han", "en") == "han"
    assert wind_text is names.wind_name and words.unit_name is names.unit_name
