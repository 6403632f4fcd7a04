"""Build the zip Gradescope accepts: setup.sh, run_autograder and this package as a wheel.

The wheel is assembled here from the installed package (a wheel is a zip with a
dist-info folder), so building the autograder needs no build backend and no network.
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
import zipfile
from importlib import metadata
from pathlib import Path

from grader import __version__
from grader.atomic import atomic_open, check_output_file
from grader.errors import GraderError, Location
from grader.exercises import resolve_exercise
from grader.paths import data_dir

DIST = "triage_grader"

SETUP_SH = """#!/usr/bin/env bash
# Gradescope runs this once when it builds the autograder image.
set -euo pipefail
cd /autograder/source
PY=$(command -v python3)
if [ -d wheels ] && ls wheels/*.whl >/dev/null 2>&1; then
  "$PY" -m pip install --no-index --find-links wheels {wheel}
else
  "$PY" -m pip install {wheel}
fi
"""

RUN_AUTOGRADER = """#!/usr/bin/env bash
# Gradescope runs this for every submission; it always leaves a results.json, also when
# the grader cannot start (a broken install, a missing dependency).
set -uo pipefail
ROOT=${{AUTOGRADER_ROOT:-/autograder}}
PY=${{AUTOGRADER_PYTHON:-python3}}
RESULTS="$ROOT/results/results.json"
mkdir -p "$ROOT/results"
rm -f "$RESULTS"
"$PY" -m grader.gradescope {exercise} "$ROOT/submission" "$RESULTS"
status=$?
if [ ! -s "$RESULTS" ]; then
  cat > "$RESULTS" <<'JSON'
{{"score": 0,
 "output": "The grader could not start and did not grade your report: tell your instructor.",
 "visibility": "visible", "stdout_visibility": "visible", "tests": []}}
JSON
  echo "grader failed to start (exit $status); wrote a results.json saying so" >&2
fi
exit 0
"""


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return f"sha256={digest.decode()}"


def _requires() -> list[str]:
    """This package's dependencies (extras left out)."""
    try:
        requires = metadata.requires("triage-grader") or []
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        requires = [
            "pyyaml>=6",
            "jsonschema>=4.18",
            "rich>=13",
            "rapidfuzz>=3",
            "markdown-it-py>=3",
        ]
    return [r for r in requires if "extra ==" not in r]


def build_wheel() -> tuple[str, bytes]:
    """This package as a wheel: its modules and data, the shipped exercises and rubrics."""
    package = Path(__file__).resolve().parent
    files: dict[str, bytes] = {}
    for path in sorted(package.rglob("*")):
        rel = path.relative_to(package)
        if path.is_file() and "__pycache__" not in rel.parts and rel.parts[0] != "_bundled":
            files[f"grader/{rel.as_posix()}"] = path.read_bytes()
    for name in ("exercises", "rubrics"):
        for path in sorted(data_dir(name).glob("*.yaml")):
            files[f"grader/_bundled/{name}/{path.name}"] = path.read_bytes()
    dist_info = f"{DIST}-{__version__}.dist-info"
    requires = _requires()
    meta = [
        "Metadata-Version: 2.1",
        "Name: triage-grader",
        f"Version: {__version__}",
        "Requires-Python: >=3.11",
        *[f"Requires-Dist: {r}" for r in requires],
    ]
    files[f"{dist_info}/METADATA"] = ("\n".join(meta) + "\n").encode()
    files[f"{dist_info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: triage-grader\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    files[f"{dist_info}/entry_points.txt"] = b"[console_scripts]\ngrade = grader.console:main\n"
    record = [f"{name},{_record_hash(data)},{len(data)}" for name, data in files.items()]
    record.append(f"{dist_info}/RECORD,,")
    files[f"{dist_info}/RECORD"] = ("\n".join(record) + "\n").encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in files.items():
            wheel.writestr(name, data)
    return f"{DIST}-{__version__}-py3-none-any.whl", buffer.getvalue()


def _executable(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.external_attr = 0o100755 << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def check_wheels(wheels: Path, requires: list[str]) -> list[Path]:
    """The wheels of a ``--wheels`` folder, which must hold one for each dependency: with
    wheels, setup installs offline only, and a missing one would fail there."""
    if not wheels.is_dir():
        what = "no such folder" if not wheels.exists() else "is not a folder"
        raise GraderError(f"{what}; --wheels needs a folder of wheel files", Location(str(wheels)))
    found = sorted(wheels.glob("*.whl"))
    if not found:
        raise GraderError(
            "holds no .whl file; fill it with 'pip download --only-binary=:all: -d DIR' "
            "followed by the dependencies, or leave --wheels out to install them online",
            Location(str(wheels)),
        )
    have = {_canonical(w.name.split("-")[0]) for w in found}
    needed = [_canonical(re.split(r"[\s<>=!~;\[(]", r, maxsplit=1)[0]) for r in requires]
    missing = [n for n in needed if n and n not in have]
    if missing:
        raise GraderError(
            f"holds no wheel for {', '.join(missing)}; setup installs offline from this "
            "folder and would fail",
            Location(str(wheels)),
        )
    return found


def build_autograder(exercise: str, out: Path, wheels: Path | None = None) -> Path:
    """Write the autograder zip for ``exercise``; ``wheels`` adds dependency wheels."""
    ex = resolve_exercise(exercise)
    deps = check_wheels(wheels, _requires()) if wheels is not None else []
    check_output_file(out)
    wheel_name, wheel = build_wheel()
    shipped = ex.path.resolve().parent == data_dir("exercises").resolve()
    target = ex.id if shipped else '"$ROOT/source/exercise.yaml"'
    with (
        atomic_open(out, mode="wb") as handle,
        zipfile.ZipFile(handle, "w", zipfile.ZIP_DEFLATED) as z,
    ):
        setup = SETUP_SH.format(wheel=wheel_name)
        run = RUN_AUTOGRADER.format(exercise=target)
        if not shipped:
            z.writestr("exercise.yaml", ex.path.read_bytes())
        z.writestr(_executable("setup.sh"), setup)
        z.writestr(_executable("run_autograder"), run)
        z.writestr(wheel_name, wheel)
        for dep in deps:
            z.writestr(f"wheels/{dep.name}", dep.read_bytes())
    return out
