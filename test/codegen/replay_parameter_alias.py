"""The checkpoint is written in `train(loader, net, opt, ...)`, called with
the module's `net` and `opt` under the same names (stylegan2-pytorch's
`train(args, loader, generator, discriminator, ...)`). The optimizer's
state must go in the sidecar (the checkpoint holds the weights only): the
module's `opt` is the parameter `opt` there, never rebound — the same
object, saved and restored in place through it. The session-57 binary
refused: "'opt' must be saved but is not visible where the checkpoint is
written"."""
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: FileCheck %s < %t.py
# DIAG-NOT: sidecar
# CHECK: {{^}}def train(loader, net, opt, epochs):
# CHECK-NOT: global opt
# CHECK: _detc_rt.checkpoint(1, torch.save, {"opt": lambda: opt}, loops=("epoch",))(net.state_dict(), "net.pt")
# CHECK: if _detc_rt.has_value("opt"): opt = _detc_rt.saved_value("opt", lambda: opt)
import torch
from torch.utils.data import DataLoader, TensorDataset


def train(loader, net, opt, epochs):
    for epoch in range(epochs):
        for x, y in loader:
            loss = torch.nn.functional.mse_loss(net(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        torch.save(net.state_dict(), "net.pt")


if __name__ == "__main__":
    net = torch.nn.Linear(3, 1)
    opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    data = TensorDataset(torch.randn(16, 3), torch.randn(16, 1))
    train(DataLoader(data, batch_size=4, shuffle=True), net, opt, 3)
