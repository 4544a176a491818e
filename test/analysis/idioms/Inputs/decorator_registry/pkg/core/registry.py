import importlib


class Registry:
    def __init__(self, name):
        self._entries = {}
        self._name = name

    def __setitem__(self, key, value):
        if key is None:
            key = value.__name__
        self._entries[key] = value

    def __getitem__(self, key):
        return self._entries[key]

    def register(self, target):
        def add(key, value):
            self[key] = value
            return value

        if callable(target):
            return add(None, target)
        return lambda x: add(target, x)


ALGORITHMS = Registry("algorithms")

# Every module that registers an algorithm, by package.
ALL_MODULES = [
    ("pkg.algs", ["noisy", "plain"]),
]


def import_all():
    all_modules = ALL_MODULES
    for base, names in all_modules:
        for name in names:
            if base:
                full_name = base + "." + name
            else:
                full_name = name
            importlib.import_module(full_name)
