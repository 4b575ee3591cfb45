"""What both Python clients check, written once: the fixture the Rust test wrote, and a report.

The Rust test (crates/cli/tests/it/mcp_clients.rs) writes the skills folder, starts the real
`skillcase` binary, runs a client script with one scenario and reads the last line the script
prints: a JSON object of what it saw. Every check that fails raises, so the script exits 1 with
the reason on standard error.
"""

import argparse
import hashlib
import json
import os
import sys
import time

SKILLS_EXTENSION = "io.modelcontextprotocol/skills"
VISIBLE = "shipping-policy"
HIDDEN = "hidden-helper"
BROKEN = "broken-skill"


def arguments():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", choices=["skills", "tools", "notify"])
    parser.add_argument("--stdio", help="the skillcase binary to start as `skillcase mcp`")
    parser.add_argument("--http", help="the Streamable HTTP URL of a running `skillcase serve`")
    parser.add_argument("--token", help="the API token for --http")
    parser.add_argument("--skills-dir", required=True)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--catalog-dir", required=True, help="the factory catalog, served beside the skills folder")
    parser.add_argument("--mode", default="auto", help="auto (2026-07-28 when offered) or legacy (initialize)")
    return parser.parse_args()


def child_env(args):
    env = dict(os.environ)
    env["SKILLCASE_DATA_DIR"] = args.data_dir
    return env


def expect(condition, what):
    if not condition:
        raise AssertionError(what)


def digest(content: bytes) -> str:
    return "sha256:" + hashlib.sha256(content).hexdigest()


def verify_file(path_on_disk, content: bytes, record):
    """The bytes read match the manifest record and the file on disk, byte for byte."""
    expect(len(content) == record["size"], f"{record['uri']}: {len(content)} bytes, manifest says {record['size']}")
    expect(digest(content) == record["digest"], f"{record['uri']}: digest differs from the manifest")
    with open(path_on_disk, "rb") as f:
        expect(f.read() == content, f"{record['uri']}: not the bytes of {path_on_disk}")


def on_disk(args, uri):
    """The file a URI serves: in the skills folder, else (a factory skill) in the catalog."""
    name, _, path = uri.removeprefix("skill://").partition("/")
    local = os.path.join(args.skills_dir, name)
    root = local if os.path.isdir(local) else os.path.join(args.catalog_dir, name)
    return os.path.join(root, *path.split("/"))


def in_fixture(args, name):
    return os.path.isdir(os.path.join(args.skills_dir, name))


def touch_skill(args):
    """Changes shipping-policy's body the way an editor would; returns when it was written."""
    path = os.path.join(args.skills_dir, VISIBLE, "references", "prazos.md")
    with open(path, "a", encoding="utf-8") as f:
        f.write("Norte: 7 dias úteis.\n")
    return time.monotonic()


def report(facts):
    print(json.dumps(facts, sort_keys=True))
    sys.stdout.flush()
