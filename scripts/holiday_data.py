#!/usr/bin/env python3
"""Regenerates crates/guard/data/holidays.json: the national public holidays a workspace calendar
starts with, from the `holidays` package on PyPI (python-holidays, MIT, maintained by a community
that tracks each country's law), and which time zones belong to which country, from the system's
tz database (zone.tab, plus the legacy names such as Brazil/East that link to those zones).

Run through scripts/holidays, which makes the virtualenv; the output is checked in, so neither a
build nor a test needs Python or the network.
"""
import json
import sys
from pathlib import Path

import holidays

FIRST_YEAR, LAST_YEAR = 2025, 2040
# The countries offered in Settings: ISO 3166 code and the name in each UI language.
COUNTRIES = {
    "AR": ("Argentina", "Argentina"),
    "AU": ("Australia", "Austrália"),
    "BR": ("Brazil", "Brasil"),
    "CA": ("Canada", "Canadá"),
    "CL": ("Chile", "Chile"),
    "CO": ("Colombia", "Colômbia"),
    "DE": ("Germany", "Alemanha"),
    "ES": ("Spain", "Espanha"),
    "FR": ("France", "França"),
    "GB": ("United Kingdom", "Reino Unido"),
    "IE": ("Ireland", "Irlanda"),
    "IT": ("Italy", "Itália"),
    "MX": ("Mexico", "México"),
    "PT": ("Portugal", "Portugal"),
    "US": ("United States", "Estados Unidos"),
}
# Legacy zone names (tz "backward" links) that unambiguously name one of those countries.
LEGACY_PREFIXES = ("Brazil/", "US/", "Canada/", "Mexico/", "Chile/", "Australia/")
LEGACY_NAMES = {"GB", "GB-Eire", "Eire", "Portugal"}


def names(code: str, year_range) -> dict:
    """Each holiday's date -> [English name, Portuguese name or null]."""
    english = holidays.country_holidays(code, years=year_range, language="en_US")
    supported = holidays.country_holidays(code).supported_languages
    portuguese_language = "pt_BR" if "pt_BR" in supported else ("pt_PT" if "pt_PT" in supported else None)
    portuguese = (
        holidays.country_holidays(code, years=year_range, language=portuguese_language)
        if portuguese_language
        else {}
    )
    return {d.isoformat(): [english[d], portuguese.get(d)] for d in sorted(english)}


def zones(tzdir: Path) -> dict:
    """Zone name -> country code, for the countries above."""
    out = {}
    for line in (tzdir / "zone.tab").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        code, _coordinates, zone = line.split("\t")[:3]
        if code in COUNTRIES:
            out[zone] = code
    for line in (tzdir / "tzdata.zi").read_text().splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "L":
            target, link = parts[1], parts[2]
            legacy = link.startswith(LEGACY_PREFIXES) or link in LEGACY_NAMES
            if legacy and target in out and link not in out:
                out[link] = out[target]
    return dict(sorted(out.items()))


def main() -> None:
    out_path = Path(sys.argv[1])
    years = range(FIRST_YEAR, LAST_YEAR + 1)
    data = {
        "source": f"python-holidays {holidays.__version__}, national public holidays; tz database zone.tab",
        "first_year": FIRST_YEAR,
        "last_year": LAST_YEAR,
        "countries": {
            code: {"name": list(label), "holidays": names(code, years)} for code, label in COUNTRIES.items()
        },
        "zones": zones(Path("/usr/share/zoneinfo")),
    }
    out_path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
