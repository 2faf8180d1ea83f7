"""Make Office zip containers byte-reproducible: fixed entry timestamps, fixed core.xml dates."""

from __future__ import annotations

import io
import re
import zipfile

FIXED_DATE = (2024, 1, 1, 0, 0, 0)
FIXED_ISO = "2024-01-01T00:00:00Z"
_CORE_DATES = re.compile(rb"(<dcterms:(created|modified)[^>]*>)[^<]*(</dcterms:\2>)")


def normalize(data: bytes) -> bytes:
    """Rewrite a zip with fixed timestamps and permissions, in the original entry order."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                body = _CORE_DATES.sub(rb"\g<1>" + FIXED_ISO.encode() + rb"\g<3>", body)
            entry = zipfile.ZipInfo(info.filename, date_time=FIXED_DATE)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o600 << 16
            dst.writestr(entry, body)
    return out.getvalue()
