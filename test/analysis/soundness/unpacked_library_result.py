# Parts unpacked from what code detc cannot read returned are values of
# unknown type (opacus's shape: `model, optimizer, loader =
# privacy_engine.make_private(...)` rebinds the script's model, optimizer
# and loader to opacus's wrappers; DPOptimizer.step() adds Gaussian noise).
# Before, the parts held nothing, so the variables kept only what they held
# before: `opt.step()` was torch's SGD step and the noise was silent. Now
# each call on them may run that code: a may-draw in the per-batch region.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
import torch
import torch.nn as nn
# CHECK-DAG: .py:[[@LINE+1]]:21: warning: cannot resolve import 'privlib'
from privlib import PrivacyEngine

model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = torch.utils.data.DataLoader(torch.randn(16, 3), batch_size=4)
engine = PrivacyEngine()
# CHECK-DAG: .py:[[@LINE+1]]:22: warning: may draw: 'engine.make_private' calls code detc could not read
model, opt, loader = engine.make_private(module=model, optimizer=opt, data_loader=loader)
for x in loader:
    # A method a table gives any receiver (zero_grad) or a tensor has
    # (clone, below) is taken as that type's, as on any value of unknown
    # type: no may-draw.
    opt.zero_grad()
    # CHECK-DAG: .py:[[@LINE+1]]:5: warning: may draw: 'model' calls code detc could not read, inside the per-batch data-parallel region that starts at {{.*}}.py:[[@LINE-5]]:1
    model(x).sum().backward()
    # CHECK-DAG: .py:[[@LINE+2]]:5: warning: may draw: 'opt.step' calls code detc could not read
    # CHECK-DAG: .py:[[@LINE+1]]:5: note: 'opt.step' is a value 'privlib.PrivacyEngine.make_private' returned, whose type detc does not know: its methods may be any code, random draws included
    opt.step()
    # CHECK-DAG: .py:[[@LINE+1]]:14: warning: may draw: 'engine.bounds' calls code detc could not read
    lo, hi = engine.bounds()
    x = x.clamp(lo.clone(), hi.clone())
# Values a library modelled as quiet returned stay quiet (matplotlib's).
import matplotlib.pyplot as plt

fig, ax = plt.subplots()
ax.plot([1, 2])
# CHECK: 4 warning(s)
