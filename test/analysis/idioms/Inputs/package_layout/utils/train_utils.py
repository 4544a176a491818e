import torch


def train(model, loader, opt):
    for x, y in loader:
        noise = torch.rand(1)
        loss = ((model(x) - y) ** 2).mean() * noise
        opt.zero_grad()
        loss.backward()
        opt.step()
