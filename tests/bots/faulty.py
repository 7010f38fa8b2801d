#!/usr/bin/env python3
"""A bot that breaks the protocol on purpose, for tests/bot_protocol.rs.

    faulty.py MODE        (environment: FAULTY_PIDS=PIDFILE)

It appends its process id to PIDFILE first thing, then plays the first legal action
(staying within the protocol) until the fault MODE says otherwise:
  ok             never breaks the protocol
  exit_hello     exits instead of answering the hello
  bad_hello      answers the hello without a name
  wrong_version  answers the hello with protocol 2
  exit_decide    exits at its 3rd decision (status 3)
  hang           never answers its 3rd decision
  not_json       answers its 3rd decision with a line that is not JSON
  out_of_range   answers its 3rd decision with an index past the last action
  no_index       answers its 3rd decision without an index
  idle           answers every decision with null (stays idle where allowed)
"""

import json
import os
import sys
import time

mode, pidfile = sys.argv[1], os.environ["FAULTY_PIDS"]
with open(pidfile, "a") as f:
    f.write(f"{os.getpid()}\n")


def send(obj):
    sys.stdout.write((obj if isinstance(obj, str) else json.dumps(obj)) + "\n")
    sys.stdout.flush()


decisions = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        if mode == "exit_hello":
            sys.exit(1)
        hello = {"type": "hello", "protocol": 1, "name": "faulty", "version": mode}
        if mode == "bad_hello":
            del hello["name"]
        if mode == "wrong_version":
            hello["protocol"] = 2
        send(hello)
    elif msg["type"] == "decide":
        decisions += 1
        if decisions == 3 and mode == "exit_decide":
            sys.exit(3)
        if decisions == 3 and mode == "hang":
            time.sleep(3600)
        if decisions == 3 and mode == "not_json":
            send("this is not json, the index is 0")
        elif decisions == 3 and mode == "out_of_range":
            send({"index": len(msg["actions"])})
        elif decisions == 3 and mode == "no_index":
            send({"choice": 0})
        elif mode == "idle":
            send({"index": None})
        else:
            send({"index": 0})
    elif msg["type"] == "quit":
        break
