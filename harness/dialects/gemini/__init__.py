"""The Gemini `streamGenerateContent` dialect (`gemini-generate-content`): its built-in SDK
targets live in `targets`. (The dialect's registration is another branch's; this module
only makes the package importable.)"""
