# A random call in a batch region that detc has no keyed version of is
# never silent. By default (issue 18: never refuse a real script) it is a
# warning naming the call and its line, the call stays as it is, the script
# is emitted, a note says which calls break the guarantee, and the emitted
# script says so when it runs. With --strict it is an error and nothing is
# written.
# RUN: rm -f %t.out %t.strict
# RUN: detc transform %s --emit-python -o %t.out 2>&1 | FileCheck %s --check-prefix=WARN
# RUN: FileCheck %s --check-prefix=EMITTED < %t.out
# RUN: not detc transform %s --emit-python --strict -o %t.strict 2>&1 | FileCheck %s --check-prefix=STRICT
# RUN: not test -e %t.strict
# WARN: unrewritable.py:[[@LINE+12]]:12: warning: cannot make the random call '*.exponential_' (generator 'torch' (global)) deterministic inside a batch region: detc has no per-example keyed version of it [detc-unrewritable]; the call is left as it is
# WARN: detc: note: {{.*}}unrewritable.py: 1 random call(s) left nondeterministic (unrewritable.py:[[@LINE+11]]; warnings above)
# EMITTED: _detc_rt.configure({{.*}}left_nondeterministic=('unrewritable.py:[[@LINE+10]]', ))
# EMITTED: pick = w.exponential_(){{$}}
# STRICT: unrewritable.py:[[@LINE+8]]:12: error: cannot make the random call '*.exponential_' (generator 'torch' (global)) deterministic inside a batch region: detc has no per-example keyed version of it [detc-unrewritable]
import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
loader = DataLoader(TensorDataset(torch.rand(8, 3)), batch_size=4)
for (x,) in loader:
    w = x.softmax(1)
    pick = w.exponential_()
