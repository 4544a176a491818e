# A save that only rank 0 of a DDP job makes (`if rank == 0:
# torch.save(...)`, the shape of most DDP scripts): the announcement that
# counts the site's instances goes before the test and the restore after
# it, so every rank counts them and reaches the restore in fast-forward
# (the session-64 first binary put both inside the test: rank 1 never
# resumed). The save reads detc's values itself, where it runs; the
# announcement reads them for the record of a rank that does not save
# (runtime ranks.py). Not hoisted: over a test with an `else` or an
# `elif`, over one whose body goes on after the save, over the script's
# `if __name__ == "__main__":` (a worker importing the script runs
# nothing of the run there). A helper's call is hoisted only when it is
# the test's whole body (its values are read at the announcement).
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: FileCheck %s < %t.py
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
# RUN: detc transform %s --emit-python --vaccinate -o %t.vac.py
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.vac.py
# DIAG-NOT: detc writes no sidecar
# CHECK-LABEL: {{^}}def main_worker(rank, world, args):
# CHECK:      {{^        }}_detc_rt.announce_checkpoint([[A:[0-9]+]], {[[VALUES:"opt": lambda: opt, "best": lambda: best]]}, loops=("epoch",))  # detc: the checkpoint written below is site [[A]]
# CHECK-NEXT: {{^        }}if rank == 0:
# CHECK-NEXT: {{^            }}if _detc_rt.guard() and (args.verbose):
# CHECK-NEXT: {{^                }}print("saving")
# CHECK-NEXT: {{^            }}if _detc_rt.guard(): _detc_rt.checkpoint([[A]], torch.save, {[[VALUES]]})(model.state_dict(), args.out)  # detc: checkpoint with sidecar (site [[A]], announced above); skipped in fast-forward
# CHECK-NEXT: {{^        }}if _detc_rt.restoring([[A]]):
# An `else`: the save and its restore stay where they are.
# CHECK:      {{^        }}if rank == 0:
# CHECK-NEXT: {{^            }}_detc_rt.checkpoint([[B:[0-9]+]], torch.save, {[[VALUES]]}, loops=("epoch",))(model.state_dict(), "other.pt")
# CHECK-NEXT: {{^            }}if _detc_rt.restoring([[B]]):
# CHECK:      {{^        }}else:
# The body goes on after the save: not hoisted, not announced.
# CHECK:      {{^        }}if rank == 0:
# CHECK-NEXT: {{^            }}_detc_rt.checkpoint([[C:[0-9]+]], torch.save, {[[VALUES]]}, loops=("epoch",))(model.state_dict(), "again.pt")  # detc: checkpoint with sidecar (site [[C]])
# CHECK-NEXT: {{^            }}if _detc_rt.restoring([[C]]):
# A helper's call, alone in the test: hoisted with it.
# CHECK:      {{^        }}_detc_rt.announce_checkpoint([[D:[0-9]+]], {{{.*}}"best": lambda: best}, loops=("epoch",))
# CHECK-NEXT: {{^        }}if dist.get_rank() == 0:
# CHECK-NEXT: {{^            }}if _detc_rt.guard(): save_state(model.state_dict(), "helper.pt")
# CHECK-NEXT: {{^        }}if _detc_rt.restoring([[D]]):
# The entry's test is not hoisted over.
# CHECK:      {{^}}if __name__ == "__main__":
# CHECK:      {{^    }}main_worker(0, 1, args)
# CHECK-NEXT: {{^    }}_detc_rt.announce_checkpoint([[E:[0-9]+]])
# CHECK-NEXT: {{^    }}if args.final:
import argparse

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def save_state(state, path):
    torch.save(state, path)


def main_worker(rank, world, args):
    torch.manual_seed(args.seed + rank)
    loader = DataLoader(TensorDataset(torch.randn(16, 4), torch.arange(16) % 2),
                        batch_size=4, shuffle=True)
    model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.2), nn.Linear(8, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    best = 0.0
    for epoch in range(args.epochs):
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            best = max(best, float(loss))
        if rank == 0:
            if args.verbose:
                print("saving")
            torch.save(model.state_dict(), args.out)
        if rank == 0:
            torch.save(model.state_dict(), "other.pt")
        else:
            print("rank", rank, "does not save")
        if rank == 0:
            torch.save(model.state_dict(), "again.pt")
            print("saved")
        if dist.get_rank() == 0:
            save_state(model.state_dict(), "helper.pt")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="ck.pt")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--final", action="store_true")
    args = parser.parse_args()
    main_worker(0, 1, args)
    if args.final:
        torch.save({"args": vars(args)}, "final.pt")
