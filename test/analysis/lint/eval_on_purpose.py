# Models in evaluation mode on purpose inside a training loop, as the GAN
# scripts of PyTorch-GAN keep them (no finding; 13 before on those):
#  - a frozen feature extractor no optimizer trains (ESRGAN's VGG for the
#    perceptual loss), put in evaluation mode once before training, the
#    trained models moved as they are built (`Net().to(device)`: a move
#    returns the module, so the optimizers are over known models; it was
#    reported);
#  - a sampling helper the training loop calls (CycleGAN's
#    sample_images()), which switches the generator to evaluation mode and
#    runs it right after, in the same block.
# The generator's own training forward, reached in the next iteration
# after the helper left it in evaluation mode, is still found.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK-NOT: warning:
# CHECK: eval_on_purpose.py:[[@LINE+31]]:12: warning: the model may still be in evaluation mode in this training forward: `G.eval()` at line [[@LINE+24]]
# CHECK-NOT: warning:
# CHECK: 1 warning(s)
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cpu")
G = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.2), nn.Linear(8, 4)).to(device)
D = nn.Linear(4, 1).to(device)
features = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8))
features.eval()
opt_G = torch.optim.Adam(G.parameters())
opt_D = torch.optim.Adam(D.parameters())


def make_batches():  # a call between the eval() and the loop (a dataset)
    return [torch.randn(8, 4) for _ in range(4)]


batches = make_batches()


def sample_images():
    G.eval()
    fake = G(batches[0])
    return fake.sum()


for i, real in enumerate(batches):
    opt_G.zero_grad()
    fake = G(real)
    loss_G = F.mse_loss(features(fake), features(real)) - D(fake).mean()
    loss_G.backward()
    opt_G.step()
    opt_D.zero_grad()
    loss_D = D(fake.detach()).mean() - D(real).mean()
    loss_D.backward()
    opt_D.step()
    if i % 2 == 0:
        sample_images()
