import pytest

from workflows.multi.link_bookmark import WORKFLOW


@pytest.mark.parametrize("source", WORKFLOW.knobs["source"])
def test_the_address_comes_from_the_source_not_the_instruction(source):
    from urllib.parse import urlsplit

    from kit.dag import NodeContext
    from kit.llm import OfflineBackend

    out = WORKFLOW.run(NodeContext({"source": source, "place": "bar"}, 3, "multi.test", 0, OfflineBackend()))
    url = out["rubric"][0].args["url"]
    assert urlsplit(url).netloc not in out["instruction"]
    assert any(urlsplit(url).netloc.encode() in a.data for a in out["assets"]) or source == "docx"
