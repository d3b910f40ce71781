"""The built-in targets of real SDKs for Gemini `streamGenerateContent` (`--target NAME`)."""

SDK_TARGETS: dict[str, str] = {}
"""Built-in target names and the Python object each stands for."""
