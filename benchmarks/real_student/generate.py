"""Write answers for a prompts file with a model from train.py: batched, KV-cached generation on the GPU.

    python benchmarks/real_student/generate.py --model /tmp/m1 --prompts data/prompts.jsonl --out answers.jsonl

Prompts are `forge student prompts` lines (`task_id`, `messages`; .jsonl or .jsonl.gz); the prompt is their
user message(s), as in training. Greedy unless `--temperature` > 0 (then sampled with `--seed`). Each output line is
`{"task_id": ..., "commands": [...]}`, the input's order, ready for `forge student answers`. An answer cut off by
the length limit keeps the commands it has (the last one may be incomplete); an empty answer is `[]`.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import pretrained
import torch
from model import EOS, GPT, PAD, decode_answer, encode_prompt, prompt_text, read_jsonl
from tokenizers import Tokenizer


@torch.no_grad()
def generate(model: GPT, prompts: list[list[int]], max_new: int, temperature: float = 0.0,
             gen: torch.Generator | None = None) -> list[list[int]]:
    """New tokens for one batch of encoded prompts (left-padded here; positions count from each prompt's start).
    On a GPU, call it under bf16 autocast as in training: the cache is bf16 there."""
    dev, b, p = model.head.weight.device, len(prompts), max(map(len, prompts))
    dtype = torch.bfloat16 if dev.type == "cuda" else torch.float32
    max_new = min(max_new, model.ctx - p)
    x = torch.full((b, p), PAD, dtype=torch.long)
    for n, ids in enumerate(prompts):
        x[n, p - len(ids):] = torch.tensor(ids)
    x = x.to(dev)
    valid = x != PAD
    lengths = valid.sum(1)
    keys = torch.ones(b, p + max_new, dtype=torch.bool, device=dev)
    keys[:, :p] = valid
    first = model.blocks[0]
    shape = (b, first.heads, p + max_new, model.head.weight.shape[1] // first.heads)
    caches = [(torch.zeros(shape, dtype=dtype, device=dev), torch.zeros(shape, dtype=dtype, device=dev))
              for _ in model.blocks]
    eye = torch.eye(p, dtype=torch.bool, device=dev)  # a pad query sees itself: no row is all masked
    mask = (torch.ones(p, p, dtype=torch.bool, device=dev).tril() & valid[:, None, None, :]) | eye
    logits = model(x, (valid.cumsum(1) - 1).clamp(min=0), mask, caches, 0, last=True)[:, -1]
    out, done = [], torch.zeros(b, dtype=torch.bool, device=dev)
    for t in range(max_new):
        if temperature > 0:
            probs = torch.softmax(logits.float() / temperature, -1)
            nxt = torch.multinomial(probs, 1, generator=gen)[:, 0]
        else:
            nxt = logits.argmax(-1)
        out.append(nxt)
        done |= nxt == EOS
        if t % 16 == 15 and bool(done.all()):  # check (a GPU sync) every 16 tokens only
            break
        logits = model(nxt[:, None], (lengths + t)[:, None], keys[:, None, None, : p + t + 1], caches, p + t)[:, -1]
    return torch.stack(out, 1).tolist()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", required=True, help="folder written by train.py")
    ap.add_argument("--prompts", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--max-new", type=int, help="answer tokens at most (default: the training limit)")
    ap.add_argument("--temperature", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()
    folder, dev = Path(args.model), torch.device(args.device)
    config = json.loads((folder / "config.json").read_text())
    if config.get("init"):  # fine-tuned SmolLM2 (pretrained.py): its tokenizer, its format, HF generation
        tok, model = pretrained.load(config["init"])
        enc_prompt, decode, eos = pretrained.encode_prompt, pretrained.decode_answer, pretrained.END
    else:
        tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
        model = GPT(config["vocab"], config["ctx"], config["layers"], config["d"], config["heads"])
        enc_prompt, decode, eos = encode_prompt, decode_answer, EOS
    model.load_state_dict({k: v.float() for k, v in torch.load(folder / "model.pt", map_location="cpu").items()})
    model = model.to(dev).eval()
    gen = torch.Generator(device=dev).manual_seed(args.seed) if args.temperature > 0 else None

    tasks = read_jsonl(args.prompts)
    encoded = [enc_prompt(tok, prompt_text(t["messages"]), config["max_prompt"]) for t in tasks]
    order = sorted(range(len(tasks)), key=lambda n: -len(encoded[n]))  # similar lengths share a batch
    answers: list[list[int]] = [[] for _ in tasks]
    start = time.time()
    for first in range(0, len(order), args.batch):
        batch = order[first: first + args.batch]
        with torch.autocast(dev.type, dtype=torch.bfloat16, enabled=dev.type == "cuda"):  # as in training
            if config.get("init"):
                new = pretrained.generate(model, [encoded[n] for n in batch], args.max_new or config["max_answer"])
            else:
                new = generate(model, [encoded[n] for n in batch], args.max_new or config["max_answer"],
                               args.temperature, gen)
        for n, ids in zip(batch, new, strict=True):
            answers[n] = ids
    seconds = time.time() - start
    unfinished = empty = tokens = 0
    with Path(args.out).open("w", encoding="utf-8") as sink:
        for task, ids in zip(tasks, answers, strict=True):
            commands, finished = decode(tok, ids)
            unfinished, empty = unfinished + (not finished), empty + (not commands)
            tokens += ids.index(eos) + 1 if finished else len(ids)
            sink.write(json.dumps({"task_id": task["task_id"], "commands": commands}, ensure_ascii=False) + "\n")
    print(f"{len(tasks)} answers in {seconds:.1f}s ({tokens} answer tokens), {unfinished} cut off by the length "
          f"limit, {empty} empty -> {args.out}", flush=True)


if __name__ == "__main__":
    main()
