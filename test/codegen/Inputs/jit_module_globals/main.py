import torch
from engine import train

model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = torch.utils.data.DataLoader(torch.zeros(8, 4), batch_size=2)
train(model, loader, opt)
