"""A progress bar built again each time round the loops, in the shape of
ViT-pytorch's training loop: `while True:`, `epoch_iterator =
tqdm(train_loader, ...)`, `for step, batch in enumerate(epoch_iterator)`,
`epoch_iterator.set_description(...)` inside. The bar is built again on
the way in (it is not saved: what it yields is the loader's), and the
restart's loop level goes around the loader inside it, so the keyed
loader is found where it stood. Before, the restart was refused: "the
loop iterates over 'epoch_iterator', which the loops change". (A restart
of this shape, failing at minibatches 3, 7, 12 and 14 of an uninterrupted
run of 10 steps, ended bit-identical to it, checked by hand.)"""
# RUN: detc transform %s --emit-python --jit-checkpoint -o %t.py 2>&1 | FileCheck %s --allow-empty --check-prefix=DIAG
# RUN: FileCheck %s < %t.py
# DIAG-NOT: error
# CHECK: epoch_iterator = tqdm(_detc_rt.hints.loop({{[0-9]+}}, 0, loader), desc=
# CHECK: for step, (x, y) in enumerate(epoch_iterator, _detc_rt.hints.start(
# CHECK: _detc_rt.jit.boundary(
# CHECK-NOT: "epoch_iterator": lambda
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from tqdm import tqdm


def train(t_total):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Dropout(0.3),
                                torch.nn.Linear(8, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(TensorDataset(torch.randn(16, 4),
                                      torch.arange(16) % 2),
                        batch_size=4, shuffle=True)
    global_step = 0
    while True:
        model.train()
        epoch_iterator = tqdm(loader, desc="Training (X / X Steps)",
                              disable=True)
        for step, (x, y) in enumerate(epoch_iterator):
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            global_step += 1
            epoch_iterator.set_description(
                "Training (%d / %d Steps) (loss=%2.5f)" % (global_step, t_total,
                                                          loss.item()))
            if global_step % t_total == 0:
                break
        if global_step % t_total == 0:
            break
    return model


if __name__ == "__main__":
    train(10)
