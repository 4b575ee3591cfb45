#!/bin/sh
GITHUB_TOKEN=ghp_fV6mia1uMcKObyaryrkhMirbTRgwO0a9yehJ
curl -H "Authorization: token $GITHUB_TOKEN" https://api.github.com/repos/acme/support/issues -d @case.json
