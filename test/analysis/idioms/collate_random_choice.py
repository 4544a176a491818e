# torchvision's reference classification script: a collate function
# `lambda batch: mixupcutmix(*default_collate(batch))` over a
# `RandomChoice` of the script's own RandomMixup and RandomCutmix, which
# draw a Dirichlet weight with the private `torch._sample_dirichlet`. That
# call was "may draw: a name of 'torch' that no API table describes"; the
# table has it (and `torch._standard_gamma`) as a draw of torch's
# generator now. Every draw of the collate (per batch, in the workers) is
# found. (Transformed, this script gives the same weights with 0 and 2
# workers; the original does not.)
# RUN: detc analyze %s --python none 2>&1 | FileCheck %s
# CHECK-NOT: may draw
# CHECK-DAG: collate_random_choice.py:[[@LINE+20]]:12: warning: generator 'torch' (global)
# CHECK-DAG: collate_random_choice.py:[[@LINE+21]]:21: warning: generator 'torch' (global)
# CHECK-DAG: collate_random_choice.py:[[@LINE+30]]:12: warning: generator 'torch' (global)
# CHECK-DAG: collate_random_choice.py:[[@LINE+31]]:15: warning: generator 'torch' (global)
# CHECK-DAG: collate_random_choice.py:[[@LINE+35]]:15: warning: generator 'random' (global)
# CHECK-NOT: may draw
# CHECK: 5 warning(s)
import torch
import torchvision
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.dataloader import default_collate


class RandomMixup(torch.nn.Module):
    def __init__(self, num_classes, p=0.5, alpha=1.0):
        super().__init__()
        self.p = p
        self.alpha = alpha

    def forward(self, batch, target):
        if torch.rand(1).item() >= self.p:
            return batch, target
        lam = float(torch._sample_dirichlet(torch.tensor([self.alpha, self.alpha]))[0])
        return batch.roll(1, 0).mul_(1.0 - lam).add_(batch.mul(lam)), target


class RandomCutmix(torch.nn.Module):
    def __init__(self, num_classes, p=0.5, alpha=1.0):
        super().__init__()
        self.p = p

    def forward(self, batch, target):
        if torch.rand(1).item() >= self.p:
            return batch, target
        r_x = torch.randint(4, (1,))
        return batch, target


mixup_transforms = [RandomMixup(10, p=1.0), RandomCutmix(10, p=1.0)]
mixupcutmix = torchvision.transforms.RandomChoice(mixup_transforms)
collate_fn = lambda batch: mixupcutmix(*default_collate(batch))  # noqa: E731
data = TensorDataset(torch.randn(16, 3, 4, 4), torch.randint(10, (16,)))
loader = DataLoader(data, batch_size=4, num_workers=2, collate_fn=collate_fn)
model = torch.nn.Linear(48, 10)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for image, target in loader:
    loss = torch.nn.functional.cross_entropy(model(image.flatten(1)), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
