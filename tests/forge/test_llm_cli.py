"""`forge generate` with a model: flags / config file / environment, dry run, spend summary, budget stop,
against a real loopback chat-completions server."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forge.cli import app
from forge.generate import Selection, plan_for
from forge.llm.config import load_config
from forge.llm.prices import Price, find_price
from kit.llm import LLMConfigError
from kit.taxonomy import load_taxonomy
from tests.llmserver import LLMServer, answering, recorded_answers

runner = CliRunner()
SKILL = "calc.sort.text_asc"


@pytest.fixture(scope="module")
def answers():
    taxonomy = load_taxonomy()
    return recorded_answers(taxonomy, plan_for(taxonomy, Selection(skills=(SKILL,)), 3, 2))  # as the CLI plans


def write_config(tmp_path: Path, server: LLMServer) -> Path:
    path = tmp_path / "forge.toml"
    path.write_text(f'[llm]\nbackend = "openai"\nmodel = "local-model"\nbase_url = "{server.base_url}"\n'
                    f'backoff = 0.01\n\n[prices."local-model"]\ninput_per_mtok = 100.0\noutput_per_mtok = 200.0\n')
    return path


def generate(tmp_path: Path, config: Path, *args: str):
    return runner.invoke(app, ["generate", "--skill", SKILL, "-n", "3", "--seed", "2", "--real-apps", "off",
                               "--out", str(tmp_path / "out"), "--db", str(tmp_path / "c.db"),
                               "--config", str(config), *args])


def test_dry_run_estimates_per_node_and_spends_nothing(answers, tmp_path):
    with LLMServer(answering(answers)) as server:
        result = generate(tmp_path, write_config(tmp_path, server), "--dry-run")
    assert result.exit_code == 0, result.output
    assert server.served.requests == 0 and not (tmp_path / "out").exists()
    assert "dry run: 3 tasks with local-model (nothing spent)" in result.output
    lines = {line.split()[1]: line.split() for line in result.output.splitlines() if line.startswith("│ ")}
    assert lines["content"][3] == "3" and lines["instruction"][3] == "3"  # calls per node
    assert "tokens per task" in result.output


def test_generate_with_a_model_prints_the_spend_and_a_rerun_is_free(answers, tmp_path):
    with LLMServer(answering(answers)) as server:
        config = write_config(tmp_path, server)
        first = generate(tmp_path, config)
        assert first.exit_code == 0, first.output
        assert "LLM spend of run 1" in first.output and "spent per accepted task" in first.output
        assert server.served.requests == 6
        # Same catalog, another folder: as if the packages of a killed run were lost; the answers are not.
        again = runner.invoke(app, ["generate", "--skill", SKILL, "-n", "3", "--seed", "2", "--real-apps", "off",
                                    "--out", str(tmp_path / "elsewhere"), "--db", str(tmp_path / "c.db"),
                                    "--config", str(config)])
    assert again.exit_code == 0, again.output
    assert server.served.requests == 6  # every answer came from the cache
    spent = sqlite3.connect(tmp_path / "c.db").execute(
        "SELECT run_id, sum(cached), sum(CASE WHEN cached THEN 0 ELSE cost_usd END) FROM llm_calls GROUP BY run_id"
    ).fetchall()
    assert spent[0][1] == 0 and spent[0][2] > 0
    assert spent[1][1:] == (6, 0)


def test_max_cost_stops_cleanly_and_says_how_to_continue(answers, tmp_path):
    with LLMServer(answering(answers)) as server:
        result = generate(tmp_path, write_config(tmp_path, server), "--max-cost", "0.01", "--concurrency", "1")
        assert server.served.requests == 2  # one task in flight at a time: that one, then the cap
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "Stopped early: --max-cost $0.01 reached" in text
    assert "To continue, rerun the same command with a higher cap" in text
    assert sqlite3.connect(tmp_path / "c.db").execute("SELECT status FROM runs").fetchall() == [("stopped",)]


def test_max_cost_without_a_price_is_refused_before_spending(tmp_path):
    result = runner.invoke(app, ["generate", "--skill", SKILL, "-n", "1", "--out", str(tmp_path / "o"),
                                 "--db", str(tmp_path / "c.db"), "--llm", "openai", "--model", "my-local-model",
                                 "--base-url", "http://127.0.0.1:9/v1", "--max-cost", "1"])
    assert result.exit_code == 1
    assert result.output.startswith("Error: --max-cost needs a price for model 'my-local-model': add "
                                    "[prices.\"my-local-model\"]")


def test_settings_precedence_and_errors_name_the_file_and_field(tmp_path):
    path = tmp_path / "f.toml"
    path.write_text('[llm]\nbackend = "openai"\nmodel = "file-model"\ntemperature = 0.2\n'
                    '[prices."file-model"]\ninput_per_mtok = 1\noutput_per_mtok = 3\n')
    config = load_config(path, {"temperature": 0.9, "model": None}, environ={"FORGE_LLM_BASE_URL": "http://x/v1"})
    assert (config.model, config.temperature, config.base_url) == ("file-model", 0.9, "http://x/v1")
    assert find_price("file-model-2025-01-01", config.prices) == Price(1, 3)
    assert find_price("gpt-4o-mini-2024-07-18") == Price(0.15, 0.60)
    assert load_config(None, {}, environ={}).backend == "offline"
    path.write_text('[llm]\ntemperature = "hot"\n')
    with pytest.raises(LLMConfigError, match=rf"LLM settings \({path}\): field temperature='hot'"):
        load_config(path, {}, environ={})
    path.write_text('[llm\n')
    with pytest.raises(LLMConfigError, match=rf"config file {path}: not valid TOML"):
        load_config(path, {}, environ={})
    path.write_text('[prices.m]\ninput_per_mtok = -1\noutput_per_mtok = 1\n')
    with pytest.raises(LLMConfigError, match=r"\[prices.'m'\] field input_per_mtok=-1"):
        load_config(path, {}, environ={})
    with pytest.raises(LLMConfigError, match="--llm openai needs a model"):
        load_config(None, {"backend": "openai"}, environ={})
    with pytest.raises(LLMConfigError, match="set the environment variable NO_SUCH_KEY"):
        load_config(None, {"backend": "openai", "model": "m", "api_key_env": "NO_SUCH_KEY"}, environ={}).api_key()


def test_the_dry_run_price_hint_is_printed_as_text_not_markup(answers, tmp_path):
    config = tmp_path / "forge.toml"
    with LLMServer(answering(answers)) as server:
        config.write_text(f'[llm]\nbackend = "openai"\nmodel = "unpriced-model"\nbase_url = "{server.base_url}"\n')
        result = generate(tmp_path, config, "--dry-run")
    assert result.exit_code == 0, result.output
    assert 'add [prices."unpriced-model"] to the config file' in " ".join(result.output.split())


def test_with_defaults_a_llama_cpp_server_gives_no_infra_fail_and_the_run_says_which_form_it_used(answers, tmp_path):
    from tests.llmserver import Server

    with LLMServer(answering(answers), Server(json_schema=False, grammar_limited=True)) as server:
        result = generate(tmp_path, write_config(tmp_path, server))
    assert result.exit_code == 0, result.output
    statuses = sqlite3.connect(tmp_path / "c.db").execute("SELECT DISTINCT status FROM tasks").fetchall()
    assert statuses == [("accepted",)]
    assert server.served.statuses == {200: 6} and server.served.probes == 2
    text = " ".join(result.output.split())
    assert "LLM endpoint: structured output: json_object_schema (json_schema: rejected, HTTP 500:" in text
