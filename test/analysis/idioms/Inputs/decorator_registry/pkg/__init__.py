from .core.registry import ALGORITHMS
