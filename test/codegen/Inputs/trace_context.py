"""A data-parallel training script that averages gradients by hand
(test/codegen/trace_context.test): a collective in a helper the step
calls, a barrier after each epoch, a learning-rate helper per epoch."""
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def adjust(opt, epoch):
    for g in opt.param_groups:
        g["lr"] = 0.1 / (epoch + 1)


def average_gradients(model):
    for p in model.parameters():
        dist.all_reduce(p.grad)
        p.grad /= dist.get_world_size()


def main():
    dist.init_process_group("gloo")
    model = nn.Linear(4, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(TensorDataset(torch.randn(16, 4), torch.randn(16, 2)), batch_size=4)
    for epoch in range(2):
        adjust(opt, epoch)
        for x, y in loader:
            opt.zero_grad()
            loss = ((model(x) - y) ** 2).mean()
            loss.backward()
            average_gradients(model)
            opt.step()
        dist.barrier()


if __name__ == "__main__":
    main()
