"""What every built-in SDK target shares (`refold.targets.sdk`).

Each dialect's SDK targets live in its own package (`refold.dialects.<dialect>.targets`,
registered as `Dialect.sdk_targets`); here are the pieces they share: `_requires` (an SDK
that is not installed is a `UsageError` naming the extra to install), `_fed_stream` (a
stream fed to an SDK one item at a time), `decoders` (the SSE decoders of feature `sse`
and the `DecodedStream` the target protocol carries), `reproducers` (the runnable
reproducer a report gives for a built-in target), `offline` (an SDK's wire layer served
and decoded in memory: named SSE frames, an httpx2 client answered by a handler, its
`Stream`'s decoding, a client read and closed), `offline_reproducer` (the reproducer of
a target built on `offline`), `litellm_completion` (litellm's completion path, offline),
`summing` (a LangChain fold's served events, summed chunks and the message sent back),
`results` (an SDK's additions dropped) and `nodejs` with `node/`: how the Node.js
targets run (each a JavaScript file in its dialect's package that drives a JavaScript SDK
the same way), the helpers they share to serve it over the `exec:` protocol (`node/`'s
`index.js`), and their npm packages, pinned by `node/package-lock.json` and installed
once in that folder (`npm ci --prefix` it).
"""
