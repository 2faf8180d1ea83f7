"""The group-by summary op as openpyxl lines (preparers/ops/xlsx_group.py): read the table's rows, collect each
category's numbers, and write one row per category with its aggregate on the summary sheet."""

from __future__ import annotations

from preparers.teach import snippet

_AGGREGATE = {"SUM": "round(sum(nums), 9)", "AVERAGE": "round(statistics.fmean(nums), 2)", "COUNT": "len(nums)",
              "MAX": "max(nums)", "MIN": "min(nums)"}


@snippet("xlsx.group_summary")
def group_summary(wb: str, path: str, sheet: str, group: str, value: str | None, function: str, dest_sheet: str,
                  headers: list[str], anchor: str = "A1", order: str = "sorted", drop_last: bool = False,
                  header_row: bool = True) -> str:
    number = f"row[ci({value!r}) - 1]" if value else "1"
    lines = [f"src = {wb}[{sheet!r}]",
             "import statistics",
             "from openpyxl.utils import column_index_from_string as ci, coordinate_to_tuple",
             "groups = {}",
             "for row in src.iter_rows(min_row=2, values_only=True):",
             f"    name = row[ci({group!r}) - 1]",
             "    if name is None or str(name).strip() == '':",
             "        continue",
             f"    number = {number}",
             "    groups.setdefault(str(name), [])",
             "    if isinstance(number, (int, float)) and not isinstance(number, bool):",
             "        groups[str(name)].append(float(number))",
             f"names = {'sorted(groups)' if order == 'sorted' else 'list(groups)'}"]
    if drop_last:  # a near-miss: the last category left out
        lines.append("names = names[:-1]")
    lines += [f"name = {dest_sheet!r}",
              f"dest = {wb}[name] if name in {wb}.sheetnames else {wb}.create_sheet(name)",
              f"r0, c0 = coordinate_to_tuple({anchor!r})",
              f"lines = {[list(headers)]!r}" if header_row else "lines = []"]
    lines += ["for name in names:",
              "    nums = groups[name]",
              f"    lines.append([name, {_AGGREGATE[function]}])",
              "for i, line in enumerate(lines):",
              "    for j, item in enumerate(line):",
              "        dest.cell(r0 + i, c0 + j).value = item"]
    return "\n".join(lines)
