from .util import EasyDict
