import random


def flip(x):
    return x.flip(0) if random.random() < 0.5 else x
