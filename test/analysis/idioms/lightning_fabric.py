# Lightning Fabric (lit-llama's LoRA fine-tuning, TinyLlama, litgpt): the
# training loop is the program's; `fabric.setup(model, opt)`,
# `fabric.setup_dataloaders(loader)` and `fabric.to_device(x)` hand back
# what they are given, wrapped. The loop over the wrapped loader is a batch
# loop (its draws and the model's dropout are found in it), the helpers
# (`print`, `barrier`, `no_backward_sync`) draw nothing, and `fabric.save`
# is a checkpoint. Before, a method result of Fabric, a library detc does
# not read, was a value of no library: the loop was no batch loop and
# nothing in it was reported.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
import lightning as L
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def get_loader(fabric):
    data = TensorDataset(torch.randn(32, 8), torch.randn(32, 1))
    return fabric.setup_dataloaders(DataLoader(data, batch_size=4))


def train(fabric, model, optimizer, loader):
    for step, (x, y) in enumerate(loader):
        # CHECK-DAG: lightning_fabric.py:[[@LINE+1]]:17: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}lightning_fabric.py:[[@LINE-1]]:5
        noise = torch.randn_like(x) * 0.01
        x = fabric.to_device(x + noise)
        with fabric.no_backward_sync(model, enabled=step % 2 == 0):
            loss = (model(x) - y).pow(2).mean()
            fabric.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
        fabric.print(f"step {step}: {loss.item():.4f}")
        fabric.barrier()
    # CHECK-DAG: lightning_fabric.py:[[@LINE+1]]:5: note: replay from this checkpoint [detc-replay]
    fabric.save("ckpt.pt", {"model": model, "optimizer": optimizer})


def main():
    fabric = L.Fabric(accelerator="cpu", devices=1)
    fabric.seed_everything(1337)
    # CHECK-DAG: lightning_fabric.py:[[@LINE+1]]:56: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Dropout(0.1), nn.Linear(16, 1))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    model, optimizer = fabric.setup(model, optimizer)
    train(fabric, model, optimizer, get_loader(fabric))


if __name__ == "__main__":
    main()
# CHECK: 2 warning(s)
