# A name bound nowhere is no quiet builtin. Two of eriklindernoren/
# PyTorch-GAN's scripts (bgan, dragan) train with `for i, (imgs, _) in
# enumerate(mnist_loader):`, a loader the script never defines: the tables
# declare builtins quiet, every unbound name was taken for one, and the
# loop — numpy's noise drawn per batch — was no training loop (0 warnings,
# NameError at run time). Such a name is a finding of its own, and an
# unknown object: the loop over it is a data-parallel region. Names bound
# in any scope (a comprehension's, an exception handler's, a `global`
# assigned in a function, a class body's) and real builtins are not.
# RUN: detc analyze %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: undefined_names.py:[[@LINE+27]]:35: warning: 'mnist_loader' is not defined: no statement binds it and it is no builtin, so Python raises NameError here; detc takes it for an unknown object (it may be anything) [detc-undefined-name]
# CHECK: undefined_names.py:[[@LINE+27]]:30: warning: generator 'np.random' (global) is used inside the per-batch data-parallel region that starts at {{.*}}undefined_names.py:[[@LINE+26]]:5 [detc-unsafe-rng]
# CHECK: 1 warning(s)
import numpy as np
import torch
import torch.nn as nn


class Noise:
    scale = 0.5
    doubled = scale * 2

    def __repr__(self):
        return "%s(%s)" % (__class__.__name__, self.doubled)


def setup():
    global generator, optimizer
    generator = nn.Linear(4, 4)
    optimizer = torch.optim.Adam(generator.parameters())


setup()
np.random.seed(0)
squares = [k * k for k in range(3) if k]
print(__file__, __name__, len(squares), Noise())
for epoch in range(2):
    for i, (imgs, _) in enumerate(mnist_loader):
        z = torch.from_numpy(np.random.normal(0, 1, (imgs.shape[0], 4)))
        try:
            optimizer.zero_grad()
            generator(z.float()).sum().backward()
            optimizer.step()
        except RuntimeError as e:
            print(e)


def report(rows):
    def fmt(r):
        return "%d" % (r + offset)
    offset = 1
    with open(__file__) as src:
        head = src.readline()
    if (n := len(rows)) > 1:
        print(n, head)
    return sorted(map(fmt, rows), key=lambda t: (len(t), t))


print(report(squares))
