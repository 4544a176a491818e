# Next to the script: first on sys.path, it shadows the standard library.
import random


def jitter(x):
    return x + random.random()
