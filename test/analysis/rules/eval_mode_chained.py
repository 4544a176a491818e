# eval() returns the module, and moving a module to a device keeps its
# mode and returns it too: `lpips = LPIPS().eval().to(device)` (stargan-v2's
# metrics, evaluated every few thousand steps inside the training loop)
# binds a module in evaluation mode, whose dropout draws nothing. Both the
# chained form and `scorer.eval(); scorer.to(device)` were findings (the
# mode followed the temporary eval() was called on, and a move counted as
# a call that may switch the mode). A model moved without eval() still
# draws in the loop (the one finding).
# RUN: detc analyze %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: eval_mode_chained.py:[[@LINE+21]]:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}eval_mode_chained.py:[[@LINE+41]]:5
# CHECK: 1 warning(s)
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        return self.drop(self.fc(x))


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        return self.drop(self.fc(x))


def lpips_of(loader, device):
    lpips = Scorer().eval().to(device)
    scorer = Scorer()
    scorer.eval()
    scorer.to(device)
    return [lpips(x).sum() + scorer(x).sum() for x, _ in loader]


def main(device="cpu"):
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(16, 4), torch.randn(16, 4))
    loader = DataLoader(data, batch_size=4, shuffle=True)
    generator = Generator().to(device)
    opt = torch.optim.SGD(generator.parameters(), lr=0.1)
    for step, (x, y) in enumerate(loader):
        loss = (generator(x) - y).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 2 == 0:
            print(lpips_of(loader, device))


if __name__ == "__main__":
    main()
