"""Training in the shape of karpathy/nanoGPT's train.py: batches drawn at
random from a tensor (`get_batch`, no DataLoader), a `while True` loop
over iterations, the optimizer from the model's `configure_optimizers`,
every `eval_interval` iterations `estimate_loss()` (the model in eval
mode, a dict of mean losses returned, train mode again), a checkpoint of
`raw_model` only when the validation loss improves, and an attribute set
on the model each iteration (`require_backward_grad_sync`).

Whether the checkpoint is written depends on the losses, which only the
training decides: the run logs those decisions and fast-forward takes
them back. `estimate_loss` still runs in fast-forward (the model's mode is
needed), and returns None there without building its dict. The resume
crashed with the session-58 binary ("cannot access local variable
'logits'": fast-forward re-evaluated the loss test), and after the
decisions were logged ("... 'out'": the return read the skipped dict).

usage: eval_every_train.py [--iters N] --out FILE"""
import argparse
import time

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
train_data, val_data = (data[:320], labels[:320]), (data[320:], labels[320:])
eval_interval = 5
eval_iters = 2
best_val_loss = 1e9


def get_batch(split):
    x, y = train_data if split == 'train' else val_data
    ix = torch.randint(len(x), (8,))
    return x[ix], y[ix]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 16)
        self.fc2 = nn.Linear(16, 2)

    def forward(self, x, y):
        h = F.relu(self.fc1(x))
        # nanoGPT's attention dropout reads the mode itself
        h = F.dropout(h, p=0.2 if self.training else 0.0)
        logits = self.fc2(h)
        return logits, F.cross_entropy(logits, y)

    def configure_optimizers(self, lr):
        decay = [p for p in self.parameters() if p.dim() >= 2]
        no_decay = [p for p in self.parameters() if p.dim() < 2]
        return torch.optim.AdamW([{'params': decay, 'weight_decay': 0.1},
                                  {'params': no_decay, 'weight_decay': 0.0}],
                                 lr=lr)


model = Net()
raw_model = model
optimizer = model.configure_optimizers(0.05)
scaler = torch.cuda.amp.GradScaler(enabled=False)


@torch.no_grad()
def estimate_loss():
    out = {}
    model.eval()
    for split in ['train', 'val']:
        losses = torch.zeros(eval_iters)
        for k in range(eval_iters):
            X, Y = get_batch(split)
            _, loss = model(X, Y)
            losses[k] = loss.item()
        out[split] = losses.mean()
    model.train()
    return out


iter_num = 0
X, Y = get_batch('train')
while True:
    if iter_num % eval_interval == 0:
        losses = estimate_loss()
        print(f"step {iter_num}: val loss {losses['val']:.4f}")
        if losses['val'] < best_val_loss:
            best_val_loss = losses['val']
            if iter_num > 0:
                checkpoint = {
                    'model': raw_model.state_dict(),
                    'optimizer': optimizer.state_dict(),
                    'iter_num': iter_num,
                    'best_val_loss': best_val_loss,
                }
                torch.save(checkpoint, args.out)
    model.require_backward_grad_sync = iter_num % 2 == 0
    logits, loss = model(X, Y)
    X, Y = get_batch('train')
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad(set_to_none=True)
    time.sleep(0.01)  # so that a kill lands inside the loop
    iter_num += 1
    if iter_num > args.iters:
        break
