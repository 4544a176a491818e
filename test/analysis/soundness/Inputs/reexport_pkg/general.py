from missinglib.utils import LOGGER, colorstr  # noqa: F401
