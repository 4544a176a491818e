# Importing any module of the package runs this first: every algorithm
# module is imported here, and registers itself.
from .registry import import_all

import_all()
