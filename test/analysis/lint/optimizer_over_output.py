# An optimizer over a tensor computed by a model or a transform pipeline
# (neural style transfer optimises the image: `target = content.clone()`
# with `content = transform(image)`; latent optimisation through a
# generator's output) updates that tensor, not the model that computed it.
# yunjey/pytorch-tutorial's neural_style_transfer was reported as "updates
# the parameters of `transform`, but the loop's forward runs `vgg`". An
# optimizer over another model's parameters is still reported.
# RUN: detc analyze %s | FileCheck %s --implicit-check-not=optimizer-not-on-model
import torch
import torch.nn as nn
import torchvision.transforms as transforms


def load_image(transform):
    image = torch.rand(1, 3, 8, 8)
    return transform(image).unsqueeze(0)


class Features(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)

    def forward(self, x):
        return self.conv(x)


transform = transforms.Compose([
    transforms.Normalize(mean=(0.5, 0.5, 0.5), std=(0.2, 0.2, 0.2))])
content = load_image(transform)
target = content.clone().requires_grad_(True)
optimizer = torch.optim.Adam([target], lr=0.1)
features = Features().eval()
for step in range(10):
    loss = ((features(target) - features(content)) ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

generator = nn.Linear(2, 3 * 8 * 8)
latent = generator(torch.zeros(1, 2)).detach().view(1, 3, 8, 8)
latent.requires_grad_(True)
latent_opt = torch.optim.SGD([latent], lr=0.1)
for step in range(10):
    loss = features(latent).mean()
    latent_opt.zero_grad()
    loss.backward()
    latent_opt.step()

other = nn.Linear(3, 3)
wrong = torch.optim.SGD(other.parameters(), lr=0.1)
for step in range(10):
    loss = features(content).mean()
    wrong.zero_grad()
    loss.backward()
    # CHECK: optimizer_over_output.py:[[@LINE+1]]:5: warning: this optimizer step updates the parameters of `other` (the optimizer built at line 51), but the training loop's forward runs `features`: {{.*}} [detc-optimizer-not-on-model]
    wrong.step()
