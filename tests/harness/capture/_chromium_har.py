"""A HAR file recorded by headless Chromium, through the Chrome DevTools protocol.

DevTools' own "Save all as HAR" builds the file from the same protocol events this does:
`Network.requestWillBeSent`, `Network.responseReceived`, `Network.loadingFinished`, and
each body from `Network.getResponseBody`. The page fetches each URL with `fetch()`, so the
bytes are the ones Chromium's network stack received from the server.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


class _Session:
    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.next_id = 0
        self.events: list[dict[str, Any]] = []

    async def call(self, method: str, session: str | None = None, **params: Any) -> Any:
        self.next_id += 1
        message: dict[str, Any] = {"id": self.next_id, "method": method, "params": params}
        if session is not None:
            message["sessionId"] = session
        await self.socket.send(json.dumps(message))
        while True:
            reply = json.loads(await self.socket.recv())
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)


def _entries(
    events: list[dict[str, Any]], bodies: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    requests = {
        e["params"]["requestId"]: e["params"]
        for e in events
        if e.get("method") == "Network.requestWillBeSent"
    }
    responses = {
        e["params"]["requestId"]: e["params"]["response"]
        for e in events
        if e.get("method") == "Network.responseReceived"
    }
    entries = []
    for request_id, sent in requests.items():
        response = responses.get(request_id)
        if response is None or request_id not in bodies:
            continue
        body = bodies[request_id]
        content: dict[str, Any] = {
            "size": len(body["body"]),
            "mimeType": response["mimeType"],
            "text": body["body"],
        }
        if body.get("base64Encoded"):
            content["encoding"] = "base64"
        entries.append(
            {
                "startedDateTime": time.strftime(
                    "%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(sent.get("wallTime", 0))
                ),
                "time": 0,
                "request": {
                    "method": sent["request"]["method"],
                    "url": sent["request"]["url"],
                    "httpVersion": "HTTP/1.1",
                    "cookies": [],
                    "queryString": [],
                    "headers": [
                        {"name": k, "value": v} for k, v in sent["request"]["headers"].items()
                    ],
                    "headersSize": -1,
                    "bodySize": -1,
                },
                "response": {
                    "status": response["status"],
                    "statusText": response["statusText"],
                    "httpVersion": response.get("protocol", "http/1.0").upper(),
                    "cookies": [],
                    "redirectURL": "",
                    "headersSize": -1,
                    "bodySize": -1,
                    "headers": [{"name": k, "value": v} for k, v in response["headers"].items()],
                    "content": content,
                },
                "cache": {},
                "timings": {"send": 0, "wait": 0, "receive": 0},
            }
        )
    return entries


async def _record(port: int, page_url: str, posts: list[str]) -> dict[str, Any]:
    import websockets

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/version", timeout=10) as page:
        version = json.loads(page.read())
    async with websockets.connect(version["webSocketDebuggerUrl"], max_size=None) as socket:
        cdp = _Session(socket)
        target = await cdp.call("Target.createTarget", url="about:blank")
        attached = await cdp.call(
            "Target.attachToTarget", targetId=target["targetId"], flatten=True
        )
        session = attached["sessionId"]
        await cdp.call("Network.enable", session)
        await cdp.call("Page.navigate", session, url=page_url)
        script = (
            f"Promise.all({json.dumps(posts)}.map(u => fetch(u, "
            "{method: 'POST', body: '{}'}).then(r => r.text())))"
        )
        await cdp.call("Runtime.evaluate", session, expression=script, awaitPromise=True)
        finished = [
            e["params"]["requestId"]
            for e in cdp.events
            if e.get("method") == "Network.loadingFinished"
        ]
        bodies = {}
        for request_id in finished:
            bodies[request_id] = await cdp.call(
                "Network.getResponseBody", session, requestId=request_id
            )
        return {
            "log": {
                "version": "1.2",
                "creator": {"name": "refold tests (Chrome DevTools protocol)", "version": "1"},
                "pages": [],
                "entries": _entries(cdp.events, bodies),
            }
        }


def record_har(profile: Path, page_url: str, posts: list[str]) -> dict[str, Any]:
    """Open `page_url` in headless Chromium, `fetch()` each of `posts` from it with POST,
    and return the HAR of everything it loaded."""
    assert CHROMIUM is not None
    process = subprocess.Popen(
        [
            CHROMIUM,
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            f"--user-data-dir={profile}",
            "--remote-debugging-port=0",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        active = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not (active.exists() and active.read_text().count("\n") >= 1):
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError("chromium did not open its DevTools port")
            time.sleep(0.05)
        port = int(active.read_text().split()[0])
        return asyncio.run(asyncio.wait_for(_record(port, page_url, posts), 60))
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
