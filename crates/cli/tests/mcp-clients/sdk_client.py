"""Drives Skillcase with the official Python MCP SDK (`mcp` 2.x): one scenario per run.

    python sdk_client.py SCENARIO (--stdio SKILLCASE | --http URL --token T) --skills-dir D --data-dir D [--mode auto|legacy]

`auto` negotiates protocol 2026-07-28 (server/discover, per-request metadata,
subscriptions/listen); `legacy` the initialize handshake of 2025-11-25 (resources/subscribe).
"""

import asyncio
import base64
import os
import time
from typing import Any

import httpx2
import mcp_types as types
from mcp.client.client import Client
from mcp.client.extension import advertise
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from pydantic import TypeAdapter

import checks
from checks import BROKEN, HIDDEN, SKILLS_EXTENSION, VISIBLE, expect

ANY = TypeAdapter(dict[str, Any])
INVALID_PARAMS = -32602


def connect(args, mode, message_handler=None):
    if args.stdio:
        server = StdioServerParameters(
            command=args.stdio, args=["mcp", "--skills-dir", args.skills_dir], env=checks.child_env(args)
        )
    else:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {args.token}"}, timeout=30)
        server = streamable_http_client(args.http, http_client=http)
    return Client(
        server,
        mode=mode,
        extensions=[advertise(SKILLS_EXTENSION)],
        client_info=types.Implementation(name="python-sdk-test", version="2.3.0"),
        message_handler=message_handler,
        cache=None,
    )


async def call(client, method, params):
    """A request the SDK has no method for (the Skills extension's), answered as a plain object."""
    request = types.Request[dict[str, Any] | None, str](method=method, params=params)
    return await client.session.send_request(request, ANY)


async def refused(client, method, params):
    try:
        await call(client, method, params)
    except MCPError as error:
        return error.error.code
    raise AssertionError(f"{method} {params} was answered")


def content_bytes(result):
    contents = result.contents
    expect(len(contents) == 1, f"one content block, got {len(contents)}")
    (content,) = contents
    if isinstance(content, types.TextResourceContents):
        return content.text.encode("utf-8"), "text"
    return base64.b64decode(content.blob), "blob"


async def skills(args, mode):
    async with connect(args, mode) as client:
        facts = {"protocol": client.protocol_version}
        caps = client.server_capabilities
        expect(caps.extensions[SKILLS_EXTENSION] == {"directoryRead": True}, f"extension declared: {caps.extensions}")
        expect(caps.resources is not None, "the resources capability is declared")
        listed, cursor, pages = [], None, 0
        while True:
            page = await call(client, "skills/list", {"cursor": cursor} if cursor else {})
            expect(page["resultType"] == "complete", "resultType")
            expect(page["ttlMs"] > 0 and page["cacheScope"] in ("public", "private"), "cache hints")
            listed += page["skills"]
            pages += 1
            cursor = page.get("nextCursor")
            if not cursor:
                break
        names = [s["frontmatter"]["name"] for s in listed]
        expect(VISIBLE in names, f"{VISIBLE} listed")
        expect(HIDDEN not in names and BROKEN not in names, "hidden and broken skills are not listed")
        expect(names == sorted(names) and len(set(names)) == len(names), "each skill once, by name")
        files = blobs = 0
        fixture = [s for s in listed if checks.in_fixture(args, s["frontmatter"]["name"])]
        for skill in listed:
            expect(skill["uri"] == f"skill://{skill['frontmatter']['name']}/SKILL.md", skill["uri"])
            expect(any(r["uri"] == skill["uri"] for r in skill["resources"]), "SKILL.md is in its manifest")
            for record in skill["resources"]:
                content, kind = content_bytes(await client.read_resource(record["uri"]))
                checks.verify_file(checks.on_disk(args, record["uri"]), content, record)
                if skill in fixture:
                    files += 1
                    blobs += kind == "blob"
        visible = next(s for s in listed if s["frontmatter"]["name"] == VISIBLE)
        facts["visible_frontmatter"] = visible["frontmatter"]
        hidden = await call(client, "skills/get", {"uri": f"skill://{HIDDEN}/SKILL.md"})
        expect(hidden["skill"]["frontmatter"]["name"] == HIDDEN and hidden["resultType"] == "complete", "hidden by URI")
        hidden_md, _ = content_bytes(await client.read_resource(f"skill://{HIDDEN}/SKILL.md"))
        expect(hidden_md.startswith(b"---\nname: hidden-helper"), "a hidden skill's files are readable")
        facts["refusals"] = {
            "get_broken": await refused(client, "skills/get", {"uri": f"skill://{BROKEN}/SKILL.md"}),
            "get_unknown": await refused(client, "skills/get", {"uri": "skill://nope/SKILL.md"}),
            "get_not_skill_md": await refused(client, "skills/get", {"uri": f"skill://{VISIBLE}/references/prazos.md"}),
            "directory_of_a_file": await refused(client, "resources/directory/read", {"uri": f"skill://{VISIBLE}/SKILL.md"}),
            "directory_unknown": await refused(client, "resources/directory/read", {"uri": f"skill://{VISIBLE}/nope"}),
        }
        try:
            await client.read_resource(f"skill://{VISIBLE}/references/nope.md")
            raise AssertionError("an unknown file was read")
        except MCPError as error:
            facts["refusals"]["read_unknown"] = error.error.code
        root = await call(client, "resources/directory/read", {"uri": f"skill://{VISIBLE}"})
        facts["root"] = {r["name"]: r["mimeType"] for r in root["resources"]}
        references = await call(client, "resources/directory/read", {"uri": f"skill://{VISIBLE}/references"})
        facts["references"] = sorted(r["name"] for r in references["resources"])
        facts.update(listed=len(fixture), catalog=len(listed) - len(fixture), pages=pages, files_read=files, blobs=blobs)
        return facts


async def tool(client, name, arguments):
    result = await client.call_tool(name, arguments)
    return {"error": bool(result.is_error), "data": result.structured_content, "text": result.content[0].text}


async def tools(args, mode):
    async with connect(args, mode) as client:
        facts = {"protocol": client.protocol_version}
        listed_tools = (await client.list_tools()).tools
        facts["tools"] = sorted(t.name for t in listed_tools)
        open_schema = next(t for t in listed_tools if t.name == "open_case").input_schema
        facts["reason_enum"] = open_schema["properties"]["reason"]["enum"]
        prompt = await client.get_prompt("skills_index", {})
        index = prompt.messages[0].content.text
        # The index is cut at its 8,000-character budget, in name order: the fillers come first.
        expect('<skill name="filler-000"' in index and HIDDEN not in index, "level 1 lists visible skills only")
        agentskills = (await client.get_prompt("skills_index", {"format": "agentskills"})).messages[0].content.text
        expect(agentskills.startswith("<available_skills>"), "the agentskills format")
        matched = await tool(client, "match_skills", {"conversation_id": "c1", "message": "Qual o prazo de ENTREGA?"})
        facts["match"] = matched["data"]
        read = await tool(client, "read_skill", {"name": VISIBLE, "task": "envio internacional", "conversation_id": "c2"})
        expect(read["text"] == read["data"]["text"], "the text is level 2")
        facts["read_skill"] = {k: read["data"][k] for k in ("required", "optional", "route_matched")}
        file = await tool(client, "read_skill_file", {"name": VISIBLE, "path": "references/prazos.md", "conversation_id": "c2"})
        with open(os.path.join(args.skills_dir, VISIBLE, "references", "prazos.md"), encoding="utf-8") as f:
            expect(file["data"]["text"] == f.read(), "level 3 is the file's text")
        codes = {}
        for label, name, arguments in [
            ("file_without_conversation", "read_skill_file", {"name": VISIBLE, "path": "references/prazos.md"}),
            ("file_not_active", "read_skill_file", {"name": VISIBLE, "path": "references/prazos.md", "conversation_id": "never"}),
            ("read_unknown_skill", "read_skill", {"name": "nope"}),
            ("read_broken_skill", "read_skill", {"name": BROKEN}),
            ("unknown_field", "open_case", {"conversation_id": "c4", "title": "t", "summary": "s", "titel": "typo"}),
            ("blank_title", "open_case", {"conversation_id": "c4", "title": " ", "summary": "s"}),
            ("unknown_reason", "open_case", {"conversation_id": "c4", "title": "t", "summary": "s", "reason": "angry"}),
            ("guardrail_reason", "open_case", {"conversation_id": "c4", "title": "t", "summary": "s", "reason": "guardrail_autofallback"}),
            ("unknown_case", "get_case", {"case_id": "00000000-0000-0000-0000-000000000000"}),
        ]:
            result = await tool(client, name, arguments)
            expect(result["error"], f"{label} is a tool error")
            codes[label] = result["data"]["code"]
        opened = await tool(client, "open_case", {
            "conversation_id": "wa-1", "title": "Refund above the agent limit", "summary": "R$ 900 for order 5521",
            "blocker": "Refunds over R$ 500 need a person", "lead": {"name": "Ana Lima", "channel": "whatsapp"},
            "context": [{"role": "lead", "text": "Quero meu dinheiro de volta"}], "reason": "policy_restriction",
        })
        case_id = opened["data"]["case"]["id"]
        facts["open_case_reason"] = opened["data"]["case"]["reason"]
        again = await tool(client, "open_case", {"conversation_id": "wa-1", "title": "again", "summary": "again"})
        facts["open_case"] = [opened["data"]["already_open"], again["data"]["already_open"], again["data"]["case"]["id"] == case_id]
        for label, name, arguments in [
            ("update_while_awaiting_human", "provide_case_update", {"case_id": case_id, "info": "pedido 5521"}),
            ("lead_asked_while_awaiting_human", "record_case_event", {"case_id": case_id, "kind": "lead_asked"}),
        ]:
            codes[label] = (await tool(client, name, arguments))["data"]["code"]
        fetched = await tool(client, "get_case", {"case_id": case_id})
        facts["timeline"] = [e["kind"] for e in fetched["data"]["events"]]
        cancelled = await tool(client, "record_case_event", {"case_id": case_id, "kind": "cancel", "note": "opened by mistake"})
        facts["cancelled_status"] = cancelled["data"]["case"]["status"]
        promise = "Vou verificar com a equipe financeira e te retorno mais tarde."
        first = await tool(client, "check_message", {"conversation_id": "wa-2", "turn_id": "t-1", "message": promise})
        second = await tool(client, "check_message", {"conversation_id": "wa-2", "turn_id": "t-1", "message": promise})
        plain = await tool(client, "check_message", {"conversation_id": "wa-3", "turn_id": "t-1", "message": "Vou te mandar o link."})
        auto = second["data"]["auto_opened_case"]
        auto_case = (await tool(client, "get_case", {"case_id": auto["id"]}))["data"]["case"] if auto else {}
        facts["guard"] = {
            "first": first["data"]["verdict"],
            "first_reason": first["data"]["reason"],
            "second": second["data"]["verdict"],
            "second_opened": auto_case.get("source"),
            "second_reason": auto_case.get("reason"),
            "plain": plain["data"]["verdict"],
        }
        facts["codes"] = codes
        return facts


async def notify(args, mode):
    if mode == "legacy":
        return await notify_legacy(args)
    prazos = f"skill://{VISIBLE}/references/prazos.md"
    other = "skill://filler-000/SKILL.md"
    async with connect(args, mode) as client:
        async with client.listen(resources_list_changed=True, resource_subscriptions=[prazos, other]) as sub:
            written = checks.touch_skill(args)
            seen = []
            async def collect():
                async for event in sub:
                    seen.append((type(event).__name__, getattr(event, "uri", None), time.monotonic() - written))
                    if any(kind == "ResourceUpdated" for kind, _, _ in seen) and any(k == "ResourcesListChanged" for k, _, _ in seen):
                        return
            await asyncio.wait_for(collect(), timeout=10)
        entry = await call(client, "skills/get", {"uri": f"skill://{VISIBLE}/SKILL.md"})
        record = next(r for r in entry["skill"]["resources"] if r["uri"] == prazos)
        content, _ = content_bytes(await client.read_resource(prazos, cache_mode="refresh"))
        checks.verify_file(checks.on_disk(args, prazos), content, record)
        return {
            "protocol": client.protocol_version,
            "events": sorted({(kind, uri) for kind, uri, _ in seen}, key=str),
            "seconds": max(at for _, _, at in seen),
        }


async def notify_legacy(args):
    prazos = f"skill://{VISIBLE}/references/prazos.md"
    seen, written = [], [None]

    async def on_message(message):
        if isinstance(message, (types.ResourceUpdatedNotification, types.ResourceListChangedNotification)) and written[0]:
            updated = isinstance(message, types.ResourceUpdatedNotification)
            kind, uri = ("ResourceUpdated", message.params.uri) if updated else ("ResourcesListChanged", None)
            seen.append((kind, uri, time.monotonic() - written[0]))

    async with connect(args, "legacy", message_handler=on_message) as client:
        await client.session.subscribe_resource(prazos)
        written[0] = checks.touch_skill(args)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and len({kind for kind, _, _ in seen}) < 2:
            await asyncio.sleep(0.02)
        expect(seen, "no notification arrived")
        return {
            "protocol": client.protocol_version,
            "events": sorted({(kind, uri) for kind, uri, _ in seen}, key=str),
            "seconds": max(at for _, _, at in seen),
        }


def main():
    args = checks.arguments()
    scenario = {"skills": skills, "tools": tools, "notify": notify}[args.scenario]
    checks.report(asyncio.run(scenario(args, args.mode)))


if __name__ == "__main__":
    main()
