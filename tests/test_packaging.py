"""The wheel ships the data folders, and an installed wheel works away from the checkout.

Builds the wheel, installs it into a new virtualenv and runs the console script from a
folder outside the repository, so nothing can come from the source tree by accident. The
new virtualenv takes the dependencies from the test environment (a path, not the
project's editable install) instead of installing them again, which took most of this
file's time; that the wheel declares them is checked against ``pyproject.toml``. Needs the
package index for the isolated build (the build backend is installed from it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
NATIONS = "persians,phoenicians,arabs,greeks"


def run(args: list[str | Path], *, cwd: Path | None = None, env: dict | None = None) -> str:
    """Run a command; on failure, fail the test with its output. Returns stdout."""
    proc = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, (
        f"{' '.join(map(str, args))} exited {proc.returncode}\n"
        f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"
    )
    return proc.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "build", "--wheel", "--outdir", out, ROOT])
    (built,) = out.glob("antike_ref-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(tmp_path_factory, wheel) -> dict:
    """A new virtualenv with the wheel installed; returns the environment to run it in."""
    import sysconfig

    venv = tmp_path_factory.mktemp("venv")
    run([sys.executable, "-m", "venv", "--without-pip", venv])
    python = venv / "bin" / "python"
    purelib = Path(run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).strip())
    # the dependencies: the test environment's site-packages, as a plain path (its .pth
    # files, the editable install of this checkout among them, are not read from there)
    (purelib / "test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    run([sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-deps",
         "--no-compile", "--disable-pip-version-check", wheel])
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return {"venv": venv, "python": python, "env": env}


@pytest.fixture
def outside(tmp_path) -> Path:
    assert not tmp_path.is_relative_to(ROOT)
    return tmp_path


def test_wheel_ships_data_folders(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert "pbem/_data/schemas/game.schema.json" in names
    assert "pbem/_data/maps/antike-east.json" in names
    assert any(n.startswith("pbem/_data/templates/") for n in names)
    assert "pbem/cli/__init__.py" in names
    assert not [n for n in names if n.startswith(("tests/", "schemas/", "maps/"))]


def test_wheel_declares_the_dependencies(wheel):
    """The wheel's metadata asks for what pyproject.toml lists (an install elsewhere gets them)."""
    import tomllib

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    metadata = next(n for n in zipfile.ZipFile(wheel).namelist() if n.endswith(".dist-info/METADATA"))
    lines = zipfile.ZipFile(wheel).read(metadata).decode().splitlines()
    required = [line.removeprefix("Requires-Dist: ") for line in lines
                if line.startswith("Requires-Dist: ") and "extra ==" not in line]
    assert sorted(r.replace(" ", "") for r in required) == sorted(d.replace(" ", "") for d in declared)


def test_package_comes_from_the_wheel(installed, outside):
    out = run([installed["python"], "-c",
               "import pbem, pbem.paths, sysconfig; "
               "print(pbem.__file__); print(sysconfig.get_paths()['purelib']); "
               "print(pbem.paths.map_path('antike-east'))"],
              cwd=outside, env=installed["env"])
    module, purelib, board = (Path(line) for line in out.splitlines())
    assert purelib.is_relative_to(installed["venv"])
    assert module.is_relative_to(purelib)
    assert board == purelib / "pbem" / "_data" / "maps" / "antike-east.json"
    assert board.is_file()


def test_console_script_outside_checkout(installed, outside):
    env = installed["env"]
    run(["antike-ref", "new", "g.json", "--board", "antike-east", "--nations", NATIONS],
        cwd=outside, env=env)
    shown = json.loads(run(["antike-ref", "show", "g.json", "--json"], cwd=outside, env=env))
    assert shown["board"] == "antike-east"


def test_python_m_pbem_help(installed, outside):
    out = run([installed["python"], "-m", "pbem", "--help"], cwd=outside, env=installed["env"])
    assert "usage" in out.lower()
