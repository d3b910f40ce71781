"""Differential: on any stream, lossless or not, the target folds as the reference does.

Streams outside the lossless families (cut off, chunks lost, repeated or swapped, an
error chunk mid-stream, wrongly typed or blank fields) have no known completion; the
reference's fold of the same chunks is the oracle. A stream only uses shapes whose fold
the target claims: wrongly typed fields only with `robustness`, and so on.
"""

from __future__ import annotations

from hypothesis import given, note
from hypothesis import strategies as st

from refold.checks import Check
from refold.marks import rule
from refold.strategies import chunk_streams


@rule("TEXT-JOIN", "CHOICE-KEY", "CHOICE-FINISH", "ENV-ID", "ENV-NO-ERROR")
@given(data=st.data())
def test_damaged_streams_fold_like_the_reference(check: Check, data: st.DataObject) -> None:
    features = check.target.features - {"robustness"}
    chunks = data.draw(chunk_streams(features=features), label="chunks")
    note(f"{len(chunks)} chunks, features {sorted(features)}")
    check.folds_like_reference(chunks)


@rule("ROB-WRONG-TYPE", "ROB-BLANK", "ROB-NULL-ENTRIES", "TOOL-NO-INDEX")
@given(data=st.data())
def test_malformed_streams_fold_like_the_reference(check: Check, data: st.DataObject) -> None:
    chunks = data.draw(chunk_streams(features=check.target.features), label="chunks")
    check.folds_like_reference(chunks)
