"""`refold serve`: loopback servers that answer a dialect's API with drawn results, or a
corpus's cases byte for byte.
"""
