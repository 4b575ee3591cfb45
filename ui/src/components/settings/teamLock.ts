import type { SettingsView } from "$lib/bindings/SettingsView";
import { t } from "$lib/i18n/index.svelte";

/** Why this desktop may not change what the team's admins set (the endpoint, the agents, the
 * calendar, the response times): its login is a member's. `undefined` when it may. */
export function adminLock(view: SettingsView): string | undefined {
  const person = view.team_person;
  if (!person || person.role === "admin") return undefined;
  return t("settings.team.adminOnly", { name: person.name });
}
