def _checkpoint(label=None):
    pass


def train_step(state):
    return state + 1


state = 0
for epoch in range(4):
    _iterations: 4
    for step in range(100):
        _iterations: 100
        state = train_step(state)  # detc: cost=1
        _checkpoint("step")  # detc: cost=30
    _checkpoint("epoch")  # detc: cost=2
