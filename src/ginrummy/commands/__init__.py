"""Sub-commands of the ``ginrummy`` CLI, one module each (see :mod:`ginrummy.cli`).

The helpers here are what every command prints through: text from a record or a user (names,
error messages quoting a field) may hold control characters, which must not reach the terminal
as such, and an error is always exactly one line.
"""

from __future__ import annotations

import sys

__all__ = ["error", "one_line", "printable"]


def printable(text: str) -> str:
    """``text`` with every character that is not printable (control characters, escape sequences,
    bidirectional overrides, lone surrogates) written as a Python escape; newlines are kept."""
    if text.isprintable():
        return text
    return "\n".join(
        "".join(
            c if c.isprintable() or c == " " else c.encode("unicode_escape", "backslashreplace").decode("ascii")
            for c in line
        )
        for line in text.split("\n")
    )


def one_line(text: str) -> str:
    """``text`` as one printable line (runs of whitespace, newlines included, become one space)."""
    return printable(" ".join(text.split()))


def error(command: str, message: str) -> None:
    """Print ``ginrummy COMMAND: MESSAGE`` as one line on standard error."""
    print(f"ginrummy {command}: {one_line(message)}", file=sys.stderr)
