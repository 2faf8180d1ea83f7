"""The JPEG-within-a-budget export as Pillow lines (`preparers.ops.image_filesize`): try qualities from the top
until the file fits."""

from __future__ import annotations

from preparers.teach import snippet


@snippet("image.export_jpeg_within")
def export_jpeg_within(img: str, path: str, dest: str, max_bytes: int, quality: int | None = None) -> str:
    lines = ["import io",
             f"rgb = {img}.convert('RGB')",
             "def jpeg(q):",
             "    out = io.BytesIO()",
             "    rgb.save(out, 'JPEG', quality=q)",
             "    return out.getvalue()"]
    if quality is not None:
        lines.append(f"data = jpeg({quality})")
    else:
        lines += ["for q in range(95, 4, -1):  # the best quality that still fits",
                  "    data = jpeg(q)",
                  f"    if len(data) <= {max_bytes}:",
                  "        break",
                  "print('quality', q, len(data), 'bytes')"]
    lines += [f"open({dest!r}, 'wb').write(data)",
              f"{img}_changed = False  # Export As leaves the original file as it is"]
    return "\n".join(lines)
