"""The catalogue of known fold policies, per dialect (`refold.policies`).

A policy is a small, named variation of a dialect's reference fold that real libraries
apply ("sums usage across chunks", as langchain-core 1.8.3 does): `Policy` (name, the
rules it breaks, the libraries known to apply it, its fold). Each dialect registers its
catalogue as `Dialect.policies`; `refold.diagnosis` names the policies that reproduce a
failing target's output. The catalogue is `docs/policies.md`.
"""

from ._policy import Policy, PolicyRaised
from .anthropic import ANTHROPIC_POLICIES
from .chat import CHAT_POLICIES
from .responses import RESPONSES_POLICIES

__all__ = ["ANTHROPIC_POLICIES", "CHAT_POLICIES", "RESPONSES_POLICIES", "Policy",
           "PolicyRaised"]
