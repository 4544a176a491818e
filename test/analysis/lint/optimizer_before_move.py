# detc-optimizer-before-move: the optimizer is built on the parameters of a
# model that a later move or wrap replaces with new tensors, so the
# optimizer keeps updating tensors the model no longer uses: a move to an
# XLA device (`xm.xla_device()`, `torch.device("xla")`: XLA tensors cannot
# share a CPU tensor's storage, so torch's Module._apply makes new
# parameters), a FullyShardedDataParallel wrap (flat parameters). A move
# to the CPU or CUDA converts each parameter in place — the optimizer's
# references stay the model's — and is silent (it was reported, as the
# image-captioning tutorial's `decoder.to(device)` after its Adam was).
# Wrapping in DistributedDataParallel or DataParallel shares the
# parameters: silent. The fixed variants move first, or rebuild the
# optimizer after a move at the top of each stage. A move once the
# optimizer has stepped (a save's `net.cpu()` then `net.to(device)`, as
# pix2pix's and CycleGAN's save_networks do) is a round trip of a model in
# training: silent. So is a model moved before the optimizer is built and
# moved again later (SCAN's: `model = model.cuda()`, the optimizer, then
# `model.cuda()` after loading a checkpoint): it is moved where it already
# is.
# RUN: not detc analyze %s --werror | FileCheck %s
# RUN: for f in %S/Inputs/move_first.py %S/Inputs/loop_move.py; do detc analyze $f --werror || exit 1; done | FileCheck %s --check-prefix=FIXED
import torch
import torch_xla.core.xla_model as xm
from torch import nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.nn.parallel import DistributedDataParallel as DDP


def build(device):
    model = nn.Linear(4, 2)
    # CHECK: optimizer_before_move.py:[[@LINE+1]]:11: warning: the optimizer is created before the model is moved to an XLA device at line [[@LINE+2]], which makes new parameter tensors: the optimizer keeps updating the old ones; create it after the model is moved to an XLA device [detc-optimizer-before-move]
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    model.to(device)
    # CHECK: optimizer_before_move.py:[[@LINE-1]]:5: note: the model is moved to an XLA device here
    return model, opt


def build_named(kind):
    model = nn.Linear(4, 2)
    # CHECK: optimizer_before_move.py:[[@LINE+1]]:11: warning: the optimizer is created before the model is moved to an XLA device at line [[@LINE+2]]
    opt = torch.optim.Adam(model.parameters())
    model = model.to(torch.device(kind))
    return model, opt


def on_cuda(device):
    # Converted in place: the optimizer's tensors are the model's.
    model = nn.Linear(4, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    model.to(device)
    model.cuda()
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


model, opt = build(xm.xla_device())
model, opt = build_named("xla")
model, opt = on_cuda(torch.device("cuda" if torch.cuda.is_available() else "cpu"))
train_and_save("cpu")
resume("cpu", None)
net = nn.Linear(4, 2)
adam = torch.optim.Adam(net.parameters())
net = DDP(net)
other = nn.Linear(4, 2)
sgd = torch.optim.SGD(other.parameters(), lr=0.1)
other = nn.DataParallel(other)
sharded = nn.Linear(4, 2)
# CHECK: optimizer_before_move.py:[[@LINE+1]]:9: warning: the optimizer is created before the model is wrapped at line [[@LINE+2]], which makes new parameter tensors
adamw = torch.optim.AdamW(sharded.parameters())
sharded = FSDP(sharded)
# CHECK: 3 warning(s)

# FIXED-NOT: warning:
# FIXED: 0 warning(s)
# FIXED: 0 warning(s)
# FIXED-NOT: warning:
