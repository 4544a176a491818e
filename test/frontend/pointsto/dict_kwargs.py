# Idiom 1 (issue 17): loader options built up in dicts — update, dict(a,
# **b), {**a, **b}, setdefault, a dict a helper builds and returns — reach
# the DataLoader's num_workers.
# RUN: detc %s --emit=points-to | FileCheck %s
# CHECK-LABEL: scope __main__
# CHECK: kwargs -> {dict@[[@LINE+26]]:10}
# CHECK: merged -> {dict@[[@LINE+29]]:10}
# CHECK: more -> {dict@[[@LINE+26]]:8}
# CHECK-LABEL: scope loader_options
# CHECK-NEXT: opts -> {dict@[[@LINE+17]]:12}
# CHECK: object dict@[[@LINE+21]]:10
# CHECK-NEXT: .['batch_size'] -> {64}
# CHECK-NEXT: .['num_workers'] -> {4}
# CHECK-NEXT: .['pin_memory'] -> {True}
# CHECK: object dict@[[@LINE+21]]:10
# CHECK: .['drop_last'] -> {False}
# CHECK: .['num_workers'] -> {2, 4, 8}
# CHECK: .['shuffle'] -> {True}
# CHECK: object torch.utils.data.DataLoader@[[@LINE+19]]:10
# CHECK: .num_workers -> {2, 4, 8}
# CHECK: .shuffle -> {True}
import torch
from torch.utils.data import DataLoader, TensorDataset


def loader_options():
    opts = {"num_workers": 8}
    opts.setdefault("drop_last", False)
    return opts


kwargs = {"num_workers": 4, "pin_memory": True}
kwargs.update({"batch_size": 64})
more = dict(kwargs, shuffle=True)
more.setdefault("num_workers", 2)
merged = {**more, **loader_options()}
ds = TensorDataset(torch.zeros(8, 2))
loader = DataLoader(ds, **merged)
