# A model's own sampling method switches it to evaluation mode, raises on
# a bad setting, and else switches it back before returning
# (Real-Time-Voice-Cloning's WaveRNN.generate, called after each epoch). An
# uncaught `raise` ends the program: the training loop does not go on
# after it. It was taken as a return, and the next epoch's forward was
# reported as left in evaluation mode. The broken variant, which does not
# switch back, is still found.
# RUN: detc analyze %s --werror
# RUN: sed -e 's/^        self.train()$/        pass/' %s > %t.broken.py
# RUN: not detc analyze %t.broken.py --werror 2>&1 | FileCheck %s
# CHECK: warning: the model may still be in evaluation mode in this training forward: `model.eval()` at line
# CHECK: 1 warning(s)
import torch
import torch.nn as nn


class Vocoder(nn.Module):
    def __init__(self, mode):
        super().__init__()
        self.mode = mode
        self.net = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.1),
                                 nn.Linear(8, 4))

    def forward(self, x):
        return self.net(x)

    def generate(self, x):
        self.eval()
        with torch.no_grad():
            if self.mode == "RAW":
                out = self.net(x)
            else:
                raise RuntimeError("unknown mode " + self.mode)
        self.train()
        return out


model = Vocoder("RAW")
opt = torch.optim.Adam(model.parameters())
data = [torch.randn(8, 4) for _ in range(4)]
for epoch in range(3):
    for x in data:
        opt.zero_grad()
        model(x).pow(2).mean().backward()
        opt.step()
    model.generate(data[0])
