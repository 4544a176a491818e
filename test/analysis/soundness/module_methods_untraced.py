# Methods of torch.nn.Module called on a module of a library's model read
# through attributes (`self.vgg.features.children()`, a perceptual loss's
# feature extractor): harmless, as a tensor's methods are on a value detc
# cannot trace (before: each a may-draw, "no library type detc knows has a
# method of that name"). Those that run the module's or the program's code
# (forward, apply, hooks) stay may-draws: the classifier holds dropout.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: module_methods_untraced.py:[[@LINE+15]]:16: warning: may draw: 'self.vgg.classifier.forward' calls code detc could not read
# CHECK: 1 warning(s)
import torch
import torchvision
from torch.utils.data import DataLoader, TensorDataset


class Perceptual(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.vgg = torchvision.models.vgg19()

    def forward(self, x):
        depth = len(list(self.vgg.features.children()))
        names = [n for n, _ in self.vgg.features.named_modules()]
        head = self.vgg.classifier.forward(x.flatten(1))
        return x.mean() * depth + len(names) + head.mean()


loss = Perceptual()
for (x,) in DataLoader(TensorDataset(torch.zeros(8, 3, 8, 8)), batch_size=2):
    y = loss(x)
