from logging import getLogger

logger = getLogger()


def init(step):
    logger.info(f"step {step}")
