"""Training in the shape of pytorch/examples' word_language_model and
salesforce/awd-lstm-lm: module-level globals, a hand-written SGD update
(`p.data.add_(p.grad, alpha=-lr)`), and the best model written whole into
an open file — `with open(args.out, 'wb') as f: torch.save(model, f)` —
when the validation loss improves; otherwise the learning rate is
annealed (`lr /= 4.0`). At the end the best model is read back from the
open file, its classes allowed by name as the example does under torch
>= 2.6 (`torch.serialization.safe_globals([..., nn.Dropout])`), and
evaluated. Odd epochs save in a `with`, even ones through
`f = open(args.out, 'wb')` ... `f.close()`.

Resuming failed: the checkpoint had no sidecar (detc wrote none into an
open file), fast-forward's `open(..., 'wb')` would truncate the
checkpoint it resumes from (the session-75 first binary still did, for
`f = open(...)`: "restoring it raised EOFError"), and the final load refused the keyed dropout
layer the model was pickled with.

usage: open_file_checkpoint_train.py [--epochs N] --out FILE"""
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument('--epochs', type=int, default=10)
parser.add_argument('--lr', type=float, default=0.03)
parser.add_argument('--bptt', type=int, default=10)
parser.add_argument('--out', required=True)
args = parser.parse_args()

torch.manual_seed(3)
train_data = torch.randn(96, 6)
train_target = train_data.sum(1, keepdim=True).tanh()
val_data = torch.randn(32, 6)
val_target = val_data.sum(1, keepdim=True).tanh()
model = nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Dropout(0.3),
                      nn.Linear(32, 1))
criterion = nn.MSELoss()
lr = args.lr
best_val_loss = None


def train():
    model.train()
    for i in range(0, train_data.size(0), args.bptt):
        data = train_data[i:i + args.bptt]
        target = train_target[i:i + args.bptt]
        model.zero_grad()
        loss = criterion(model(data), target)
        loss.backward()
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)


def evaluate(data, target):
    model.eval()
    with torch.no_grad():
        return criterion(model(data), target).item()


for epoch in range(1, args.epochs + 1):
    train()
    val_loss = evaluate(val_data, val_target)
    print('| end of epoch {:3d} | valid loss {:5.4f}'.format(epoch, val_loss))
    if not best_val_loss or val_loss < best_val_loss:
        if epoch % 2:
            with open(args.out, 'wb') as f:
                torch.save(model, f)
        else:
            f = open(args.out, 'wb')
            torch.save(model, f)
            f.close()
        best_val_loss = val_loss
    else:
        lr /= 4.0

with open(args.out, 'rb') as f:
    if hasattr(torch.serialization, 'safe_globals'):  # torch >= 2.4
        with torch.serialization.safe_globals([nn.Sequential, nn.Linear,
                                               nn.Tanh, nn.Dropout]):
            model = torch.load(f)
    else:
        model = torch.load(f)
print('| test loss {:5.4f}'.format(evaluate(val_data, val_target)))
