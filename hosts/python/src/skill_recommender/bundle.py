"""Reading a skill bundle safely so the component can judge it: a folder, a ``.zip``/``.skill`` archive
or a single SKILL.md. A port of ``host-harness/src/bundle.rs`` with the same limits and checks:

- symlinks are never followed out of the bundle; each is reported with its target and whether it
  resolves outside (by path components, so ``skill`` vs ``skill-evil`` cannot confuse it);
- archive entries whose path leaves the root (zip-slip), absolute or drive-letter paths and duplicates
  after ``\\`` → ``/`` are not read (nothing is ever extracted to disk) and are reported;
- caps on entry count, entry size, total size and compression ratio; an entry that expands past what
  it declared is cut off at the cap and reported;
- binary detection by magic bytes, NUL bytes and UTF-8 validity; executable bits kept; ``.git`` skipped.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import struct
import zipfile
import zlib
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

from .errors import io_message


@dataclass
class BundleLimits:
    max_files: int = 500
    max_file_bytes: int = 10 << 20
    max_total_bytes: int = 50 << 20
    max_ratio: int = 100
    max_depth: int = 16


@dataclass
class BundleFile:
    path: str
    size: int
    kind: str  # text | binary | symlink | unreadable
    content: Optional[str] = None
    executable: bool = False
    magic: Optional[str] = None
    link_target: Optional[str] = None
    link_escapes: bool = False


@dataclass
class BundleNote:
    path: str
    code: str
    message: str


@dataclass
class Bundle:
    name: str = ""
    files: List[BundleFile] = field(default_factory=list)
    notes: List[BundleNote] = field(default_factory=list)


class BundleError(Exception):
    """The bundle could not be read at all (the message names the path)."""


def magic(data: bytes) -> Optional[str]:
    s = data.startswith
    if s(b"\x7fELF"):
        return "elf"
    if s(b"MZ"):
        return "pe"
    if any(s(m) for m in (b"\xfe\xed\xfa\xce", b"\xfe\xed\xfa\xcf", b"\xcf\xfa\xed\xfe", b"\xce\xfa\xed\xfe", b"\xca\xfe\xba\xbe")):
        return "macho"
    if s(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if s(b"\xff\xd8\xff"):
        return "jpeg"
    if s(b"GIF87a") or s(b"GIF89a"):
        return "gif"
    if s(b"%PDF"):
        return "pdf"
    if s(b"PK\x03\x04"):
        return "zip"
    if s(b"\0asm"):
        return "wasm"
    return None


def _entry(path: str, data: bytes, executable: bool) -> BundleFile:
    m = magic(data)
    looks_binary = (m is not None and (m != "pdf" or len(data) > 4)) or (b"\0" in data[:8192])
    content = None
    if not looks_binary:
        try:
            content = data.decode("utf-8")
        except UnicodeDecodeError:
            content = None
    kind = "text" if content is not None else "binary"
    return BundleFile(path, len(data), kind, content, executable, m)


def _symlink(path: str, target: str, escapes: bool) -> BundleFile:
    return BundleFile(path, 0, "symlink", None, False, None, target, escapes)


def _note(path: str, code: str, message: str) -> BundleNote:
    return BundleNote(path, code, message)


def _too_many(path: str, limits: BundleLimits) -> BundleNote:
    return _note(path, "too_many_files", f"more than {limits.max_files} entries; the rest were not read")


def rust_debug(s: str) -> str:
    """A string quoted the way Rust's ``{:?}`` quotes it (for messages identical to the Rust host's)."""
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\0":
            out.append("\\0")
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\u{{{o:x}}}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def read_bundle(path: "str | os.PathLike[str]", limits: Optional[BundleLimits] = None) -> Bundle:
    """Read a bundle from a folder, an archive (``.zip``, ``.skill``) or a single SKILL.md."""
    limits = limits or BundleLimits()
    path = os.fspath(path)
    try:
        st = os.stat(path)
    except OSError as e:
        raise BundleError(f"{path}: {io_message(e)}") from None
    if stat.S_ISDIR(st.st_mode):
        return _read_dir(path, limits)
    try:
        with open(path, "rb") as f:
            head = f.read(4)
    except OSError as e:
        raise BundleError(f"{path}: {io_message(e)}") from None
    lower = path.lower()
    if head == b"PK\x03\x04" or lower.endswith(".zip") or lower.endswith(".skill"):
        return _read_zip(path, limits)
    try:
        name = os.path.basename(os.path.dirname(os.path.realpath(path, strict=True)))
    except OSError:
        name = ""
    bundle = Bundle(name=name)
    if st.st_size > limits.max_file_bytes:
        bundle.notes.append(
            _note("SKILL.md", "file_too_large", f"{st.st_size} bytes, over the {limits.max_file_bytes}-byte cap")
        )
    else:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise BundleError(f"{path}: {io_message(e)}") from None
        bundle.files.append(_entry("SKILL.md", data, False))
    return bundle


def _inside(root: str, real: str) -> bool:
    r = [p for p in root.split(os.sep) if p]
    x = [p for p in real.split(os.sep) if p]
    return x[: len(r)] == r


def _read_dir(directory: str, limits: BundleLimits) -> Bundle:
    try:
        root = os.path.realpath(directory, strict=True)
    except OSError as e:
        raise BundleError(f"{directory}: {io_message(e)}") from None
    bundle = Bundle(name=os.path.basename(root))
    total = 0
    stack: List[Tuple[str, int]] = [(root, 0)]

    def rel(p: str) -> str:
        r = os.path.relpath(p, root)
        return "/".join(c for c in r.split(os.sep) if c and c != ".")

    while stack:
        d, depth = stack.pop()
        try:
            names = os.listdir(d)
        except OSError as e:
            bundle.notes.append(_note(rel(d), "unreadable", io_message(e)))
            continue
        names.sort(key=os.fsencode)
        for name in reversed(names):
            p = os.path.join(d, name)
            r = rel(p)
            try:
                lst = os.lstat(p)
            except OSError:
                bundle.notes.append(_note(r, "unreadable", "cannot stat"))
                continue
            if stat.S_ISLNK(lst.st_mode):
                try:
                    target = os.readlink(p)
                except OSError:
                    target = ""
                looped = False
                try:
                    os.stat(p)  # follows the whole chain; fails on a loop or a dangling link
                    escapes = not _inside(root, os.path.realpath(p))
                except OSError as e:
                    escapes = True
                    looped = e.errno == errno.ELOOP
                if looped:
                    bundle.notes.append(_note(r, "symlink_loop", f"{r} -> {target} loops"))
                bundle.files.append(_symlink(r, target, escapes and not looped))
                continue
            if stat.S_ISDIR(lst.st_mode):
                if name == ".git":
                    continue
                if depth + 1 > limits.max_depth:
                    bundle.notes.append(
                        _note(r, "too_many_files", f"deeper than {limits.max_depth} folders; not read")
                    )
                else:
                    stack.append((p, depth + 1))
                continue
            if len(bundle.files) >= limits.max_files:
                bundle.notes.append(_too_many(r, limits))
                return bundle
            size = lst.st_size
            if size > limits.max_file_bytes:
                bundle.notes.append(
                    _note(r, "file_too_large", f"{size} bytes, over the {limits.max_file_bytes}-byte cap")
                )
                continue
            if total + size > limits.max_total_bytes:
                bundle.notes.append(
                    _note(r, "bundle_too_large", f"the bundle passes {limits.max_total_bytes} bytes; the rest were not read")
                )
                return bundle
            try:
                with open(p, "rb") as f:
                    data = f.read(limits.max_file_bytes + 1)
            except OSError as e:
                bundle.notes.append(_note(r, "unreadable", io_message(e)))
                continue
            total += len(data)
            bundle.files.append(_entry(r, data, bool(lst.st_mode & 0o111)))
    bundle.files.sort(key=lambda f: f.path.encode("utf-8", "surrogateescape"))
    return bundle


def _archive_link_escapes(entry_path: str, target: str) -> bool:
    t = target.replace("\\", "/")
    if t.startswith("/") or t[1:2] == ":":
        return True
    depth = entry_path.count("/")
    for part in t.split("/"):
        if part in ("", "."):
            continue
        depth += -1 if part == ".." else 1
        if depth < 0:
            return True
    return False


def _enclosed_name(name: str) -> Optional[List[str]]:
    """The zip crate's ``enclosed_name``: ``/`` and ``\\`` separate; ``..`` may not leave the root."""
    if "\0" in name:
        return None
    out: List[str] = []
    for part in re.split(r"[/\\]", name):
        if part in ("", "."):
            continue
        if part == "..":
            if not out:
                return None
            out.pop()
            continue
        out.append(part)
    return out


def _unix_mode(info: zipfile.ZipInfo) -> Optional[int]:
    ext = info.external_attr
    if ext == 0:
        return None
    mode = ext >> 16
    if info.create_system == 3:  # Unix
        return mode & ~0o7000
    if info.create_system == 0:  # DOS
        dos = ext & 0xFF
        m = (0o040000 | 0o775) if dos & 0x10 else (0o100000 | 0o664)
        if dos & 0x01:
            m &= ~0o222
        return m
    return (mode & ~0o7000) if mode else None


def _raw_name(info: zipfile.ZipInfo) -> bytes:
    if info.flag_bits & 0x800:
        return info.orig_filename.encode("utf-8", "surrogateescape")
    try:
        return info.orig_filename.encode("cp437")
    except UnicodeEncodeError:
        return info.orig_filename.encode("utf-8", "surrogateescape")


class _ReadError(Exception):
    pass


def _read_member(zf: zipfile.ZipFile, fp, info: zipfile.ZipInfo, cap: int) -> bytes:
    """Up to ``cap`` bytes of an entry, bounded by its *compressed* size (as the Rust zip crate reads),
    so an entry that lies about its uncompressed size is seen to expand past it."""
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED) or info.flag_bits & 0x1:
        try:
            with zf.open(info) as f:
                return f.read(cap)
        except (zipfile.BadZipFile, RuntimeError, NotImplementedError, OSError, EOFError, zlib.error) as e:
            raise _ReadError(str(e)) from None
    fp.seek(info.header_offset)
    header = fp.read(30)
    if len(header) != 30 or header[:4] != b"PK\x03\x04":
        raise _ReadError("invalid local file header")
    name_len, extra_len = struct.unpack("<HH", header[26:30])
    fp.seek(info.header_offset + 30 + name_len + extra_len)
    out = bytearray()
    crc = 0
    remaining = info.compress_size
    d = zlib.decompressobj(-15) if info.compress_type == zipfile.ZIP_DEFLATED else None
    while remaining > 0 and len(out) < cap:
        chunk = fp.read(min(1 << 16, remaining))
        if not chunk:
            raise _ReadError("unexpected end of archive")
        remaining -= len(chunk)
        if d is None:
            piece = chunk
        else:
            try:
                piece = d.decompress(chunk, cap - len(out))
                while d.unconsumed_tail and len(out) + len(piece) < cap:
                    piece += d.decompress(d.unconsumed_tail, cap - len(out) - len(piece))
            except zlib.error as e:
                raise _ReadError(f"invalid deflate stream: {e}") from None
        out += piece
        crc = zlib.crc32(piece, crc)
    if len(out) >= cap:
        return bytes(out[:cap])
    if d is not None:
        try:
            tail = d.flush()
        except zlib.error as e:
            raise _ReadError(f"invalid deflate stream: {e}") from None
        out += tail
        crc = zlib.crc32(tail, crc)
        if len(out) >= cap:
            return bytes(out[:cap])
    if crc != info.CRC:
        raise _ReadError("Invalid checksum")
    return bytes(out)


def _read_zip(path: str, limits: BundleLimits) -> Bundle:
    try:
        zf = zipfile.ZipFile(path)
    except OSError as e:
        raise BundleError(f"{path}: {io_message(e)}") from None
    except (zipfile.BadZipFile, ValueError, EOFError) as e:
        msg = str(e)
        if msg == "File is not a zip file":
            msg = "invalid Zip archive: Could not find EOCD"  # the Rust zip crate's words for this case
        raise BundleError(f"{path}: not a readable zip archive ({msg})") from None
    stem = os.path.basename(path)
    if "." in stem[1:]:
        stem = stem[: stem.rindex(".")] if stem.rindex(".") > 0 else stem
    bundle = Bundle(name=stem)
    seen = set()
    total = 0
    with zf, open(path, "rb") as fp:
        for info in zf.infolist():
            raw_bytes = _raw_name(info)
            raw = raw_bytes.decode("utf-8", "replace").replace("\\", "/")
            if raw_bytes.endswith(b"/") or raw_bytes.endswith(b"\\"):
                continue
            if raw.startswith("/") or raw_bytes[1:2] == b":":
                bundle.notes.append(
                    _note(raw, "absolute_path", f"entry {rust_debug(raw)} has an absolute path; not extracted")
                )
                continue
            safe = _enclosed_name(info.orig_filename)
            if safe is None:
                bundle.notes.append(
                    _note(raw, "path_escape", f"entry {rust_debug(raw)} leaves the archive root (zip-slip); not extracted")
                )
                continue
            rel = "/".join(safe)
            if rel.lower() in seen:
                bundle.notes.append(
                    _note(rel, "duplicate_path", f"{rel} appears more than once; only the first was read")
                )
                continue
            seen.add(rel.lower())
            if len(bundle.files) >= limits.max_files:
                bundle.notes.append(_too_many(rel, limits))
                break
            declared = info.file_size
            compressed = max(info.compress_size, 1)
            if declared // compressed > limits.max_ratio and declared > 1 << 20:
                bundle.notes.append(
                    _note(rel, "zip_bomb", f"{declared} bytes from {compressed} compressed (ratio {declared // compressed}); not extracted")
                )
                continue
            if declared > limits.max_file_bytes:
                bundle.notes.append(
                    _note(rel, "file_too_large", f"{declared} bytes, over the {limits.max_file_bytes}-byte cap")
                )
                continue
            mode = _unix_mode(info)
            executable = mode is not None and bool(mode & 0o111)
            is_link = mode is not None and (mode & 0o120000) == 0o120000
            try:
                data = _read_member(zf, fp, info, limits.max_file_bytes + 1)
            except _ReadError as e:
                bundle.notes.append(_note(rel, "unreadable", str(e)))
                continue
            if len(data) > limits.max_file_bytes:
                bundle.notes.append(
                    _note(rel, "zip_bomb", f"expands past the {limits.max_file_bytes}-byte cap although it declared {declared} bytes")
                )
                continue
            total += len(data)
            if total > limits.max_total_bytes:
                bundle.notes.append(
                    _note(rel, "bundle_too_large", f"the bundle passes {limits.max_total_bytes} bytes; the rest were not read")
                )
                break
            if is_link:
                target = data.decode("utf-8", "replace")
                bundle.files.append(_symlink(rel, target, _archive_link_escapes(rel, target)))
            else:
                bundle.files.append(_entry(rel, data, executable))
    _strip_wrapper(bundle)
    return bundle


def _strip_wrapper(bundle: Bundle) -> None:
    if not bundle.files or "/" not in bundle.files[0].path:
        return
    d = bundle.files[0].path.split("/", 1)[0]
    prefix = d + "/"
    if all(f.path.startswith(prefix) for f in bundle.files) and all(
        n.path.startswith(prefix) or n.path.startswith("#") for n in bundle.notes
    ):
        for f in bundle.files:
            f.path = f.path[len(prefix):]
        for n in bundle.notes:
            if n.path.startswith(prefix):
                n.path = n.path[len(prefix):]
        bundle.name = d
