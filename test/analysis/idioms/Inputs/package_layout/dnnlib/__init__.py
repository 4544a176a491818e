# A package whose first line starts with a byte order mark.
from .util import EasyDict
