"""A traced training loop as `detc transform --trace` emits it, with the
context records: each batch's fetch (trace.batches) and a function of the
script the step calls (kind "function"), which itself runs the model's
forward — once under CPU autocast. Writes the trace to argv[1].
test_runtime.ContextRecordsTest reads it."""
import copy
import sys

import torch

import detc_runtime as rt

rt.trace.enable(sys.argv[1])
torch.manual_seed(0)
model = torch.nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
api = rt.trace.api
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(
    torch.randn(9, 4), torch.randn(9, 2)), batch_size=3)
assert list(rt.trace.batches(1, [1, 2])) == [1, 2]  # nothing fetched
# The traced loader is the loader for everything but its iteration (the
# replay and hint runtimes read and set its attributes).
traced = rt.trace.batches(1, loader)
traced._detc_arity = 2
assert (traced.batch_size, len(traced), loader._detc_arity) == (3, 3, 2)
assert copy.copy(traced).iterable is loader  # copies are proxies too


def train_step(x, y, mixed):
    with torch.autocast("cpu", enabled=mixed):
        out = api(3, "forward", "forward:model", model)(x)
    return (out.float() - y).pow(2).mean()


for i, (x, y) in enumerate(rt.trace.batches(1, loader)):
    rt.trace.step(2, 0)
    api(4, "zero_grad", "optimizer.zero_grad", opt.zero_grad, opt)()
    loss = api(5, "function", "call:train_step", train_step)(x, y, i == 1)
    api(6, "backward", "backward", loss.backward, loss)()
    api(7, "step", "optimizer.step", opt.step, opt)()
