"""What a run writes: failure records, the results JSON every report renders, replay files, and
what is redacted and bounded in all of them.
"""
