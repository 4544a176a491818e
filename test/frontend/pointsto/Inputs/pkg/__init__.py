"""A package re-exporting make_model from its submodule."""
from .model_utils import make_model
