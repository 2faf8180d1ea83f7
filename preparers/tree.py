"""File trees under /home/user: a list of `FileSpec`s in, a list of `Asset`s (real file bytes) out.

Every kind renders a small but *real* file, so `file(1)`, image viewers and archive tools accept it:
text-like kinds are UTF-8 text; `pdf` is a one-page PDF with the text; `docx`/`xlsx` are Office zips;
`png`/`jpg`/`gif` are tiny images (magic bytes, valid chunks/segments) whose bytes vary with `text`
(a caption), `wav`/`mp3` are short silent clips tagged with `text`; `tar`/`tar.gz`/`tar.bz2`/`zip`
hold `members` (specs with paths relative to the archive root). Pure and deterministic: no clock, no
randomness — the same specs give the same bytes (archive timestamps are fixed, gzip's mtime is 0).
"""

from __future__ import annotations

import bz2
import csv
import gzip
import hashlib
import io
import struct
import tarfile
import zipfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from kit.model import HOME, Asset
from preparers import xlsx
from preparers.office_zip import normalize

#: Archive member timestamps (2024-01-01 00:00:00 UTC): fixed, so archives are byte-reproducible.
FIXED_MTIME = 1704067200

#: Extension (lowercase, no dot) -> kind. Anything else renders as plain text.
KINDS: dict[str, str] = {
    "txt": "text", "md": "text", "text": "text", "rst": "text", "html": "text", "htm": "text", "json": "text",
    "csv": "csv", "tsv": "csv", "log": "text", "ini": "text", "conf": "text", "cfg": "text", "env": "text",
    "yaml": "text", "yml": "text", "sh": "text", "py": "text", "bak": "text", "tmp": "text",
    "pdf": "pdf", "docx": "docx", "xlsx": "xlsx", "png": "png", "jpg": "jpg", "jpeg": "jpg", "gif": "gif",
    "wav": "wav", "mp3": "mp3", "tar": "tar", "gz": "tar.gz", "tgz": "tar.gz", "bz2": "tar.bz2", "zip": "zip",
}


@dataclass(frozen=True)
class FileSpec:
    """One file of a tree.

    `path` is absolute under /home/user (archive members: relative to the archive root); `kind` one of
    `KINDS`' values or "empty"; `text` the content of text kinds, the body of pdf/docx, the caption of
    images and audio; `rows` the cells of csv/xlsx (first row = header); `members` the files inside an
    archive; `mode` the permission bits setup.sh gives the file."""

    path: str
    kind: str
    text: str = ""
    rows: tuple[tuple[str, ...], ...] = ()
    members: tuple[FileSpec, ...] = ()
    mode: int = 0o644

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]


def kind_for(name: str) -> str:
    """The kind a file called `name` renders as, from its (case-insensitive) extension."""
    lower = name.lower()
    for double in ("tar.gz", "tar.bz2"):
        if lower.endswith("." + double):
            return double
    ext = lower.rsplit(".", 1)[-1] if "." in lower.lstrip(".") else ""
    return KINDS.get(ext, "text")


def build(specs: Sequence[FileSpec]) -> list[Asset]:
    """The assets for a tree: one per spec, at its path, with its mode (app "": no real app opens them)."""
    seen: set[str] = set()
    assets = []
    for spec in specs:
        if not spec.path.startswith(HOME + "/") or ".." in spec.path.split("/"):
            raise ValueError(f"path {spec.path!r} must be an absolute path under {HOME}")
        if spec.path in seen:
            raise ValueError(f"path {spec.path!r} appears twice in the tree")
        seen.add(spec.path)
        assets.append(Asset(spec.path, render(spec), app="", mode=spec.mode))
    return assets


def render(spec: FileSpec) -> bytes:
    """The bytes of one file."""
    renderer = _RENDERERS.get(spec.kind)
    if renderer is None:
        raise ValueError(f"{spec.path}: unknown kind {spec.kind!r}; known: {sorted(_RENDERERS)}")
    return renderer(spec)


# --- text and documents ---------------------------------------------------------------------------

def _text(spec: FileSpec) -> bytes:
    return spec.text.encode("utf-8")


def _csv(spec: FileSpec) -> bytes:
    out = io.StringIO()
    delimiter = "\t" if spec.path.lower().endswith(".tsv") else ","
    csv.writer(out, delimiter=delimiter, lineterminator="\n").writerows(spec.rows)
    return out.getvalue().encode("utf-8")


def _pdf(spec: FileSpec) -> bytes:
    """A one-page PDF 1.4 showing the text (Helvetica), with a correct xref table."""
    def lit(line: str) -> str:
        safe = line.encode("latin-1", "replace").decode("latin-1")
        return "(" + safe.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"

    lines = spec.text.splitlines() or [""]
    stream = "BT /F1 11 Tf 72 740 Td 14 TL " + " ".join(f"{lit(line)} '" for line in lines[:48]) + " ET"
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        "/Resources << /Font << /F1 5 0 R >> >> >>",
        f"<< /Length {len(stream.encode('latin-1'))} >>\nstream\n{stream}\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{off:010d} 00000 n \n" for off in offsets).encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


_DOCX_TYPES = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
               '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
               '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
               '<Default Extension="xml" ContentType="application/xml"/>'
               '<Override PartName="/word/document.xml" ContentType="application/'
               'vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')
_DOCX_RELS = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
              '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
              '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
              'relationships/officeDocument" Target="word/document.xml"/></Relationships>')


def _docx(spec: FileSpec) -> bytes:
    """A minimal Word document: one paragraph per line of text."""
    paras = "".join(f'<w:p><w:r><w:t xml:space="preserve">{escape(line)}</w:t></w:r></w:p>'
                    for line in spec.text.splitlines())
    document = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w='
                f'"http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{paras}</w:body></w:document>')
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        zf.writestr("[Content_Types].xml", _DOCX_TYPES)
        zf.writestr("_rels/.rels", _DOCX_RELS)
        zf.writestr("word/document.xml", document)
    return normalize(out.getvalue())


def _xlsx(spec: FileSpec) -> bytes:
    return xlsx.build({"sheets": [{"name": "Sheet1", "rows": [list(r) for r in spec.rows]}]})


# --- images and audio (bytes vary with the caption) --------------------------------------------------

def _seed(spec: FileSpec) -> bytes:
    return hashlib.sha256((spec.text or spec.path).encode("utf-8")).digest()


def _png_chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)


def _png(spec: FileSpec) -> bytes:
    """A 24x16 RGB gradient between two colours drawn from the caption, with a tEXt Title chunk."""
    seed = _seed(spec)
    width, height = 24, 16
    a, b = seed[:3], seed[3:6]
    span = width + height - 2
    rows = b"".join(
        b"\x00" + bytes(int(a[c] + (b[c] - a[c]) * (x + y) / span) for x in range(width) for c in range(3))
        for y in range(height))
    return (b"\x89PNG\r\n\x1a\n"
            + _png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + _png_chunk(b"tEXt", b"Title\x00" + spec.text.encode("latin-1", "replace")[:200])
            + _png_chunk(b"IDAT", zlib.compress(rows, 9))
            + _png_chunk(b"IEND", b""))


# An 8x8 baseline JFIF (quality 60); a COM segment carrying the caption makes each photo's bytes distinct.
_JPEG = bytes.fromhex(
    "ffd8ffe000104a46494600010100000100010000ffdb0043000d090a0b0a080d0b0a0b0e0e0d0f13201513121213271c1e1720"
    "2e2931302e292d2c333a4a3e333646372c2d405741464c4e525352323e5a615a50604a51524fffdb0043010e0e0e131113261515"
    "264f352d354f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f"
    "4f4f4f4f4f4f4f4fffc00011080008000803012200021101031101ffc4001f0000010501010101010100000000000000000102"
    "030405060708090a0bffc400b5100002010303020403050504040000017d010203000411051221314106135161072271143281"
    "91a1082342b1c11552d1f02433627282090a161718191a25262728292a3435363738393a434445464748494a53545556575859"
    "5a636465666768696a737475767778797a838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9"
    "bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8f9faffc4001f01000301010101010101"
    "01010000000000000102030405060708090a0bffc400b5110002010204040304070504040001027700010203110405213106124151"
    "0761711322328108144291a1b1c109233352f0156272d10a162434e125f11718191a262728292a35363738393a43444546474849"
    "4a535455565758595a636465666768696a737475767778797a82838485868788898a92939495969798999aa2a3a4a5a6a7a8a9"
    "aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae2e3e4e5e6e7e8e9eaf2f3f4f5f6f7f8f9faffda000c0301"
    "0002110311003f007514515e41ea1fffd9")


def _jpg(spec: FileSpec) -> bytes:
    comment = spec.text.encode("utf-8")[:400] + b" #" + _seed(spec)[:4].hex().encode()
    return _JPEG[:20] + b"\xff\xfe" + struct.pack(">H", len(comment) + 2) + comment + _JPEG[20:]


def _gif(spec: FileSpec) -> bytes:
    """A 1x1 GIF89a with a two-colour palette from the caption and a comment extension."""
    seed = _seed(spec)
    comment = spec.text.encode("utf-8")[:250]
    return (b"GIF89a" + struct.pack("<HHBBB", 1, 1, 0x80, 0, 0) + seed[:3] + b"\xff\xff\xff"
            + b"\x21\xfe" + bytes([len(comment)]) + comment + b"\x00"
            + b"\x2c" + struct.pack("<HHHHB", 0, 0, 1, 1, 0) + b"\x02\x02\x44\x01\x00\x3b")


def _wav(spec: FileSpec) -> bytes:
    """A short 8 kHz 8-bit mono PCM clip: a quiet tone whose pitch comes from the caption."""
    period = 8 + _seed(spec)[0] % 24
    samples = bytes(128 + (6 if (i // period) % 2 else -6) for i in range(1600 + 40 * (_seed(spec)[1] % 50)))
    fmt = struct.pack("<HHIIHH", 1, 1, 8000, 8000, 1, 8)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(samples)) + samples
    return b"RIFF" + struct.pack("<I", len(body)) + body


def _mp3(spec: FileSpec) -> bytes:
    """An ID3v2.3 tag (TIT2 = caption) followed by silent MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz)."""
    title = b"\x00" + spec.text.encode("latin-1", "replace")[:120]
    frame = b"TIT2" + struct.pack(">I", len(title)) + b"\x00\x00" + title
    size = len(frame)
    synchsafe = bytes([(size >> 21) & 0x7F, (size >> 14) & 0x7F, (size >> 7) & 0x7F, size & 0x7F])
    audio = (b"\xff\xfb\x90\x64" + bytes(413)) * (4 + _seed(spec)[0] % 8)
    return b"ID3\x03\x00\x00" + synchsafe + frame + audio


def _empty(spec: FileSpec) -> bytes:
    return b""


# --- archives -----------------------------------------------------------------------------------

def _member_path(member: FileSpec) -> str:
    if member.path.startswith("/") or ".." in member.path.split("/"):
        raise ValueError(f"archive member {member.path!r} must be a relative path without '..'")
    return member.path


def _tar_bytes(spec: FileSpec) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for member in spec.members:
            data = render(member)
            info = tarfile.TarInfo(_member_path(member))
            info.size, info.mtime, info.mode = len(data), FIXED_MTIME, member.mode
            info.uid = info.gid = 1000
            info.uname = info.gname = "user"
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def _tar(spec: FileSpec) -> bytes:
    return _tar_bytes(spec)


def _tar_gz(spec: FileSpec) -> bytes:
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", mtime=0, filename="") as gz:
        gz.write(_tar_bytes(spec))
    return out.getvalue()


def _tar_bz2(spec: FileSpec) -> bytes:
    return bz2.compress(_tar_bytes(spec))


def _zip(spec: FileSpec) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for member in spec.members:
            info = zipfile.ZipInfo(_member_path(member), date_time=(2024, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (0o100000 | member.mode) << 16
            zf.writestr(info, render(member))
    return out.getvalue()


_RENDERERS = {
    "text": _text, "csv": _csv, "pdf": _pdf, "docx": _docx, "xlsx": _xlsx, "png": _png, "jpg": _jpg, "gif": _gif,
    "wav": _wav, "mp3": _mp3, "empty": _empty, "tar": _tar, "tar.gz": _tar_gz, "tar.bz2": _tar_bz2, "zip": _zip,
}
