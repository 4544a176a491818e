from .model_utils import make_model

__all__ = ["make_model"]
