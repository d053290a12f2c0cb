"""Applying patches to a source text, and writing a file back: the text-level
half of ``mslint --fix`` (mslint.report.fixes runs the loop; mslint.report.notebooks
maps a notebook's patches into its cells)."""

from __future__ import annotations

import ast
import contextlib
import errno
import io
import os
import re
import stat
import tempfile
import tokenize
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from mslint.analysis.edits import Patch


# ---------------------------------------------------------------------------
# Applying patches to text
# ---------------------------------------------------------------------------

_LINE_END = re.compile(r"\r\n|\r|\n")


def _line_starts(text: str) -> list[int]:
    return [0] + [match.end() for match in _LINE_END.finditer(text)]


def _offset(starts: list[int], text: str, line: int, column: int) -> int:
    if line < 1 or line > len(starts):
        raise ValueError("edit outside the file")
    offset = starts[line - 1] + column - 1
    end = starts[line] if line < len(starts) else len(text)
    if column < 1 or offset > end:
        raise ValueError("edit outside the line")
    return offset


def apply_patches(text: str, patches: Sequence[Patch]) -> tuple[str, list[Patch]]:
    """``text`` with every patch applied that overlaps no patch taken before it
    (in source order), and the patches taken. Edits identical to one already
    taken (the same import added by two fixes) are shared, not repeated."""
    starts = _line_starts(text)
    taken_spans: dict[tuple[int, int, str], None] = {}
    taken: list[Patch] = []
    ordered = sorted(patches, key=lambda patch: min(patch.edits))
    for patch in ordered:
        try:
            spans = [(_offset(starts, text, e.line, e.column), _offset(starts, text, e.end_line, e.end_column), e.text) for e in patch.edits]
        except ValueError:
            continue
        if any(start > end for start, end, _ in spans):
            continue
        new = [span for span in spans if span not in taken_spans]
        if any(_overlaps(span, other) for span in new for other in taken_spans) or any(
            _overlaps(a, b) for i, a in enumerate(new) for b in new[i + 1 :]
        ):
            continue
        taken_spans.update(dict.fromkeys(new))
        taken.append(patch)
    result = text
    newline = _newline_of(text)
    for start, end, replacement in sorted(taken_spans, key=lambda span: (span[0], span[1]), reverse=True):
        result = result[:start] + _with_newlines(replacement, newline) + result[end:]
    return result, taken


def _newline_of(text: str) -> str:
    """The file's line ending: that of its first line (\\n when it has one line)."""
    match = _LINE_END.search(text)
    return match.group() if match else "\n"


def _with_newlines(replacement: str, newline: str) -> str:
    """An edit's inserted lines (written with \\n: ``from mindspore import ops\\n``)
    ending as the file's own lines do, so that a CRLF file stays CRLF."""
    if newline == "\n" or "\n" not in replacement:
        return replacement
    return _LINE_END.sub(newline, replacement)


def _overlaps(first: tuple[int, int, str], second: tuple[int, int, str]) -> bool:
    (a_start, a_end, _), (b_start, b_end, _) = first, second
    if a_start == b_start:
        return True  # two edits at one place: their order would be a guess
    return a_start < b_end and b_start < a_end


# ---------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------


@dataclass
class Source:
    """A Python file's text as decoded, and how to write it back byte for byte
    alike (its encoding and byte-order mark)."""

    text: str
    encoding: str
    bom: bool

    @classmethod
    def read(cls, path: str) -> Source | None:
        """None when the file cannot be read, decoded or compiled: never edited."""
        try:
            data = Path(path).read_bytes()
        except OSError:
            return None
        return cls.from_bytes(data)

    @classmethod
    def from_bytes(cls, data: bytes) -> Source | None:
        """The source of a file's bytes; None when they cannot be decoded or
        compiled (such a file is never edited)."""
        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
            bom = encoding == "utf-8-sig"
            text = data.decode(encoding)
        except (SyntaxError, UnicodeDecodeError, LookupError):
            return None
        if bom and text.startswith("\ufeff"):
            text = text[1:]
        if not compiles(text):
            return None
        return cls(text, "utf-8" if bom else encoding, bom)

    def encoded(self, text: str) -> bytes:
        return (b"\xef\xbb\xbf" if self.bom else b"") + text.encode(self.encoding)


def compiles(text: str) -> bool:
    """Whether CPython compiles ``text``. More than parsing: ``ast.parse``
    accepts what the compiler rejects (a repeated keyword argument, ``return``
    outside a function, a misplaced ``from __future__`` import, ...)."""
    try:
        with warnings.catch_warnings():  # compiling warns about odd code (``x is 1``): not ours to print
            warnings.simplefilter("ignore")
            compile(text, "<mslint-fix>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # ValueError: a NUL byte
        return False
    return True


def parses(text: str) -> bool:
    """Whether ``text`` parses (see :func:`compiles`, which the fixes use)."""
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


# ---------------------------------------------------------------------------
# Writing a file back: content-checked under a lock, atomic, its identity kept
# ---------------------------------------------------------------------------


class FileChanged(Exception):
    """The file no longer holds the content the edits were computed on (another
    program, or another mslint, wrote it meanwhile): it is left as it is."""


class CannotWrite(Exception):
    """The file cannot be written (the message says why); it is left as it is."""


READ_LIMIT = 64 * 2**20  # a source file larger than this is not one mslint edits


def rewrite(path: str, expected: bytes, data: bytes) -> bool:
    """Replace the content of the file at ``path`` by ``data``, provided it still
    holds exactly ``expected`` (the bytes the edits were computed on). Returns
    False when it already holds ``data`` (another run wrote the same fix).

    - Per-file lock: the comparison and the write happen under an exclusive
      ``flock`` of the file, so two mslint runs never interleave on one file.
      Other programs (editors) take no lock: the content is compared again
      just before the new content takes its place.
    - The real file is written: through a symbolic link, the target (the link
      stays a link).
    - Atomic: the new content is written to an unnamed file in the same folder
      (``O_TMPFILE``; where the system has none, a hidden ``.mslint-fix-*.tmp``
      file), flushed to disk, given the file's mode, owner, group and extended
      attributes (ACLs, SELinux labels), then renamed over the file: a crash
      leaves the old content or the new, never a part, and no file of mslint's
      in the folder.
    - A file with several hard links, or whose owner or attributes mslint cannot
      give a new file, keeps its inode: it is rewritten in place (one write, with
      the terminating signals held back), so that every link sees the fix.
    - A read-only file (no write permission bit, or none for this user) is never
      written, even by root.

    Raises FileChanged, or CannotWrite with the reason."""
    real = os.path.realpath(path)
    for _ in range(100):  # each retry: the file was replaced while we waited for its lock
        try:
            fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
        except FileNotFoundError as error:
            raise FileChanged("it was removed") from error
        except OSError as error:
            raise CannotWrite(_reason(error)) from error
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise CannotWrite("not a regular file")
            _lock(fd)
            try:
                now = os.stat(real, follow_symlinks=False)
            except FileNotFoundError as error:
                raise FileChanged("it was removed") from error
            if (now.st_dev, now.st_ino) != (info.st_dev, info.st_ino):
                continue  # replaced (by another run's fix) while we waited: lock the new file
            info = os.fstat(fd)
            held = _read_all(fd, info.st_size)
            if held != expected:
                if held == data:
                    return False
                raise FileChanged("its content changed since it was checked")
            _check_writable(real, info)
            if info.st_nlink > 1:
                _write_in_place(real, info, expected, data)
            else:
                _replace(real, fd, info, expected, data)
            return True
        finally:
            os.close(fd)
    raise FileChanged("it kept being replaced while mslint waited to write it")


def _lock(fd: int) -> None:
    try:
        import fcntl  # noqa: PLC0415 - POSIX

        fcntl.flock(fd, fcntl.LOCK_EX)
    except ImportError:  # pragma: no cover - Windows: the content check alone
        return
    except OSError as error:
        if error.errno not in (errno.ENOLCK, errno.EOPNOTSUPP, errno.EINVAL):  # a file system without locks
            raise CannotWrite(_reason(error)) from error


def _read_all(fd: int, size: int) -> bytes:
    if size > READ_LIMIT:
        raise CannotWrite(f"larger than {READ_LIMIT // 2**20} MiB")
    chunks, offset = [], 0
    while True:
        chunk = _pread(fd, 1 << 20, offset)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        offset += len(chunk)
        if offset > READ_LIMIT:
            raise CannotWrite(f"larger than {READ_LIMIT // 2**20} MiB")


def _pread(fd: int, size: int, offset: int) -> bytes:
    if hasattr(os, "pread"):
        return os.pread(fd, size, offset)
    os.lseek(fd, offset, os.SEEK_SET)  # pragma: no cover - Windows
    return os.read(fd, size)


def _check_writable(real: str, info: os.stat_result) -> None:
    if not info.st_mode & 0o222 or not os.access(real, os.W_OK):
        raise CannotWrite("the file is read-only")


def _reason(error: OSError) -> str:
    if error.errno in (errno.EPERM, errno.EACCES):
        return f"permission denied ({error.strerror}; a read-only folder, or an immutable file?)"
    if error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return f"no space to write it ({error.strerror})"
    if error.errno == errno.EROFS:
        return "the file system is read-only"
    return error.strerror or str(error)


def _replace(real: str, fd: int, info: os.stat_result, expected: bytes, data: bytes) -> None:
    folder = os.path.dirname(real)
    try:
        handle, named = _new_file(folder)
    except OSError as error:
        if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise CannotWrite(f"its folder is not writable ({error.strerror}); mslint replaces a file as a whole, never partly") from error
        raise CannotWrite(_reason(error)) from error
    published = named  # a named temporary file is removed on any failure
    try:
        _write_all(handle, data)
        os.fsync(handle)
        if not _same_identity(fd, handle, info):  # an owner or attribute a new file cannot have
            os.close(handle)
            handle = -1
            _write_in_place(real, info, expected, data)
            return  # (the finally removes a named temporary file)
        published = published or _publish(handle, folder)
        # last look, right before the rename: an editor that saved meanwhile wrote
        # the file in place (its content) or renamed a new file over it (its inode)
        if _read_all(fd, os.fstat(fd).st_size) != expected or not _same_file(real, info):
            raise FileChanged("its content changed while mslint wrote it")
        os.replace(published, real)
        published = None
        _sync_folder(folder)
    except OSError as error:
        raise CannotWrite(_reason(error)) from error
    finally:
        if handle >= 0:
            os.close(handle)
        if published is not None:
            with contextlib.suppress(OSError):
                os.unlink(published)


def _same_file(path: str, info: os.stat_result) -> bool:
    try:
        now = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    return (now.st_dev, now.st_ino) == (info.st_dev, info.st_ino)


def _new_file(folder: str) -> tuple[int, str | None]:
    """An unnamed file in ``folder`` (None: it has no name yet), else a hidden
    named one."""
    flag = getattr(os, "O_TMPFILE", 0)
    if flag and os.path.isdir("/proc/self/fd"):  # naming it later goes through /proc
        try:
            return os.open(folder, flag | os.O_WRONLY | getattr(os, "O_CLOEXEC", 0), 0o600), None
        except OSError as error:
            if error.errno not in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOENT):
                raise
    handle, named = tempfile.mkstemp(prefix=".mslint-fix-", suffix=".tmp", dir=folder)
    return handle, named


def _publish(handle: int, folder: str) -> str:
    """Give the unnamed file a (hidden) name for the instant before it is renamed
    over the file: ``linkat`` through /proc, as open(2) describes."""
    directory = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        for _ in range(100):
            name = f".mslint-fix-{os.getpid()}-{os.urandom(6).hex()}.tmp"
            try:
                # a directory descriptor makes Python call linkat(AT_SYMLINK_FOLLOW), not link()
                os.link(f"/proc/self/fd/{handle}", name, dst_dir_fd=directory, follow_symlinks=True)
                return os.path.join(folder, name)
            except FileExistsError:
                continue
    finally:
        os.close(directory)
    raise FileExistsError(errno.EEXIST, "no free temporary name")


def _write_all(handle: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(handle, view)
        view = view[written:]


def _same_identity(source: int, target: int, info: os.stat_result) -> bool:
    """Give the new file (``target``) the old one's owner, group, mode and
    extended attributes; False when one of them cannot be given."""
    try:
        if (info.st_uid, info.st_gid) != (os.geteuid(), os.getegid()):
            os.fchown(target, info.st_uid, info.st_gid)
        os.fchmod(target, stat.S_IMODE(info.st_mode))  # after chown, which clears set-id bits
    except (OSError, AttributeError):
        return False
    listxattr = getattr(os, "listxattr", None)
    if listxattr is None:
        return True
    try:
        names = listxattr(source)
    except OSError as error:
        return error.errno in (errno.ENOTSUP, errno.EOPNOTSUPP)
    try:
        for name in names:
            os.setxattr(target, name, os.getxattr(source, name))
    except OSError:
        return False
    return True


def _write_in_place(real: str, info: os.stat_result, expected: bytes, data: bytes) -> None:
    """Rewrite the file's own inode (hard links, an owner a new file cannot
    have). One ``pwrite`` then a truncation, with SIGINT/SIGTERM/SIGHUP held back
    meanwhile; on a write error (a full disk) the old content is written back."""
    try:
        fd = os.open(real, os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise CannotWrite(_reason(error)) from error
    held = _hold_signals()
    try:
        now = os.fstat(fd)
        if (now.st_dev, now.st_ino) != (info.st_dev, info.st_ino) or not _same_file(real, info):
            raise FileChanged("it was replaced while mslint wrote it")
        try:
            current = _read_all_path(real)
        except OSError as error:
            raise CannotWrite(_reason(error)) from error
        if current != expected:
            raise FileChanged("its content changed while mslint wrote it")
        try:
            _pwrite_all(fd, data)
            os.ftruncate(fd, len(data))
            os.fsync(fd)
        except OSError as error:
            with contextlib.suppress(OSError):
                _pwrite_all(fd, expected)
                os.ftruncate(fd, len(expected))
            raise CannotWrite(_reason(error)) from error
    finally:
        os.close(fd)
        _release_signals(held)


def _read_all_path(path: str) -> bytes:
    with open(path, "rb") as stream:
        return stream.read(READ_LIMIT + 1)


def _pwrite_all(fd: int, data: bytes) -> None:
    view, offset = memoryview(data), 0
    if not hasattr(os, "pwrite"):  # pragma: no cover - Windows
        os.lseek(fd, 0, os.SEEK_SET)
        _write_all(fd, data)
        return
    while offset < len(data):
        offset += os.pwrite(fd, view[offset:], offset)


_HELD = ("SIGINT", "SIGTERM", "SIGHUP")


def _hold_signals() -> set | None:
    import signal  # noqa: PLC0415
    import threading  # noqa: PLC0415

    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        return None
    numbers = {getattr(signal, name) for name in _HELD if hasattr(signal, name)}
    return signal.pthread_sigmask(signal.SIG_BLOCK, numbers)


def _release_signals(previous: set | None) -> None:
    if previous is None:
        return
    import signal  # noqa: PLC0415

    signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _sync_folder(folder: str) -> None:
    with contextlib.suppress(OSError):
        handle = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


def fixed_text(source: Source, patches: Sequence[Patch]) -> tuple[str, list[Patch]]:
    """The source with ``patches`` applied, keeping only what still compiles
    (:func:`compiles`, not just parses: ``f(bias=0, has_bias=1)`` with ``bias``
    renamed parses): when the whole set does not, the patches are tried one by one."""
    text, taken = apply_patches(source.text, patches)
    if not taken or compiles(text):
        return text, taken
    text, kept = source.text, []
    for patch in taken:
        attempt, applied = apply_patches(text, [patch])
        if applied and compiles(attempt):
            text = attempt
            kept.append(patch)
    return text, kept
