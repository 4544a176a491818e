# Idiom 7 (issue 17): Hugging Face accelerate. `accelerator.save_state(dir)`
# saves what `accelerator.prepare(...)` returned (also one object prepared
# alone): the Needed report shows the model, the optimizer, the loader and
# the scheduler as saved by the user, and `best` (read after the loop,
# saved by nobody) as what detc must save.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK: accelerate_state.py:[[@LINE+27]]:9: note: replay from this checkpoint [detc-replay]
# CHECK: saved by the checkpoint: accelerator, model, optimizer, loader, scheduler{{$}}
# CHECK: saved by detc (needed, not re-derivable): best [{{.*}}]{{$}}
import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def main():
    accelerator = Accelerator()
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Dropout(0.1),
                                torch.nn.Linear(8, 2))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    data = TensorDataset(torch.zeros(64, 4), torch.zeros(64).long())
    loader = DataLoader(data, batch_size=8, shuffle=True)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1)
    scheduler = accelerator.prepare(scheduler)
    best = 0.0
    for epoch in range(3):
        for x, y in loader:
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(x), y)
            accelerator.backward(loss)
            optimizer.step()
            best = max(best, loss.item())
        scheduler.step()
        accelerator.save_state("ckpt")
    print(best)


if __name__ == "__main__":
    main()
