import pytest

from tests.gatekit import gate_family
from tests.workflows.test_multi_common import covering
from workflows.multi.link_bookmark import WORKFLOW


@pytest.mark.parametrize("params", covering(WORKFLOW), ids=lambda p: "-".join(map(str, p.values())))
def test_link_bookmark_tasks_pass_the_gate(tmp_path, params):
    verdicts = gate_family(WORKFLOW, params, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2


@pytest.mark.parametrize("source", WORKFLOW.knobs["source"])
def test_the_address_comes_from_the_source_not_the_instruction(source):
    from urllib.parse import urlsplit

    from forge.dag import NodeContext
    from forge.llm import OfflineBackend

    out = WORKFLOW.run(NodeContext({"source": source, "place": "bar"}, 3, "multi.test", 0, OfflineBackend()))
    url = out["rubric"][0].args["url"]
    assert urlsplit(url).netloc not in out["instruction"]
    assert any(urlsplit(url).netloc.encode() in a.data for a in out["assets"]) or source == "docx"
