"""nanoGPT's train.py in small: module-level code, a `while True:` loop
counting `iter_num`, batches drawn with `torch.randint` from the global
generator, a checkpoint every `eval_interval` iterations holding
`'iter_num': iter_num`, and the script's own resume (`--init-from
resume`: it loads the checkpoint and continues at its `iter_num`). Under
`--detc-resume` with its own resume on, fast-forward starts at the
checkpoint's iteration and reaches the checkpoint's instance later; no
loop variable shows it (the loop is a `while`), the checkpoint's
`iter_num` does.

usage: own_resume_iters_train.py --out PATH [--max-iters N]
           [--init-from scratch|resume] [--crash-at N]"""
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--out", required=True)
parser.add_argument("--max-iters", type=int, default=30)
parser.add_argument("--eval-interval", type=int, default=5)
parser.add_argument("--init-from", default="scratch")
parser.add_argument("--crash-at", type=int, default=-1)
args = parser.parse_args()

torch.manual_seed(1337)
data = torch.randn(200, 6)


def get_batch():
    ix = torch.randint(len(data) - 4, (8,))
    return torch.stack([data[i:i + 4].flatten() for i in ix])


model = nn.Sequential(nn.Linear(24, 16), nn.GELU(), nn.Dropout(0.2),
                      nn.Linear(16, 1))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
iter_num = 0
if args.init_from == "resume":
    checkpoint = torch.load(args.out)
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    iter_num = checkpoint["iter_num"]

X = get_batch()
while True:
    if iter_num % args.eval_interval == 0 and iter_num > 0:
        checkpoint = {"model": model.state_dict(),
                      "optimizer": optimizer.state_dict(),
                      "iter_num": iter_num}
        torch.save(checkpoint, args.out)
    if iter_num == args.crash_at:
        raise SystemExit("crash at iteration %d" % iter_num)
    loss = model(X).pow(2).mean()
    X = get_batch()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    iter_num += 1
    if iter_num > args.max_iters:
        break
torch.save({"model": model.state_dict(), "iter_num": iter_num},
           args.out + ".final")
