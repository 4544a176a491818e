# Data loading: worker counts from literals, kwargs dicts and the command
# line; per-example regions running __getitem__ and its transform; the
# per-batch region around the loop body; enumerate() over a loader.
# RUN: detc %s | FileCheck %s
import argparse
import random

from torch.utils.data import DataLoader, Dataset


class Squares(Dataset):
    def __init__(self, transform=None):
        self.transform = transform

    def __len__(self):
        return 10

    def __getitem__(self, i):
        return self.transform(i * i + random.random())


class Jitter:
    def __call__(self, v):
        return v + random.gauss(0.0, 1.0)


parser = argparse.ArgumentParser()
args = parser.parse_args()
ds = Squares(Jitter())

# CHECK: detc.batches "@ds" workers "0" defs ["@sequential"]
sequential = DataLoader(ds, batch_size=2)
# CHECK: detc.batches "@ds" shuffle "<torch>" workers "4" defs ["@fixed"]
fixed = DataLoader(ds, batch_size=2, shuffle=True, num_workers=4)
# CHECK: detc.batches "@ds" workers "3" defs ["@from_dict"] uses ["@ds", "@kw"]
kw = dict(batch_size=2)
kw = {"num_workers": 3, "batch_size": 2}
from_dict = DataLoader(ds, **kw)
# CHECK: detc.batches "@ds" shuffle "<torch>" workers "unknown" defs ["@from_cli"] uses ["@ds", "@cli_kw"]
cli_kw = {"batch_size": 2}
cli_kw["num_workers"] = args.workers
from_cli = DataLoader(ds, **cli_kw)

# Sequential loading: __getitem__ runs in the fetch, outside any region.
# CHECK: detc.for uses ["@sequential"] {
# CHECK-NEXT: detc.fetch "@sequential" defs ["@x"] uses ["@sequential"] attributes {arity = -1 : i64} {
# CHECK-NEXT: detc.call @Squares::@__getitem__ bind {self = "@sequential.dataset"}
# CHECK: detc.parallel per_batch uses ["@x"] {
for x in sequential:
    pass

# A shuffled loader draws a permutation each time the loop starts; with
# workers, examples are produced in a per-example region.
# CHECK: detc.draw "<torch>" dist "permutation" updates ["@from_cli"] uses ["@from_cli"] {api = "torch.utils.data.DataLoader.__iter__"}
# CHECK-NOT: detc.draw
# CHECK: detc.for uses ["@from_cli"] {
# CHECK-NEXT: detc.fetch "@from_cli" defs ["@step", "@x", "@y"] uses ["@from_cli"] attributes {arity = 2 : i64} {
# CHECK-NEXT: detc.parallel per_example workers "unknown" uses ["@from_cli"] {
# CHECK-NEXT: detc.call @Squares::@__getitem__ bind {self = "@from_cli.dataset"}
# CHECK: detc.parallel per_batch uses ["@x", "@y"] {
# CHECK-NEXT: detc.stmt "expr" uses ["@step", "@x", "@y"]
cli_kw["shuffle"] = True
for step, (x, y) in enumerate(from_cli):
    print(step, x, y)

# The transform's draw is reached from __getitem__.
# CHECK-LABEL: detc.class @Squares role dataset
# CHECK: detc.func @__getitem__ kind method params ["self", "i"]
# CHECK: detc.draw "<random>" dist "sample" defs ["$0"] {api = "random.random"}
# The expression argument reaches the parameter through a temporary.
# CHECK-NEXT: detc.stmt "assign" defs ["[[ARG:[$][0-9]+]]"] uses ["$0", "i"]
# CHECK-NEXT: detc.call @Jitter::@__call__ bind {self = "self.transform", v = "[[ARG]]"}
# CHECK-LABEL: detc.class @Jitter role transform
# CHECK: detc.draw "<random>" dist "sample" defs ["$0"] {api = "random.gauss"}
