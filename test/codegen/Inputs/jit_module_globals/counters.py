SEEN = []


def bump(n):
    SEEN.append(n + len(SEEN))
