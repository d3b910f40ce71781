"""Captures and corpora: streams read from files (HAR, SSE, JSON) and sniffed for their
dialect, turned into corpus cases, and a corpus replayed in a run.
"""
