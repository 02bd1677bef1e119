#!/usr/bin/env python3
"""A dama bot in 40 lines, Python's standard library only: it offers a seek in the
lobby, waits for someone to accept it, and plays a random legal move whenever it is
its turn.  Usage: bot.py URL TOKEN [VARIANT]   (make the token at POST /api/tokens)"""
import json, random, sys, urllib.parse, urllib.request

URL, TOKEN = sys.argv[1].rstrip("/"), sys.argv[2]
VARIANT = sys.argv[3] if len(sys.argv) > 3 else "english"
HEADERS = {"Authorization": "Bearer " + TOKEN, "Content-Type": "application/json"}

def call(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(URL + path, data=data, headers=HEADERS, method=method)
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read() or b"null")


def stream(path):  # newline-delimited JSON; empty lines only keep the connection open
    with urllib.request.urlopen(urllib.request.Request(URL + path, headers=HEADERS)) as r:
        for raw in r:
            if raw.strip():
                yield json.loads(raw)


def play(game, color):
    for event in stream("/api/bot/game/stream/" + game):
        state = event.get("state", event)  # gameFull carries the state inside
        if state["status"] == "finished":
            return state["result"]["text"]
        if state["side_to_move"] == color and state["legal"]:
            move = urllib.parse.quote(random.choice(state["legal"]))
            call("POST", f"/api/bot/game/{game}/move/{move}")


seek = call("POST", "/api/seeks", {"variant": VARIANT})
print("seeking a game:", seek["id"], flush=True)
for event in stream("/api/stream/event"):
    if event["type"] == "gameStart":
        print("game over:", play(event["game"]["id"], event["game"]["color"]), flush=True)
        break
