"""nanoGPT's training loop over a count: the next batch fetched at the
end of each step (`X, Y = get_batch('train')`, offsets drawn from torch's
generator), the same `get_batch` drawn from in `estimate_loss`, which
fast-forward skips, and a checkpoint only when the validation loss
improves. The loop is a counted step's region (lit
analysis/idioms/counted_step_loop.py): its draws are reported and left on
torch's generator, which the checkpoint saves. Keyed (as a first version
of that region did), they took a sequential stream that fast-forward
advanced differently, and 2 or 3 of 5 resumes of this script were not
bit-identical, with exit 0.

usage: counted_prefetch_train.py [--iters N] --out FILE
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

parser = argparse.ArgumentParser()
parser.add_argument('--iters', type=int, default=40)
parser.add_argument('--out', required=True)
args = parser.parse_args()

torch.manual_seed(1337)
data = torch.randn(400, 6)
labels = (data[:, :3].sum(1) > 0).long()
model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 2))
optimizer = torch.optim.AdamW(model.parameters(), lr=0.05)
best_val_loss = 1e9


def get_batch(split):
    ix = torch.randint(len(data), (8,))
    return data[ix], labels[ix]


@torch.no_grad()
def estimate_loss():
    model.eval()
    X, Y = get_batch('val')
    loss = F.cross_entropy(model(X), Y)
    model.train()
    return loss


X, Y = get_batch('train')
for iter_num in range(args.iters + 1):
    if iter_num % 5 == 0:
        val = estimate_loss()
        if val < best_val_loss and iter_num > 0:
            best_val_loss = val
            torch.save({'model': model.state_dict(), 'iter_num': iter_num},
                       args.out)
    loss = F.cross_entropy(model(X), Y)
    X, Y = get_batch('train')
    loss.backward()
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
