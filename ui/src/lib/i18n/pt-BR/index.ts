// Texto da interface em português do Brasil, um arquivo por área (mesmas chaves de en/).
import type { MessageKey } from "../en";
import { shell } from "./shell";
import { skills } from "./skills";
import { catalog } from "./catalog";
import { cases } from "./cases";
import { settings } from "./settings";
import { install } from "./install";
import { team } from "./team";
import { triggers } from "./triggers";
import { guard } from "./guard";

export const ptBR: Record<MessageKey, string> = { ...shell, ...skills, ...catalog, ...cases, ...settings, ...install, ...team, ...triggers, ...guard };
