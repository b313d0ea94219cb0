"""One exception family for everything ginrummy rejects.

Every message names the bad value and, where it helps, what would have been valid.  Where the
operating system or SQLite refused, :func:`system_reason` words its reason in the reader's language;
:func:`json_reason` and :func:`utf8_reason` word those of Python's JSON reader and UTF-8 decoder.
"""

from __future__ import annotations

import errno
import sys
from collections.abc import Mapping
from typing import Any

from .i18n import N_, _


class GinRummyError(Exception):
    """Base class of every error ginrummy raises on purpose."""


class CardError(GinRummyError, ValueError):
    """A string that is not a card, a duplicate card, or a joker where none may be."""


class OptionError(GinRummyError, ValueError):
    """An unknown variant option or a bad option value."""


class IllegalAction(GinRummyError, ValueError):
    """An action that is not legal in the current state; the state is left untouched."""


class RecordError(GinRummyError, ValueError):
    """A game record that cannot be read or replayed."""


class StoreError(GinRummyError):
    """A saved-games database that cannot be used (corrupt, foreign or unwritable)."""


# ------------------------------------------------------------------------- the system's own reasons
# Why the operating system or SQLite refused (``No such file or directory``, ``database is
# locked``), in the reader's language: the common reasons by their code, worded in the catalogs;
# any other keeps the system's own text.  Each is a phrase that ends a sentence of ours ("cannot
# read {path}: {reason}").
_OS_REASONS = {  # by errno's name (a name this platform lacks is left out)
    "ENOENT": N_("no such file or directory"),
    "EACCES": N_("permission denied"),
    "EPERM": N_("the operation is not permitted"),
    "EISDIR": N_("it is a directory"),
    "ENOTDIR": N_("a part of the path is not a directory"),
    "EEXIST": N_("a file of that name already exists"),
    "ENOTEMPTY": N_("the directory is not empty"),
    "ENOSPC": N_("no space left on the disk"),
    "EDQUOT": N_("the disk quota is used up"),
    "EFBIG": N_("the file is too large"),
    "EROFS": N_("the file system is read-only"),
    "ENAMETOOLONG": N_("the file name is too long"),
    "ELOOP": N_("too many levels of symbolic links"),
    "EMFILE": N_("too many open files"),
    "ENFILE": N_("too many open files in the system"),
    "EBUSY": N_("the device or resource is busy"),
    "ETXTBSY": N_("the file is busy"),
    "EIO": N_("an input/output error"),
    "ENXIO": N_("no such device or address"),
    "ENODEV": N_("no such device"),
    "EXDEV": N_("the file cannot be moved to another file system"),
    "EINVAL": N_("an invalid argument"),
    "EADDRINUSE": N_("the address is already in use"),
    "EADDRNOTAVAIL": N_("the address is not one of this computer's"),
    "EAFNOSUPPORT": N_("this kind of address is not supported"),
}
_ERRNO_REASONS = {code: _OS_REASONS[name] for name in _OS_REASONS if (code := getattr(errno, name, None)) is not None}
_LOOKUP_REASONS = {  # a host name that cannot be looked up (socket.gaierror), by the EAI_ code's name
    "EAI_NONAME": N_("no such host name is known"),
    "EAI_AGAIN": N_("the host name cannot be looked up now"),
    "EAI_NODATA": N_("the host name has no address"),
}
_SSL_REASONS = {  # a certificate or key refused (ssl.SSLError), by OpenSSL's reason
    "PEM_LIB": N_("not a certificate or key in PEM form"),
    "NO_START_LINE": N_("not a certificate or key in PEM form"),
    "KEY_VALUES_MISMATCH": N_("the key does not belong to the certificate"),
    "EE_KEY_TOO_SMALL": N_("the certificate's key is too small"),
    "CA_MD_TOO_WEAK": N_("the certificate's signature is too weak"),
}
_SQLITE_REASONS = {  # by SQLite's primary result code (its documented numbers)
    3: N_("access permission denied"),  # SQLITE_PERM
    5: N_("the database is locked by another program"),  # SQLITE_BUSY
    6: N_("a table of the database is locked"),  # SQLITE_LOCKED
    7: N_("out of memory"),  # SQLITE_NOMEM
    8: N_("the database is read-only"),  # SQLITE_READONLY
    10: N_("a disk input/output error"),  # SQLITE_IOERR
    11: N_("the database file is malformed"),  # SQLITE_CORRUPT
    13: N_("the database or the disk is full"),  # SQLITE_FULL
    14: N_("the database file cannot be opened"),  # SQLITE_CANTOPEN
    22: N_("the file is too large for this system"),  # SQLITE_NOLFS
    23: N_("authorization denied"),  # SQLITE_AUTH
    26: N_("the file is not a database"),  # SQLITE_NOTADB
}


def _worded(table: Mapping[Any, str], key: object, otherwise: str) -> str:
    """``table``'s message for ``key`` in the current language; ``otherwise`` (the system's own
    text) for a key it does not know."""
    known = table.get(key)
    return _(known) if known is not None else otherwise


def system_reason(exc: BaseException) -> str:
    """Why the operating system (an :class:`OSError`) or SQLite (an ``sqlite3.Error``) refused, in
    the current language: ``no such file or directory``, ``the database is locked by another
    program``.  A reason not in the tables above is the system's own text (``exc.strerror``, else
    the exception's text).  A certificate or key that SSL refused is worded by OpenSSL's reason."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and not isinstance(exc, OSError):
        return _worded(_SQLITE_REASONS, code & 0xFF, str(exc))  # an extended code (SQLITE_IOERR_WRITE): its primary's
    if isinstance(exc, OSError):
        ssl, socket = sys.modules.get("ssl"), sys.modules.get("socket")
        if ssl is not None and isinstance(exc, ssl.SSLError):  # its number is OpenSSL's, not errno's
            reason = exc.reason or ("PEM_LIB" if str(exc).startswith("[SSL] PEM lib") else None)
            return _worded(_SSL_REASONS, reason, str(exc))
        if socket is not None and isinstance(exc, socket.gaierror):
            name = next((n for n in _LOOKUP_REASONS if getattr(socket, n, None) == exc.errno), None)
            return _worded(_LOOKUP_REASONS, name, exc.strerror or str(exc))
        return _worded(_ERRNO_REASONS, exc.errno, exc.strerror or str(exc))
    return str(exc)


# ------------------------------------------------------------------ Python's readers' own reasons
# Why Python's JSON reader and UTF-8 decoder refused a text, in the reader's language (records, the
# saved-games database's rows): the same words as theirs, from the catalogs.
_JSON_REASONS = {
    "Expecting value": N_("Expecting value"),
    "Expecting property name enclosed in double quotes": N_("Expecting property name enclosed in double quotes"),
    "Expecting ':' delimiter": N_("Expecting ':' delimiter"),
    "Expecting ',' delimiter": N_("Expecting ',' delimiter"),
    "Unterminated string starting at": N_("Unterminated string starting at"),
    "Invalid control character at": N_("Invalid control character at"),
    "Invalid \\escape": N_("Invalid \\escape"),
    "Invalid \\uXXXX escape": N_("Invalid \\uXXXX escape"),
    "Extra data": N_("Extra data"),
    "Illegal trailing comma before end of object": N_("Illegal trailing comma before end of object"),
    "Illegal trailing comma before end of array": N_("Illegal trailing comma before end of array"),
}


def json_reason(msg: str) -> str:
    """What Python's JSON reader found wrong (``Expecting value``), in the current language."""
    return _worded(_JSON_REASONS, msg, msg)


_UTF8_REASONS = {  # Python's UTF-8 decoder's reasons
    "invalid start byte": N_("invalid start byte"),
    "invalid continuation byte": N_("invalid continuation byte"),
    "unexpected end of data": N_("unexpected end of data"),
}


def utf8_reason(reason: str) -> str:
    """What Python's UTF-8 decoder found wrong (``invalid start byte``), in the current language."""
    return _worded(_UTF8_REASONS, reason, reason)
