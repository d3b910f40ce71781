"""The child side of a target's confinement: applied to itself, then the target exec'd.

`python -I -S confine_exec.py POLICY -- COMMAND...` (the harness builds this command line,
`refold.targets.confinement`) sets the limits below on its own process and replaces
itself with COMMAND, which inherits them all and cannot lift them:

* an address-space limit (`RLIMIT_AS`, POLICY's `memory` bytes; null: none);
* `PR_SET_NO_NEW_PRIVS`, which Landlock needs of an unprivileged process;
* with POLICY's `landlock` ABI version (0: none), a Landlock ruleset through direct
  syscalls: every write right the ABI knows is handled, and granted only beneath the
  directories of `writable` and on the files of `writable_files`; with ABI 6 and later
  the domain is scoped, so it cannot signal a process outside it.

It imports the standard library only and runs without `site` (`-S`), so the target's
command starts after a few milliseconds more, and it is importable as
`refold.targets.confine_exec` for the harness to ask the kernel's ABI the same way. A
limit it cannot set is refused (exit status 126, the reason on stderr): the harness said
it would be in force.
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import sys
from collections.abc import Sequence

__all__ = ["CANNOT_CONFINE", "LandlockError", "apply", "landlock_abi", "main", "restrict_writes"]

CANNOT_CONFINE = 126
"""The exit status of a launcher that could not set a limit it was asked for."""

_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446  # the same on every Linux arch
_VERSION_FLAG = 1
_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38

_WRITE_FILE, _REMOVE_DIR, _REMOVE_FILE = 1 << 1, 1 << 4, 1 << 5
_MAKE = (1 << 6) | (1 << 7) | (1 << 8) | (1 << 9) | (1 << 10) | (1 << 11) | (1 << 12)
_REFER, _TRUNCATE = 1 << 13, 1 << 14  # ABI 2, ABI 3
_SCOPE_SIGNAL = 1 << 1  # ABI 6


class LandlockError(OSError):
    """A Landlock call failed: the kernel refused the ruleset or the restriction."""


class _RulesetAttr(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def landlock_abi() -> int:
    """The Landlock ABI version of the running kernel (0: none, or not Linux)."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        version = _libc().syscall(
            _CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_VERSION_FLAG)
        )
    except (OSError, AttributeError):
        return 0
    return max(int(version), 0)


def _write_rights(abi: int) -> int:
    rights = _WRITE_FILE | _REMOVE_DIR | _REMOVE_FILE | _MAKE
    return rights | (_REFER if abi >= 2 else 0) | (_TRUNCATE if abi >= 3 else 0)


def _attr_size(abi: int) -> int:
    # A kernel rejects a larger struct than it knows unless the extra fields are zero;
    # pass exactly the fields of its ABI.
    return 24 if abi >= 6 else 16 if abi >= 4 else 8


def _check(result: int, what: str) -> int:
    if result < 0:
        number = ctypes.get_errno()
        raise LandlockError(number, f"landlock {what}: {os.strerror(number)}")
    return result


def restrict_writes(abi: int, writable: Sequence[str], writable_files: Sequence[str]) -> None:
    """Restrict this process and what it starts: writes only beneath `writable` and to
    `writable_files`; no signal out of the domain (ABI >= 6).

    Raises:
        LandlockError: the kernel refused a call.
    """
    libc = _libc()
    rights = _write_rights(abi)
    attr = _RulesetAttr(rights, 0, _SCOPE_SIGNAL if abi >= 6 else 0)
    ruleset = _check(
        libc.syscall(
            _CREATE_RULESET,
            ctypes.byref(attr),
            ctypes.c_size_t(_attr_size(abi)),
            ctypes.c_uint32(0),
        ),
        "create_ruleset",
    )
    try:
        file_rights = _WRITE_FILE | (_TRUNCATE if abi >= 3 else 0)
        for paths, allowed in ((writable, rights), (writable_files, file_rights)):
            for path in paths:
                _allow(libc, ruleset, path, allowed)
        _check(libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
        _check(libc.syscall(_RESTRICT_SELF, ruleset, ctypes.c_uint32(0)), "restrict_self")
    finally:
        os.close(ruleset)


def _allow(libc: ctypes.CDLL, ruleset: int, path: str, allowed: int) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except FileNotFoundError:
        return  # nothing there to write to
    try:
        beneath = _PathBeneath(allowed, fd)
        _check(
            libc.syscall(
                _ADD_RULE,
                ruleset,
                ctypes.c_int(_RULE_PATH_BENEATH),
                ctypes.byref(beneath),
                ctypes.c_uint32(0),
            ),
            f"add_rule {path}",
        )
    finally:
        os.close(fd)


def apply(policy: dict[str, object]) -> None:
    """Set the limits `policy` asks for on this process.

    Raises:
        OSError: a limit could not be set.
    """
    memory = policy.get("memory")
    if isinstance(memory, int):
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    abi = policy.get("landlock")
    if isinstance(abi, int) and abi > 0:
        restrict_writes(abi, _paths(policy.get("writable")), _paths(policy.get("writable_files")))


def _paths(value: object) -> list[str]:
    return [str(path) for path in value] if isinstance(value, list) else []


def main(argv: Sequence[str]) -> int:
    """Apply the policy of `argv[0]` and exec the command after `--`."""
    if len(argv) < 3 or argv[1] != "--":
        sys.stderr.write("usage: confine_exec.py POLICY -- COMMAND...\n")
        return 2
    command = list(argv[2:])
    try:
        apply(json.loads(argv[0]))
    except (OSError, ValueError) as exc:
        sys.stderr.write(f"refold: cannot confine the target: {exc}\n")
        return CANNOT_CONFINE
    try:
        os.execvp(command[0], command)
    except OSError as exc:
        sys.stderr.write(f"refold: cannot start {command[0]!r}: {exc.strerror}\n")
        return 127
    return 127  # unreachable: execvp returned


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
