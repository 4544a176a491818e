from pkg.core.registry import ALGORITHMS


def get_algorithm(name, loader):
    return ALGORITHMS[name](loader)
