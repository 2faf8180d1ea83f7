"""Train the reference student from scratch: a byte-level BPE tokenizer and a small GPT on teacher SFT rows.

    python benchmarks/real_student/train.py --rows data/train.jsonl --out /tmp/m1 --seed 1 --steps 1500
    python benchmarks/real_student/train.py --rows data/train.jsonl --out /tmp/m1 --minutes 1.5   # time-bound

Rows are `forge export trajectories [--teacher]` lines (chat `messages` with `shell` tool calls; .jsonl or
.jsonl.gz). The format is in model.py; the loss counts only the answer (commands, separators, `<eos>`).
`--observe-first` moves the first command's output into the prompt and drops that command, for rows whose user
message holds only the instruction (the first command then being the inspection that the offline prompt's
observation replaces).
`--init FILE.gguf` fine-tunes SmolLM2-135M-Instruct (pretrained.py) instead: no tokenizer is trained, the format is
SmolLM2's chat format, and `--lr` defaults to 1e-4.
Writes OUT/tokenizer.json (from scratch only), OUT/model.pt, OUT/config.json, OUT/log.jsonl. With `--steps` the run
is reproducible given `--seed` (deterministic algorithms where PyTorch has them); with `--minutes` the schedule follows
the clock.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from pathlib import Path

import pretrained
import torch
from model import GPT, PAD, SPECIALS, commands_of, encode_answer, encode_prompt, prompt_text, read_jsonl
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers


def load_rows(paths: list[str], observe_first: bool) -> list[tuple[str, list[str]]]:
    rows = []
    for path in paths:
        for row in read_jsonl(path):
            messages = row["messages"]
            prompt, (commands, outputs) = prompt_text(messages), commands_of(messages)
            if observe_first and commands and outputs:
                prompt, commands = f"{prompt}\n\n{outputs[0]}", commands[1:]
            if commands:
                rows.append((prompt, commands))
    return rows


def train_tokenizer(rows: list[tuple[str, list[str]]], vocab: int) -> Tokenizer:
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab, special_tokens=SPECIALS, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator((text for prompt, commands in rows for text in (prompt, *commands)), trainer)
    return tok


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", nargs="+", required=True, help="SFT rows JSONL file(s)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--minutes", type=float, help="train for this long instead of --steps")
    ap.add_argument("--max-minutes", type=float, help="with --steps: stop here even if steps remain (a safety)")
    ap.add_argument("--tokenizer", help="reuse this tokenizer.json instead of training one (same start for sets)")
    ap.add_argument("--tokenizer-only", action="store_true", help="train the tokenizer, save it, stop")
    ap.add_argument("--vocab", type=int, default=6144)
    ap.add_argument("--ctx", type=int, default=2048)
    ap.add_argument("--max-answer", type=int, default=768, help="answer tokens; longer rows are skipped")
    ap.add_argument("--layers", type=int, default=6)
    ap.add_argument("--d", type=int, default=384)
    ap.add_argument("--heads", type=int, default=6)
    ap.add_argument("--dropout", type=float, default=0.1, help="on the residual branches (few rows, many epochs)")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, help="peak learning rate (1e-3 from scratch, 1e-4 with --init)")
    ap.add_argument("--init", help="fine-tune this SmolLM2 GGUF file instead of training from scratch")
    ap.add_argument("--warmup", type=int, default=100)
    ap.add_argument("--observe-first", action="store_true")
    ap.add_argument("--log-every", type=int, default=100)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()
    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")  # before the first matmul: deterministic cuBLAS
    torch.manual_seed(args.seed)
    torch.use_deterministic_algorithms(True, warn_only=True)
    torch.backends.cuda.matmul.allow_tf32 = True
    dev, out = torch.device(args.device), Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    t0 = time.time()
    rows = load_rows(args.rows, args.observe_first)
    args.lr = args.lr or (1e-4 if args.init else 1e-3)
    if args.init:
        tok, base = pretrained.load(args.init)
        enc_prompt, enc_answer, pad = pretrained.encode_prompt, pretrained.encode_answer, pretrained.PAD
    else:
        tok = Tokenizer.from_file(args.tokenizer) if args.tokenizer else train_tokenizer(rows, args.vocab)
        enc_prompt, enc_answer, pad = encode_prompt, encode_answer, PAD
    if args.tokenizer_only and not args.init:
        tok.save(str(out / "tokenizer.json"))
        print(f"tokenizer of {tok.get_vocab_size()} tokens from {len(rows)} rows -> {out}")
        return
    assert args.init or [tok.token_to_id(s) for s in SPECIALS] == list(range(len(SPECIALS))), "not a train.py tokenizer"
    vocab = len(tok) if args.init else tok.get_vocab_size()
    max_prompt = args.ctx - args.max_answer
    data, skipped = [], 0
    for prompt, commands in rows:
        answer = enc_answer(tok, commands)
        if len(answer) > args.max_answer:
            skipped += 1
            continue
        data.append((enc_prompt(tok, prompt, max_prompt), answer))
    if not data:
        raise SystemExit("no usable rows")
    ids = torch.full((len(data), args.ctx + 1), pad, dtype=torch.long)
    labels = torch.full((len(data), args.ctx + 1), -100, dtype=torch.long)
    lengths, answers = torch.zeros(len(data), dtype=torch.long), torch.zeros(len(data), dtype=torch.long)
    for n, (p, a) in enumerate(data):
        ids[n, : len(p) + len(a)] = torch.tensor(p + a)
        labels[n, len(p): len(p) + len(a)] = torch.tensor(a)  # label of position i = token i (shifted below)
        lengths[n], answers[n] = len(p) + len(a), len(a)
    ids, labels = ids.to(dev), labels.to(dev)  # lengths stay on the CPU: no sync per step
    print(f"{len(rows)} rows, {skipped} skipped (answer > {args.max_answer} tokens), {len(data)} sequences, "
          f"mean {lengths.float().mean():.0f} tokens, vocab {vocab}, prep {time.time() - t0:.1f}s",
          flush=True)

    model = (base if args.init else GPT(vocab, args.ctx, args.layers, args.d, args.heads, args.dropout)).to(dev)
    decay = [p for p in model.parameters() if p.dim() > 1]
    rest = [p for p in model.parameters() if p.dim() <= 1]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": rest, "weight_decay": 0.0}],
                            lr=args.lr, betas=(0.9, 0.95), fused=dev.type == "cuda")
    print(f"{sum(p.numel() for p in model.parameters()) / 1e6:.1f}M parameters on {dev}", flush=True)
    gen = torch.Generator(device="cpu").manual_seed(args.seed)
    log, start, step, seen, loss = [], time.time(), 0, 0, torch.tensor(math.nan)
    budget = args.minutes * 60 if args.minutes else None
    while True:
        done = (time.time() - start) / budget if budget else (step / args.steps if args.steps > 0 else 1.0)
        if done >= 1 or (args.max_minutes and time.time() - start > args.max_minutes * 60):
            break
        lr = args.lr * min(1.0, (step + 1) / args.warmup) * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * done)))
        for group in opt.param_groups:
            group["lr"] = lr
        pick = torch.randint(len(data), (args.batch,), generator=gen)
        width = min(args.ctx, int(math.ceil(int(lengths[pick].max()) / 64) * 64))
        seen += int(answers[pick].sum())
        pick = pick.to(dev)
        x, y = ids[pick, :width], labels[pick, 1: width + 1]
        with torch.autocast(dev.type, dtype=torch.bfloat16, enabled=dev.type == "cuda"):
            if args.init:  # logits of the answer positions only: SmolLM2's 49k-token head over every position
                answer = y != -100  # took ~35 GB at batch 16 (three runs at once ran out of an H100's memory)
                logits, y = model.lm_head(model.model(input_ids=x).last_hidden_state[answer]), y[answer]
            else:
                logits = model(x)
        loss = torch.nn.functional.cross_entropy(logits.float().view(-1, logits.shape[-1]), y.reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        step += 1
        if step % args.log_every == 0 or step == 1:
            elapsed = time.time() - start
            log.append({"step": step, "loss": round(loss.item(), 4), "lr": lr, "seconds": round(elapsed, 1),
                        "answer_tokens_per_s": round(seen / elapsed)})
            print(json.dumps(log[-1]), flush=True)
    if dev.type == "cuda":
        torch.cuda.synchronize()
    elapsed = time.time() - start
    if args.init:  # bf16 halves the file; generation runs under bf16 autocast anyway
        torch.save({k: v.to(torch.bfloat16) for k, v in model.state_dict().items()}, out / "model.pt")
    else:
        tok.save(str(out / "tokenizer.json"))
        torch.save(model.state_dict(), out / "model.pt")
    keys = ("ctx", "layers", "d", "heads", "dropout", "seed", "observe_first", "lr", "batch")
    config = {k: getattr(args, k) for k in keys}
    config.update(init=str(Path(args.init).resolve()) if args.init else None, vocab=vocab, max_prompt=max_prompt,
                  max_answer=args.max_answer, steps=step,
                  rows=len(rows), sequences=len(data), skipped=skipped, train_seconds=round(elapsed, 1),
                  final_loss=round(loss.item(), 4), sources=args.rows,
                  tokenizer=args.init or args.tokenizer or "trained here")
    (out / "config.json").write_text(json.dumps(config, indent=1))
    (out / "log.jsonl").write_text("".join(json.dumps(r) + "\n" for r in log))
    print(f"done: {step} steps in {elapsed:.1f}s, loss {loss.item():.4f} -> {out}", flush=True)


if __name__ == "__main__":
    main()
