# detc-optimizer-before-move: the optimizer is built on the parameters of a
# model that is then moved (`.to`, `.cuda`). Wrapping the model afterwards
# (DistributedDataParallel, DataParallel) is correct — the wrapper shares
# the parameters — and stays silent. The fixed variants move first, or
# rebuild the optimizer after a move at the top of each stage. A move once
# the optimizer has stepped (a save's `net.cpu()` then `net.to(device)`, as
# pix2pix's and CycleGAN's save_networks do) is a round trip of a model in
# training: silent (it was reported). So is a model moved before the
# optimizer is built and moved again later (SCAN's: `model = model.cuda()`,
# the optimizer, then `model.cuda()` after loading a checkpoint): it is
# moved where it already is.
# RUN: not detc analyze %s --werror | FileCheck %s
# RUN: for f in %S/Inputs/move_first.py %S/Inputs/loop_move.py; do detc analyze $f --werror || exit 1; done | FileCheck %s --check-prefix=FIXED
import torch
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP


def build(device):
    model = nn.Linear(4, 2)
    # CHECK: optimizer_before_move.py:[[@LINE+1]]:11: warning: the optimizer is created before the model is moved at line [[@LINE+2]]: it keeps references to the old parameter tensors; create it after the model is moved [detc-optimizer-before-move]
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    model.to(device)
    # CHECK: optimizer_before_move.py:[[@LINE-1]]:5: note: the model is moved here
    return model, opt


def train_and_save(device):
    net = nn.Linear(4, 2).to(device)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for _ in range(2):
        opt.zero_grad()
        net(torch.ones(1, 4)).sum().backward()
        opt.step()
        torch.save(net.cpu().state_dict(), "checkpoint.pt")
        net.to(device)


def resume(device, path):
    model = nn.Linear(4, 2)
    model = model.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    if path:
        model.load_state_dict(torch.load(path))
        model.to(device)
    return model, opt


model, opt = build("cpu")
train_and_save("cpu")
resume("cpu", None)
net = nn.Linear(4, 2)
adam = torch.optim.Adam(net.parameters())
net = DDP(net)
other = nn.Linear(4, 2)
sgd = torch.optim.SGD(other.parameters(), lr=0.1)
other = nn.DataParallel(other)
# CHECK-NOT: wrapped
# CHECK: 1 warning(s)

# FIXED-NOT: warning:
# FIXED: 0 warning(s)
# FIXED: 0 warning(s)
# FIXED-NOT: warning:
