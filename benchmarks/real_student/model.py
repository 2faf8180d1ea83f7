"""The reference student's pieces shared by train.py and generate.py: the sequence format and a small GPT.

Sequence: `<bos> prompt <sep> command 1 <sep> command 2 ... <eos>`. The prompt is the text of the user
message(s) before the first assistant turn (instruction + observation of the home, as `forge student prompts`
writes it); the system prompt is the same for every task and is left out. Tool outputs are dropped: the offline
batch path (`forge student answers`) runs the commands blind, so a model trained to read outputs between its
commands would be shown at test time a context it never trained on.
"""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

SPECIALS = ["<pad>", "<bos>", "<sep>", "<eos>"]
PAD, BOS, SEP, EOS = range(4)


def read_jsonl(path: str) -> list[dict]:
    """The objects of a JSON Lines file, gzipped when its name ends in .gz (carried data is limited to 64 MiB)."""
    raw = Path(path).read_bytes()
    text = (gzip.decompress(raw) if path.endswith(".gz") else raw).decode("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def text_of(message: dict) -> str:
    content = message.get("content") or ""
    if isinstance(content, list):  # content parts
        content = "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return str(content)


def prompt_text(messages: list[dict]) -> str:
    """The user message(s) before the first assistant turn, joined by a blank line."""
    users = []
    for message in messages:
        if message.get("role") == "assistant":
            break
        if message.get("role") == "user":
            users.append(text_of(message))
    return "\n\n".join(users)


def commands_of(messages: list[dict]) -> tuple[list[str], list[str]]:
    """(commands of the `shell` tool calls in order, the tool outputs in order)."""
    commands, outputs = [], []
    for message in messages:
        if message.get("role") == "tool":
            outputs.append(text_of(message))
        for call in message.get("tool_calls") or []:
            try:
                args = json.loads(call.get("function", {}).get("arguments") or "{}", strict=False)
            except json.JSONDecodeError:
                continue
            command = args.get("command") if isinstance(args, dict) else None
            if isinstance(command, str) and command.strip():
                commands.append(command)
    return commands, outputs


def encode_prompt(tok, prompt: str, max_prompt: int) -> list[int]:
    """`<bos> prompt <sep>`, the prompt cut to its first tokens (the instruction comes first) when too long."""
    ids = tok.encode(prompt).ids[: max_prompt - 2]
    return [BOS, *ids, SEP]


def encode_answer(tok, commands: list[str]) -> list[int]:
    out: list[int] = []
    for number, command in enumerate(commands):
        if number:
            out.append(SEP)
        out += tok.encode(command).ids
    return [*out, EOS]


def decode_answer(tok, ids: list[int], sep: int = SEP, eos: int = EOS, skip: frozenset[int] = frozenset(range(4))
                  ) -> tuple[list[str], bool]:
    """(commands, finished): split at `sep`, up to `eos`, ids in `skip` dropped; finished is False when no `eos`
    came. The defaults are this model's specials; pretrained.py passes SmolLM2's."""
    finished = eos in ids
    if finished:
        ids = ids[: ids.index(eos)]
    commands, piece = [], []
    for i in [*ids, sep]:
        if i == sep:
            text = tok.decode(piece, skip_special_tokens=True).strip()
            if text:
                commands.append(text)
            piece = []
        elif i not in skip:
            piece.append(i)
    return commands, finished


class Block(nn.Module):
    def __init__(self, d: int, heads: int, dropout: float = 0.0):
        super().__init__()
        self.heads, self.dropout = heads, dropout
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, mask=None, cache=None, start=0):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        if cache is not None:  # generation: write this step's keys/values, attend to everything so far
            cache[0][:, :, start:start + t] = k
            cache[1][:, :, start:start + t] = v
            k, v = cache[0][:, :, :start + t], cache[1][:, :, :start + t]
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=mask is None)
        x = x + F.dropout(self.proj(y.transpose(1, 2).reshape(b, t, d)), self.dropout, self.training)
        return x + F.dropout(self.mlp(self.ln2(x)), self.dropout, self.training)


class GPT(nn.Module):
    def __init__(self, vocab: int, ctx: int, layers: int = 6, d: int = 384, heads: int = 6, dropout: float = 0.0):
        super().__init__()
        self.ctx = ctx
        self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(ctx, d)
        self.blocks = nn.ModuleList(Block(d, heads, dropout) for _ in range(layers))
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)
        self.head.weight = self.tok.weight  # tied
        for name, p in self.named_parameters():
            if p.dim() > 1:
                std = 0.02 / math.sqrt(2 * layers) if name.endswith(("proj.weight", "mlp.2.weight")) else 0.02
                nn.init.normal_(p, 0.0, std)
            elif name.endswith("bias"):
                nn.init.zeros_(p)

    def forward(self, idx, pos=None, mask=None, caches=None, start=0, last=False):
        if pos is None:
            pos = torch.arange(idx.shape[1], device=idx.device)
        x = self.tok(idx) + self.pos(pos)
        for number, block in enumerate(self.blocks):
            x = block(x, mask, None if caches is None else caches[number], start)
        return self.head(self.ln(x[:, -1:] if last else x))  # last: the next token's logits only
