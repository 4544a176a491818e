# Loops over a keyed loader that fast-forward runs in full get real
# batches there (`_detc_rt.real_batches`): a pass over the training loader
# before training (statistics of the inputs, setup code). They got
# placeholder batches, and the resume crashed unpacking one (the session-58
# binary). The training loop keeps its placeholders. `validate`, also
# called outside the training loop (ImageNet's `if args.evaluate:
# validate(...); return`), is skipped only in the training loop's calls
# (`from_nest`): real batches in the others, placeholders there (the
# session-64 first binary ran it in full in fast-forward: a resume at epoch
# N re-ran N validation passes). `main_worker` runs twice (directly and through
# mp.spawn): the locals of both instances are visible at its save (the
# sidecar was refused: "'model' must be saved but is not visible"), and
# the checkpoint's `model.state_dict()` restores the model of both (the
# session-63 first binary saved the second instance's again in the
# sidecar, the whole model a second time).
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: FileCheck %s < %t.py
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
# DIAG-NOT: detc writes no sidecar
# DIAG-NOT: fast-forward runs 'validate' in full
# CHECK: {{^}}    for x, _ in _detc_rt.real_batches(loader):
# CHECK: {{^}}        validate(loader, model)
# CHECK: {{^}}        _detc_rt.from_nest(validate)(loader, model)  # detc: a call the training loop makes
# CHECK-NEXT: {{^}}        _detc_rt.announce_checkpoint({{[0-9]+}}, {"optimizer": lambda: optimizer}, loops=("epoch",))
# CHECK: {{^}}    for i, (x, y) in enumerate(_detc_rt.batches(loader, 2)):
# CHECK: {{^}}def validate(loader, model):
# CHECK-NEXT: {{^}}    if _detc_rt.nest_guard(): model.eval()
# CHECK: {{^}}        for x, y in _detc_rt.nest_batches(loader, 2):
# CHECK-NEXT: {{^}}            if _detc_rt.nest_guard(): model(x)
import sys

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def main_worker(rank, evaluate):
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(32, 4), torch.arange(32) % 2)
    loader = DataLoader(data, batch_size=8, shuffle=True, num_workers=2)
    total = 0.0
    for x, _ in loader:
        total += x.abs().sum().item()
    model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.3), nn.Linear(8, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1 / total)
    if evaluate:
        validate(loader, model)
        return
    for epoch in range(3):
        train(loader, model, optimizer)
        validate(loader, model)
        save_checkpoint({"model": model.state_dict(), "epoch": epoch},
                        "ckpt.pt")


def train(loader, model, optimizer):
    model.train()
    for i, (x, y) in enumerate(loader):
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def validate(loader, model):
    model.eval()
    with torch.no_grad():
        for x, y in loader:
            model(x)


def save_checkpoint(state, filename):
    torch.save(state, filename)


if __name__ == "__main__":
    if len(sys.argv) > 1:
        torch.multiprocessing.spawn(main_worker, nprocs=1, args=(False,))
    else:
        main_worker(0, False)
