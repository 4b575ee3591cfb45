"""A real MCP client for the end-to-end suite: the official Python MCP SDK (`mcp` 2.x, from the
virtualenv the CLI's MCP tests make), connected to Skillcase the way an agent's host would be.

    python mcp_agent.py --name NAME --version V --stdio CONFIG_JSON
    python mcp_agent.py --name NAME --version V --http URL --token TOKEN

`--stdio` takes the `mcpServers` configuration Settings offers to copy and starts its
`skillcase` entry exactly as written (command, args, env). The client introduces itself with
`initialize` (NAME, V), lists the tools, prints one JSON line (`{"connected": true, ...}`) and
stays connected until its standard input closes; then it disconnects cleanly and exits.
"""

import argparse
import asyncio
import json
import sys

import httpx2
import mcp_types as types
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client


def server_of(args):
    if args.stdio:
        entry = json.loads(args.stdio)["mcpServers"]["skillcase"]
        return StdioServerParameters(command=entry["command"], args=entry["args"], env=entry.get("env"))
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {args.token}"}, timeout=30)
    return streamable_http_client(args.http, http_client=http)


async def until_stdin_closes():
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


async def main(args):
    client = Client(
        server_of(args),
        mode="legacy",
        client_info=types.Implementation(name=args.name, version=args.version),
        cache=None,
    )
    async with client:
        tools = await client.list_tools()
        print(json.dumps({"connected": True, "protocol": client.protocol_version, "tools": len(tools.tools)}), flush=True)
        await until_stdin_closes()
    print(json.dumps({"disconnected": True}), flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--stdio")
    parser.add_argument("--http")
    parser.add_argument("--token")
    asyncio.run(main(parser.parse_args()))
