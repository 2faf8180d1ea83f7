"""Invert as Pillow lines (`preparers.ops.image_invert`): ImageOps.invert on the colour channels, alpha kept."""

from __future__ import annotations

from preparers.teach import snippet


@snippet("image.invert")
def invert(img: str, path: str, box: list[int] | None = None) -> str:
    lines = ["from PIL import ImageOps",
             f"if {img}.mode == 'P':",
             f"    {img} = {img}.convert('RGBA')",
             f"if {img}.mode in ('RGBA', 'LA'):  # invert the colours, keep the transparency",
             f"    {img}_alpha = {img}.getchannel('A')",
             f"    {img}_base = {img}.convert('RGB' if {img}.mode == 'RGBA' else 'L')",
             "else:",
             f"    {img}_alpha = None",
             f"    {img}_base = {img} if {img}.mode in ('RGB', 'L') else {img}.convert('RGB')"]
    if box is None:
        lines.append(f"{img}_inv = ImageOps.invert({img}_base)")
    else:
        left, top, right, bottom = box
        lines += [f"{img}_inv = {img}_base.copy()",
                  f"{img}_inv.paste(ImageOps.invert({img}_base.crop(({left}, {top}, {right}, {bottom}))), "
                  f"({left}, {top}))"]
    lines += [f"if {img}_alpha is not None:",
              f"    {img}_inv = {img}_inv.convert('RGBA' if {img}.mode == 'RGBA' else 'LA')",
              f"    {img}_inv.putalpha({img}_alpha)",
              f"{img} = {img}_inv",
              f"{img}_changed = True"]
    return "\n".join(lines)
