from workflows.multi.sheet_doc_table import WORKFLOW


def test_rows_are_not_stated_in_the_instruction():
    from kit.dag import NodeContext
    from kit.llm import OfflineBackend

    params = {"columns": "subset", "rows": "category", "order": "asc"}
    out = WORKFLOW.run(NodeContext(params, 4, "multi.test", 0, OfflineBackend()))
    rows = out["rubric"][0].args["rows"]
    assert rows and not any(str(row[0]) in out["instruction"] for row in rows)
