# Two GAN shapes from PyTorch-GAN that were false alarms:
#  - BicycleGAN's discriminators run through a method of their own class
#    (`D_VAE.compute_loss(x, gt)` calls `self.forward(x)`): that forward is
#    D_VAE's (`self` is the caller's model), so the optimizer over D_VAE's
#    parameters is on a model the loop runs (was optimizer-not-on-model);
#  - DualGAN steps both discriminators' optimizers after one backward of
#    their summed losses: the second step's gradients are not used up by
#    the first optimizer's step (was step-without-backward).
# A second step of the same optimizer with no backward between is still
# found.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK-NOT: optimizer-not-on-model
# CHECK: gan_shapes.py:[[@LINE+47]]:5: warning: optimizer step with no backward() since the previous step
# CHECK-NOT: warning:
# CHECK: 1 warning(s)
import torch
import torch.nn as nn


class MultiDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(4, 1)

    def compute_loss(self, x, gt):
        return sum([torch.mean((out - gt) ** 2) for out in self.forward(x)])

    def forward(self, x):
        return [self.net(x)]


generator = nn.Linear(4, 4)
D_VAE = MultiDiscriminator()
D_A = nn.Linear(4, 1)
D_B = nn.Linear(4, 1)
optimizer_G = torch.optim.Adam(generator.parameters())
optimizer_D_VAE = torch.optim.Adam(D_VAE.parameters())
optimizer_D_A = torch.optim.Adam(D_A.parameters())
optimizer_D_B = torch.optim.Adam(D_B.parameters())
batches = [torch.randn(8, 4) for _ in range(4)]
for real in batches:
    optimizer_G.zero_grad()
    fake = generator(torch.randn(8, 4))
    loss_G = D_VAE.compute_loss(fake, 1.0)
    loss_G.backward()
    optimizer_G.step()

    optimizer_D_VAE.zero_grad()
    loss_D_VAE = D_VAE.compute_loss(real, 1.0) + D_VAE.compute_loss(
        fake.detach(), 0.0)
    loss_D_VAE.backward()
    optimizer_D_VAE.step()

    optimizer_D_A.zero_grad()
    optimizer_D_B.zero_grad()
    loss_D = -torch.mean(D_A(real)) + torch.mean(D_B(fake.detach()))
    loss_D.backward()
    optimizer_D_A.step()
    optimizer_D_B.step()
    optimizer_D_B.step()
