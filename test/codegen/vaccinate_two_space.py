# A script indented by 2 (Google's style: google-research/augmix and
# big_transfer) has no columns between a block's header and its body for a
# cell's `def` and guards: it was refused ("this block is indented by
# fewer than 3 spaces more than its header"). It is planned re-indented
# (every logical line's indentation doubled), with the strings' bytes, the
# continuation lines and the comments as the user wrote them: the
# strings' values are the same, diagnostics are told in the user's lines
# and columns, and the vaccinated script computes what the plain transform
# does.
# RUN: detc transform %s --emit-python --vaccinate -o %t.vacc.py 2>&1 | FileCheck %s --check-prefix=DIAG
# RUN: detc transform %s --emit-python -o %t.plain.py
# RUN: FileCheck %s < %t.vacc.py
# RUN: env OMP_NUM_THREADS=1 PYTHONPATH=%detc_runtime DETC_QUIET=1 %python %t.plain.py > %t.plain.out
# RUN: env OMP_NUM_THREADS=1 PYTHONPATH=%detc_runtime DETC_QUIET=1 %python %t.vacc.py > %t.vacc.out
# RUN: diff %t.plain.out %t.vacc.out
# RUN: FileCheck %s --check-prefix=RUNS < %t.vacc.out
import torch
from torch.utils.data import DataLoader, Dataset

SHARED = torch.Generator().manual_seed(1)


class Noisy(Dataset):
  def __len__(self):
    return 8

  def __getitem__(self, i):
    # A generator the workers share, which detc cannot key: a warning,
    # at the user's column.
    # DIAG: vaccinate_two_space.py:[[@LINE+1]]:28: warning: cannot make draws from generator 'SHARED'
    return torch.rand(2) + torch.rand(1, generator=SHARED) + i


def train(model, loader, opt):
  note = """Trained.

    An indented line of a string, kept as written.
  """
  for x in loader:
    # CHECK: {{^}}    def _detc_cell_{{[0-9]+}}(_detc_r):  # detc: vaccinated (crash barrier)
    # CHECK: {{^}}        loss = model(x).pow(2).mean(
    # CHECK-NEXT: {{^}}      dim=None)
    loss = model(x).pow(2).mean(
      dim=None)  # a continuation line, as written
    opt.zero_grad()
    loss.backward()
    opt.step()
  return note


def main():
  torch.manual_seed(0)
  model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Dropout(0.5))
  opt = torch.optim.SGD(model.parameters(), lr=0.1)
  loader = DataLoader(Noisy(), batch_size=2, num_workers=2)
  note = train(model, loader, opt)
  # RUNS: string kept: True
  print("string kept:", note == "Trained.\n\n    An indented line of a string, kept as written.\n  ")
  print([round(float(v), 6) for v in model[0].weight.flatten()])


if __name__ == "__main__":
  main()
