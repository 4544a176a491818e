# `locals()` in a function is a snapshot of its variables: writing into it
# rebinds none of them, so it is no construct detc cannot see (spinningup's
# `logger.save_config(locals())`, at the top of every algorithm, was
# reported). At module level it is globals(), which a write does change.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK-NOT: warning:
# CHECK: locals_snapshot.py:[[@LINE+13]]:1: warning: 'locals' changes the program in ways detc cannot see [detc-unknown-construct]
# CHECK-NOT: warning:
import json


def save_config(config):
    return json.dumps({k: str(v) for k, v in config.items()})


def train(epochs=3, lr=0.1):
    save_config(locals())


locals()["epochs"] = 2
train()
