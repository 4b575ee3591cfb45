"""FastMCP's reference skills server: its own SkillsDirectoryProvider over one folder, on stdio.

    python fastmcp_server.py DIR
"""

import sys

from fastmcp import FastMCP
from fastmcp.skills.provider import SkillsDirectoryProvider

server = FastMCP("fastmcp-skills")
server.add_provider(SkillsDirectoryProvider(sys.argv[1]))

if __name__ == "__main__":
    server.run(show_banner=False)
