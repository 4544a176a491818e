"""Training in the shape of salesforce/awd-lstm-lm's main.py: module-level
globals; `model_save(fn)` writes the model, the criterion and the
optimizer, whole, as a list into a file it opens (`with open(fn, 'wb') as
f: torch.save([model, criterion, optimizer], f)`), called when the
validation loss beats the stored one; once the loss stops improving the
script switches from SGD to ASGD (`optimizer = torch.optim.ASGD(...)`),
and from then on validates with the averaged weights (`optimizer.state[p]
['ax']`) and saves behind that test.

Resuming failed: no sidecar (the save writes into an open file, the
checkpoint a list display); after the switch, the checkpoint's ASGD
stepped its unpickled copies of the parameters; and the restored `tmp`
was keyed by copies of the parameters (KeyError).

usage: open_file_helper_train.py [--epochs N] --out FILE"""
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument('--epochs', type=int, default=10)
parser.add_argument('--lr', type=float, default=0.5)
parser.add_argument('--nonmono', type=int, default=1)
parser.add_argument('--out', required=True)
args = parser.parse_args()

torch.manual_seed(5)
train_data = torch.randn(96, 6)
train_target = (train_data[:, 0] > 0).long()
val_data = torch.randn(32, 6)
val_target = (val_data[:, 0] > 0).long()
model = nn.Sequential(nn.Linear(6, 24), nn.Tanh(), nn.Dropout(0.4),
                      nn.Linear(24, 2))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=args.lr,
                            weight_decay=1e-4)


def model_save(fn):
    with open(fn, 'wb') as f:
        torch.save([model, criterion, optimizer], f)


def train():
    model.train()
    for i in range(0, train_data.size(0), 8):
        optimizer.zero_grad()
        loss = criterion(model(train_data[i:i + 8]), train_target[i:i + 8])
        loss.backward()
        optimizer.step()


def evaluate():
    model.eval()
    with torch.no_grad():
        return criterion(model(val_data), val_target).item()


stored_loss = 100000000
best_val_loss = []
for epoch in range(1, args.epochs + 1):
    train()
    if 't0' in optimizer.param_groups[0]:
        tmp = {}
        for prm in model.parameters():
            tmp[prm] = prm.data.clone()
            prm.data = optimizer.state[prm]['ax'].clone()
        val_loss2 = evaluate()
        if val_loss2 < stored_loss:
            model_save(args.out)
            stored_loss = val_loss2
        for prm in model.parameters():
            prm.data = tmp[prm].clone()
    else:
        val_loss = evaluate()
        if val_loss < stored_loss:
            model_save(args.out)
            stored_loss = val_loss
        if 't0' not in optimizer.param_groups[0] and (
                len(best_val_loss) > args.nonmono and
                val_loss > min(best_val_loss[:-args.nonmono])):
            print('Switching to ASGD')
            optimizer = torch.optim.ASGD(model.parameters(), lr=args.lr,
                                         t0=0, lambd=0., weight_decay=1e-4)
        best_val_loss.append(val_loss)
    print('| end of epoch {:3d} | stored loss {:5.4f}'.format(epoch,
                                                            stored_loss))
