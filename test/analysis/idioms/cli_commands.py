# Training run as a command of a CLI library (click's `@cli.command()`,
# typer's `@app.command()`): the script calls the group, the library's
# dispatch calls the command, which no call of the program runs. A
# function a decorator detc cannot read was given, run by no call of the
# program, is an entry: it may run after the module body (kazuto1011/
# deeplab-pytorch's `train` command; its loader's augmentation was silent).
# A function only the program's own decorator wraps stays unreached.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK: cli_commands.py:[[@LINE+13]]:16: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at {{.*}}cli_commands.py:[[@LINE+30]]:5
# CHECK-NOT: warning:
# CHECK: 1 warning(s)
import click
import torch
from torch.utils.data import DataLoader, Dataset


class Jitter(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return torch.rand(4)


def logged(fn):
    return fn


@click.group()
def cli():
    pass


@cli.command()
@click.option("--lr", default=0.1)
def train(lr):
    model = torch.nn.Linear(4, 2)
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for x in DataLoader(Jitter(), batch_size=2, num_workers=2):
        opt.zero_grad()
        model(x).sum().backward()
        opt.step()


@logged
def unused():
    torch.nn.functional.dropout(torch.ones(3), 0.5)


if __name__ == "__main__":
    cli()
