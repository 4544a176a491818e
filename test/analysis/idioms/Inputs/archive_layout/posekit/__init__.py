from . import datasets
