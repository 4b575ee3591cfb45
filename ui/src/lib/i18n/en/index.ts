// English UI text, one file per area so each screen's text lives beside its peers.
import { shell } from "./shell";
import { skills } from "./skills";
import { catalog } from "./catalog";
import { cases } from "./cases";
import { settings } from "./settings";
import { install } from "./install";
import { team } from "./team";
import { triggers } from "./triggers";
import { guard } from "./guard";

export const en = { ...shell, ...skills, ...catalog, ...cases, ...settings, ...install, ...team, ...triggers, ...guard };

export type MessageKey = keyof typeof en;
