"""attention-is-all-you-need's epoch function: a constant assigned before
the loop is read by the loop's iterable (`desc = '  - (Training)   '`, then
`for batch in tqdm(data, desc=desc)`)."""
import sys

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
from tqdm import tqdm


def train_epoch(model, data, opt):
    model.train()
    total_loss = 0.0
    desc = "  - (Training)   "
    for x, y in tqdm(data, mininterval=2, desc=desc, leave=False):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total_loss += loss.item()
        print("done", flush=True)
    return total_loss


def main(out):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Dropout(0.2), nn.Linear(16, 3))
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    data = TensorDataset(torch.randn(40, 8), torch.randint(3, (40,)))
    loader = DataLoader(data, batch_size=4, shuffle=True, num_workers=2)
    for epoch in range(3):
        print(epoch, train_epoch(model, loader, opt))
    torch.save(model.state_dict(), out)


if __name__ == "__main__":
    main(sys.argv[1])
