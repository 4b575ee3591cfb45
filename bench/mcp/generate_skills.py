"""Writes N skill folders (default 1,000) for the MCP benchmark: SKILL.md and two references each,
about 4.5 KB a skill, valid for both Skillcase and FastMCP's SkillsDirectoryProvider.

    python generate_skills.py DIR [N]
"""

import os
import sys

BODY = "\n".join(f"{n}. Check the order's status, then answer with the delivery window for the region." for n in range(1, 21))
GUIDE = "\n".join(f"- Region {n}: {n + 2} business days; carrier {chr(65 + n % 26)}." for n in range(60))
FAQ = "\n".join(f"Q{n}: Can I change the address? A: Yes, until the order ships." for n in range(20))


def main():
    root, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    for n in range(count):
        name = f"skill-{n:04d}"
        folder = os.path.join(root, name, "references")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(root, name, "SKILL.md"), "w", encoding="utf-8") as f:
            f.write(f"---\nname: {name}\ndescription: Answers delivery question number {n} for the support team.\n"
                    f"license: MIT\n---\n# Delivery {n}\n\n{BODY}\n\nRead references/guide.md first.\n")
        with open(os.path.join(folder, "guide.md"), "w", encoding="utf-8") as f:
            f.write(GUIDE + "\n")
        with open(os.path.join(folder, "faq.md"), "w", encoding="utf-8") as f:
            f.write(FAQ + "\n")


if __name__ == "__main__":
    main()
