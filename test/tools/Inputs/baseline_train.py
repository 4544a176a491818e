import torch
from torch.utils.data import DataLoader, Dataset

noise = torch.Generator().manual_seed(0)


class Points(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        a = torch.randn(2, generator=noise)
        return a


model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x in DataLoader(Points(), batch_size=4, num_workers=2):
    model(x).sum().backward()
    opt.step()
