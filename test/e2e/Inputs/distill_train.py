"""RepDistiller's shape (train_student.py with --distill crd): a frozen
teacher, a student, a setup forward on random data that sizes the
distillation head, a contrastive loss whose constructor builds a memory
bank (a buffer its forward updates in place, with momentum), a validation
pass after every epoch (and one of the teacher before the loop), a save of
the best model under `if`, a save every epoch, and a final save after the
loop. The user's checkpoints hold the student only.

The session-63 first binary wrote no sidecar for the per-epoch saves:
the memory bank is `self.memory.bank` of the loss's constructor, which no
variable at the checkpoint was known to hold (the script's `criterion`
is). Then fast-forward skips the epoch's training and validation whole
(the sidecar restores the loaders they advance), and the resume stopped
at the position check of the validation loader; so did a resume from the
final save, after which no loader is used again.

usage: distill_train.py --out FILE [--epochs N] [--crash-after EPOCH]
"""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class Pairs(Dataset):
    """Features, a label and the example's index (the memory bank's row)."""

    def __init__(self, n, dim, seed, target_transform=None):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randn(n, dim, generator=g)
        self.y = torch.randint(0, 3, (n,), generator=g)
        self.target_transform = target_transform

    def __len__(self):
        return len(self.x)

    def __getitem__(self, index):
        target = int(self.y[index])
        if self.target_transform is not None:
            target = self.target_transform(target)
        return self.x[index], target, index


class Net(nn.Module):
    def __init__(self, dim, width):
        super().__init__()
        self.body = nn.Linear(dim, width)
        self.head = nn.Linear(width, 3)
        self.drop = nn.Dropout(0.2)

    def forward(self, x):
        feat = F.relu(self.body(x))
        return feat, self.head(self.drop(feat))


class Memory(nn.Module):
    def __init__(self, n, dim, momentum):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("bank", torch.rand(n, dim) - 0.5)

    def forward(self, f, idx):
        out = f @ self.bank.clone().t()
        with torch.no_grad():
            self.bank[idx] = self.bank[idx] * self.momentum + \
                f.detach() * (1 - self.momentum)
        return out


class ContrastLoss(nn.Module):
    def __init__(self, opt):
        super().__init__()
        self.embed = nn.Linear(opt.s_dim, opt.feat_dim)
        self.memory = Memory(opt.n_data, opt.feat_dim, 0.5)

    def forward(self, f_s, idx):
        e = F.normalize(self.embed(f_s), dim=1)
        logits = self.memory(e, idx)
        return F.cross_entropy(logits / 0.1, idx)


def train(student, teacher, criterion, loader, optimizer):
    student.train()
    total = 0.0
    for x, y, idx in loader:
        feat_s, logit_s = student(x)
        with torch.no_grad():
            _, logit_t = teacher(x)
        loss = F.cross_entropy(logit_s, y) + \
            F.kl_div(F.log_softmax(logit_s, 1), F.softmax(logit_t, 1),
                     reduction="batchmean") + 0.5 * criterion(feat_s, idx)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total


def validate(loader, model):
    model.eval()
    correct = 0
    with torch.no_grad():
        for x, y, _ in loader:
            correct += int((model(x)[1].argmax(1) == y).sum())
    return correct


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--crash-after", type=int, default=0)
    opt = parser.parse_args()
    torch.manual_seed(0)
    train_set = Pairs(40, 6, seed=1)
    opt.n_data = len(train_set)
    opt.feat_dim = 5
    train_loader = DataLoader(train_set, batch_size=8, shuffle=True)
    val_loader = DataLoader(Pairs(16, 6, seed=2), batch_size=8)

    teacher = Net(6, 12)
    student = Net(6, 8)
    # Sizes the distillation head, as RepDistiller does with
    # `model_s(torch.randn(2, 3, 32, 32), is_feat=True)`.
    teacher.eval()
    student.eval()
    feat_s, _ = student(torch.randn(2, 6))
    opt.s_dim = feat_s.shape[1]
    criterion = ContrastLoss(opt)
    trainable = nn.ModuleList([student, criterion.embed])
    optimizer = torch.optim.SGD(trainable.parameters(), lr=0.05,
                                momentum=0.9)
    print("teacher:", validate(val_loader, teacher))

    best = -1
    for epoch in range(1, opt.epochs + 1):
        loss = train(student, teacher, criterion, train_loader, optimizer)
        correct = validate(val_loader, student)
        print("epoch", epoch, loss, correct)
        if correct > best:
            best = correct
            state = {"epoch": epoch, "model": student.state_dict(),
                     "best": best}
            torch.save(state, os.path.join(os.path.dirname(opt.out),
                                           "best.pth"))
        state = {"epoch": epoch, "model": student.state_dict(),
                 "accuracy": correct}
        torch.save(state, opt.out)
        if epoch == opt.crash_after:
            raise RuntimeError("crash after epoch %d" % epoch)

    state = {"model": student.state_dict()}
    torch.save(state, opt.out)


if __name__ == "__main__":
    main()
