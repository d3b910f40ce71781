"""What a target process may reach: the confinement every `exec:` target and Python worker
runs under, with what an unprivileged Linux process has.

A target changes the verdict only through its answers. Without limits it could plant a
`conftest.py` where the harness runs, a `.pth` in the harness's site-packages, stop the
harness with a signal, or take the machine's memory. Each process a target starts
(`refold.targets.process_tree`) therefore gets:

* a private, fresh working directory (removed when the process is killed), which is
  also its `HOME` and holds its `TMPDIR`;
* an environment of the allowlisted variables only (`ENVIRONMENT_ALLOWLIST`, `LC_*`),
  extended with `--pass-env NAME`: no credential of the harness's environment reaches it;
* an address-space limit (`RLIMIT_AS`): `DEFAULT_MEMORY`, or `--target-memory`;
* where the kernel has Landlock (`confine_exec.landlock_abi`): writes only beneath its
  directory (and `/dev/shm`) and to `/dev/null`; with ABI 6 and later, no signal to a
  process outside its domain (the harness, the user's processes).

The harness is a child subreaper, and kills every process a target started before any
result or report is written (`ProcessTree.sweep`). What is not confined: reads (a target
can read what the user can), the network, CPU time between calls (each call has its
deadline), and, on a kernel without Landlock, writes and signals. `--in-process` and
`http://` targets are not confined at all.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from ..errors import UsageError
from . import confine_exec

__all__ = [
    "DEFAULT_MEMORY",
    "ENVIRONMENT_ALLOWLIST",
    "Confinement",
    "anchored",
    "configure",
    "confinement_of",
    "current",
    "parse_memory",
    "passed_names",
]

DEFAULT_MEMORY = 2 * 1024**3
"""The default address-space limit of a target process: 2 GiB (`--target-memory`)."""

ENVIRONMENT_ALLOWLIST = (
    "PATH",
    "LANG",
    "LANGUAGE",
    "TZ",
    "TERM",
    "PYTHONPATH",
    "PYTHONIOENCODING",
    "PYTHONUTF8",
    "PYTHONDONTWRITEBYTECODE",
    "NODE_PATH",
)
"""The variables of the harness's environment a target is given (and every `LC_*`)."""

_ALLOWED_PREFIXES = ("LC_",)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_SIZE = re.compile(r"(\d+)\s*([KMG]i?B?|B)?\Z", re.IGNORECASE)
_UNITS = {"": 1, "B": 1, "K": 1024, "M": 1024**2, "G": 1024**3}
_WRITABLE_FILES = ("/dev/null",)
_SHARED_TEMPORARY = ("/dev/shm",)


@dataclass(frozen=True)
class Confinement:
    """The limits of the target processes of a run."""

    memory: int | None = DEFAULT_MEMORY
    """The address-space limit in bytes (None: none)."""
    pass_env: tuple[str, ...] = ()
    """Names passed besides the allowlist (`--pass-env`)."""
    landlock: bool = True
    """Use Landlock where the kernel has it."""
    writable: tuple[str, ...] = ()
    """Folders a target may write besides its own (none in a run; a test's instruments)."""
    extra_env: Mapping[str, str] = field(default_factory=dict)

    @property
    def abi(self) -> int:
        """The Landlock ABI in force (0: none)."""
        return _kernel_abi() if self.landlock else 0

    def environment(
        self,
        workdir: Path,
        base: Mapping[str, str] | None = None,
    ) -> dict[str, str]:
        """The target's environment: the allowlisted and passed variables of `base` (the
        harness's), `HOME` and the temporary directory inside `workdir`."""
        source = os.environ if base is None else base
        names = set(ENVIRONMENT_ALLOWLIST) | set(self.pass_env)
        chosen = {
            name: value
            for name, value in source.items()
            if name in names or name.startswith(_ALLOWED_PREFIXES)
        }
        temporary = str(workdir / "tmp")
        return {
            **chosen,
            "HOME": str(workdir),
            "TMPDIR": temporary,
            "TMP": temporary,
            "TEMP": temporary,
            "PWD": str(workdir),
            **self.extra_env,
        }

    def policy(self, workdir: Path) -> str:
        """The limits of a process working in `workdir`, as `confine_exec` reads them."""
        return json.dumps(
            {
                "memory": self.memory,
                "landlock": self.abi,
                "writable": [str(workdir), *_SHARED_TEMPORARY, *self.writable],
                "writable_files": list(_WRITABLE_FILES),
            },
            separators=(",", ":"),
        )

    def command(self, argv: Sequence[str], workdir: Path) -> list[str]:
        """`argv` run through the launcher that sets the limits on itself first."""
        return [
            sys.executable,
            "-I",
            "-S",
            confine_exec.__file__,
            self.policy(workdir),
            "--",
            *argv,
        ]

    def describe(self) -> str:
        """The confinements in force, in one line (the start of the run prints it)."""
        parts = [
            "a fresh private directory",
            f"an environment of {len(ENVIRONMENT_ALLOWLIST) + len(self.pass_env)} "
            f"allowlisted names and LC_*",
        ]
        parts.append(
            "no memory limit" if self.memory is None else f"address space {_size(self.memory)}"
        )
        abi = self.abi
        if abi:
            scope = ", no signals out of it" if abi >= 6 else " (signals not scoped: ABI < 6)"
            parts.append(
                f"Landlock ABI {abi} (writes only to its directory and temporary files{scope})"
            )
        else:
            parts.append("no Landlock (the kernel has none: writes and signals not confined)")
        parts.append("killed with all it started before the results are written")
        return "; ".join(parts)


def anchored(argv: Sequence[str]) -> list[str]:
    """`argv` of an `exec:` command with each argument naming a file relative to the
    harness's folder (a regular file, or any path with a `/`) made absolute: the process
    runs in its own directory."""
    return [_anchored(argument) for argument in argv]


def _anchored(argument: str) -> str:
    if argument.startswith("-") or os.path.isabs(argument) or not os.path.exists(argument):
        return argument
    if "/" in argument or os.path.isfile(argument):
        return os.path.abspath(argument)
    return argument


@cache
def _kernel_abi() -> int:
    return confine_exec.landlock_abi()


_CURRENT: list[Confinement] = [Confinement()]


def configure(confinement: Confinement) -> None:
    """Make `confinement` the one every target process started from now on gets (the
    plugin sets the run's from its options)."""
    _CURRENT[0] = confinement


def current() -> Confinement:
    """The confinement target processes get (the default until `configure`)."""
    return _CURRENT[0]


def parse_memory(value: str | None) -> int | None:
    """`--target-memory`: bytes, or a size with K, M or G (binary units); `none` lifts the
    limit. None (not given): the default.

    Raises:
        UsageError: the value is not a size.
    """
    if value is None:
        return DEFAULT_MEMORY
    if value.strip().lower() == "none":
        return None
    match = _SIZE.match(value.strip())
    if match is None or int(match.group(1)) <= 0:
        raise UsageError(
            f"--target-memory {value!r} is not a size; expected a positive "
            f"number of bytes, optionally with K, M or G (e.g. 512M, 4G), or "
            f"`none` for no limit"
        )
    unit = (match.group(2) or "").upper()[:1]
    return int(match.group(1)) * _UNITS[unit]


def passed_names(values: Sequence[str] | None) -> tuple[str, ...]:
    """The names of `--pass-env` (each may list several, comma-separated).

    Raises:
        UsageError: a name is not an environment variable's name.
    """
    names: list[str] = []
    for value in values or ():
        for name in (part.strip() for part in value.split(",")):
            if not _NAME.match(name):
                raise UsageError(
                    f"--pass-env {value!r}: {name!r} is not an environment "
                    f"variable's name (letters, digits and _, not starting "
                    f"with a digit)"
                )
            names.append(name)
    return tuple(dict.fromkeys(names))


def _size(value: int) -> str:
    for unit, factor in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if value >= factor and value % factor == 0:
            return f"{value // factor} {unit}"
    return f"{value} bytes"


def confinement_of(target: object) -> str:
    """The confinements `target`'s processes run under, in a line: the start of the run
    says which are in force."""
    inner = getattr(target, "_remote", target)  # an events adapter in its worker
    transport = getattr(inner, "_transport", None)
    if transport is None:
        return (
            "none: the target runs in the harness's process (--in-process), where it "
            "can change anything"
        )
    confinement = getattr(transport, "confinement", None)
    if not isinstance(confinement, Confinement):
        return "none: an http(s):// service runs outside refold, which cannot confine it"
    return confinement.describe()
