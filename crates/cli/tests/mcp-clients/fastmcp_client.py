"""Drives Skillcase with the FastMCP client (`fastmcp` 4.x): one scenario per run.

    python fastmcp_client.py SCENARIO (--stdio SKILLCASE | --http URL --token T) --skills-dir D --data-dir D

FastMCP's own Skills support does the verifying here: `read_skill` fetches every file of a
skill and refuses one whose size, SHA-256 digest or frontmatter differs from the entry.
"""

import asyncio
import os
import time

from fastmcp import Client
from fastmcp.client.transports import StdioTransport, StreamableHttpTransport
from fastmcp.skills.client import SkillsClientExtension
from mcp.client.subscriptions import listen
from mcp.shared.exceptions import MCPError

import checks
from checks import BROKEN, HIDDEN, VISIBLE, expect


def connect(args):
    if args.stdio:
        transport = StdioTransport(
            command=args.stdio, args=["mcp", "--skills-dir", args.skills_dir], env=checks.child_env(args)
        )
    else:
        transport = StreamableHttpTransport(args.http, headers={"Authorization": f"Bearer {args.token}"})
    return Client(transport, extensions=[SkillsClientExtension()], mode=args.mode)


async def skills(args):
    async with connect(args) as client:
        listed = await client.list_skills()
        names = [s.frontmatter.root["name"] for s in listed]
        expect(VISIBLE in names and HIDDEN not in names and BROKEN not in names, f"listing: {names[:5]}...")
        files = 0
        for entry in listed:
            skill = await client.read_skill(entry.uri)
            expect(skill.name == entry.frontmatter.root["name"], entry.uri)
            for record in entry.resources:
                path = checks.on_disk(args, record.uri)
                with open(path, "rb") as f:
                    on_disk = f.read()
                relative = record.uri.removeprefix(f"skill://{skill.name}/")
                expect(skill.files[relative] == on_disk, f"{record.uri} is byte-exact")
                files += checks.in_fixture(args, skill.name)
        hidden = await client.read_skill(f"skill://{HIDDEN}/SKILL.md")
        expect(hidden.name == HIDDEN, "a hidden skill is read by URI")
        try:
            await client.get_skill(f"skill://{BROKEN}/SKILL.md")
            raise AssertionError("a broken skill was served")
        except MCPError as error:
            broken = error.error.code
        fixture = [name for name in names if checks.in_fixture(args, name)]
        return {"protocol": client.protocol_version, "listed": len(fixture), "files_verified": files, "get_broken": broken}


async def tools(args):
    async with connect(args) as client:
        names = sorted(t.name for t in await client.list_tools())
        index = (await client.get_prompt("skills_index")).messages[0].content.text
        expect('<skill name="filler-000"' in index, "level 1")

        async def call(name, arguments):
            result = await client.call_tool(name, arguments, raise_on_error=False)
            return result.is_error, result.structured_content

        outcome = {}
        _, matched = await call("match_skills", {"conversation_id": "f1", "message": "qual o frete?"})
        outcome["match_skills"] = [m["name"] for m in matched["hard"]]
        _, read = await call("read_skill", {"name": VISIBLE, "conversation_id": "f1"})
        outcome["read_skill"] = read["required"]
        _, file = await call("read_skill_file", {"name": VISIBLE, "path": "references/prazos.md", "conversation_id": "f1"})
        outcome["read_skill_file"] = file["path"]
        _, opened = await call("open_case", {"conversation_id": "f-case", "title": "Troca", "summary": "Produto com defeito", "reason": "missing_knowledge"})
        case_id = opened["case"]["id"]
        outcome["open_case"] = opened["already_open"]
        outcome["open_case_reason"] = opened["case"]["reason"]
        error, typo = await call("open_case", {"conversation_id": "f-typo", "title": "Troca", "summary": "Defeito", "reason": "missing"})
        outcome["open_case_unknown_reason"] = typo["code"] if error else "opened"
        error, update = await call("provide_case_update", {"case_id": case_id, "info": "nota 123"})
        outcome["provide_case_update"] = update["code"] if error else "accepted"
        _, event = await call("record_case_event", {"case_id": case_id, "kind": "cancel"})
        outcome["record_case_event"] = event["case"]["status"]
        _, fetched = await call("get_case", {"case_id": case_id})
        outcome["get_case"] = fetched["case"]["status"]
        _, verdict = await call("check_message", {"conversation_id": "f2", "turn_id": "1", "message": "Someone from billing will call you tomorrow."})
        outcome["check_message"] = verdict["verdict"]
        error, missing = await call("read_skill_file", {"name": VISIBLE, "path": "references/prazos.md"})
        outcome["read_skill_file_without_conversation"] = missing["code"] if error else "read"
        return {"protocol": client.protocol_version, "tools": names, "outcome": outcome}


async def notify(args):
    prazos = f"skill://{VISIBLE}/references/prazos.md"
    async with connect(args) as client:
        seen = []
        async with listen(client.session, resources_list_changed=True, resource_subscriptions=[prazos]) as sub:
            written = checks.touch_skill(args)

            async def first():
                async for event in sub:
                    seen.append((type(event).__name__, getattr(event, "uri", None), time.monotonic() - written))
                    if len({kind for kind, _, _ in seen}) == 2:
                        return

            await asyncio.wait_for(first(), timeout=10)
        skill = await client.read_skill(f"skill://{VISIBLE}/SKILL.md", cache_mode="refresh")
        expect(skill.files["references/prazos.md"].endswith("Norte: 7 dias úteis.\n".encode()), "the new content is served")
        return {
            "protocol": client.protocol_version,
            "events": sorted({(kind, uri) for kind, uri, _ in seen}, key=str),
            "seconds": max(at for _, _, at in seen),
        }


def main():
    args = checks.arguments()
    scenario = {"skills": skills, "tools": tools, "notify": notify}[args.scenario]
    checks.report(asyncio.run(scenario(args)))


if __name__ == "__main__":
    main()
