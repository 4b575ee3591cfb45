"""The one client both servers are timed with: plain JSON-RPC over the server's stdin/stdout,
protocol 2026-07-28 (every request carries its own _meta; no handshake), one request at a time,
each a whole round trip. It lists every skill (`skills/list`, following nextCursor) and then
reads every file of every skill (`resources/read`), checking each file's size against the
manifest, and prints the two times in seconds as JSON.

    python client.py COMMAND ARGS...
"""

import base64
import json
import subprocess
import sys
import time

META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "mcp-bench", "version": "1.0"},
    "io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/skills": {}}},
}


class Server:
    def __init__(self, command):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.reader = self.process.stdout
        self.next_id = 0

    def request(self, method, params):
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": {**params, "_meta": META}}
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()
        while True:
            line = self.reader.readline()
            if not line:
                raise RuntimeError(f"the server closed its output during {method}")
            answer = json.loads(line)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer["result"]

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=30)


def main():
    server = Server(sys.argv[1:])
    server.request("server/discover", {})
    started = time.perf_counter()
    skills, cursor = [], None
    while True:
        page = server.request("skills/list", {"cursor": cursor} if cursor else {})
        skills += page["skills"]
        cursor = page.get("nextCursor")
        if not cursor:
            break
    listed = time.perf_counter()
    files = 0
    for skill in skills:
        for record in skill["resources"]:
            content = server.request("resources/read", {"uri": record["uri"]})["contents"][0]
            data = content["text"].encode() if "text" in content else base64.b64decode(content["blob"])
            if len(data) != record["size"]:
                raise RuntimeError(f"{record['uri']}: {len(data)} bytes, manifest says {record['size']}")
            files += 1
    read = time.perf_counter()
    server.close()
    print(json.dumps({"skills": len(skills), "files": files, "list_s": listed - started, "read_s": read - listed}))


if __name__ == "__main__":
    main()
