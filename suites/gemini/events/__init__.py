"""The provider-neutral events suites written in Gemini `streamGenerateContent` streams: its
mapping to neutral events, row by row. They are the provider-events dialect's (its run
collects them), kept with the dialect whose streams they are written in."""
