"""Progress bars around the training loop, shaped like
pytorch-gan-collections' WGAN-GP: `with trange(1, steps + 1) as pbar:
for step in pbar:` in a training function, with `pbar.set_postfix(
loss=...)` and `pbar.write(...)` inside.
What a script calls on its bar changes the display, never what the bar
yields, and `with trange(...) as pbar` binds the bar itself. Before, the
restart was refused: "the loop iterates over 'pbar', which the loops
change"."""
# RUN: detc transform %s --emit-python --jit-checkpoint -o %t.py 2>&1 | FileCheck %s --allow-empty --check-prefix=DIAG
# RUN: FileCheck %s < %t.py
# DIAG-NOT: error
# CHECK: for step in _detc_rt.hints.loop({{.*}}pbar
# CHECK: _detc_rt.jit.boundary(
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from tqdm import trange


def train(steps):
    torch.manual_seed(0)
    model = torch.nn.Linear(4, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(TensorDataset(torch.randn(16, 4),
                                      torch.arange(16) % 2), batch_size=4)
    with trange(1, steps + 1, desc="Training") as pbar:
        for step in pbar:
            for x, y in loader:
                loss = F.cross_entropy(model(x), y)
                opt.zero_grad()
                loss.backward()
                opt.step()
                pbar.set_postfix(loss="%.4f" % loss.item())
            if step % 2 == 0:
                pbar.write("step %d done" % step)


if __name__ == "__main__":
    train(4)
