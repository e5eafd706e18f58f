"""The host's CPU model name, which every speed figure a bench script prints
names (docs/PERFORMANCE.md: a figure without its host is not one)."""


def host():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"
