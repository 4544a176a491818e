from .noise import jitter
