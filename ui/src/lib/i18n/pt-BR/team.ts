// Texto em português de Configurações → Caixa da equipe. en/team.ts tem as mesmas chaves.
import type { team as en } from "../en/team";

export const team: Record<keyof typeof en, string> = {
  "settings.team.title": "Caixa da equipe",
  "settings.team.lead": "Compartilhe uma caixa de casos com a sua equipe num banco PostgreSQL. As skills ficam neste computador.",
  "settings.team.inUseEmbedded": "Os casos ficam só neste computador.",
  "settings.team.inUse": "Os casos ficam no banco da equipe",
  "settings.team.source.option": "Escolhido com --database nesta execução.",
  "settings.team.source.environment": "Escolhido por SKILLCASE_DATABASE_URL enquanto ela estiver definida.",
  "settings.team.source.settings": "Salvo aqui.",
  "settings.team.url": "String de conexão",
  "settings.team.urlHint": "postgres://usuario:senha@host:5432/banco — a senha nunca é mostrada de novo.",
  "settings.team.savedUrl": "Salvo para a próxima abertura:",
  "settings.team.test": "Testar",
  "settings.team.testing": "Testando…",
  "settings.team.testOk": "O PostgreSQL {version} respondeu. Casos lá: {cases}.",
  "settings.team.testFailed": "O teste falhou: {error}",
  "settings.team.error.invalid_team_url": "isto não é uma string de conexão PostgreSQL; escreva no formato postgres://usuario:senha@host:5432/banco.",
  "settings.team.error.team_db_unreachable": "o banco da equipe não respondeu ou recusou o acesso.",
  "settings.team.error.team_db_too_new": "o banco da equipe foi preparado por um Skillcase mais novo (esquema {found}; este conhece até {supported}). Atualize o Skillcase.",
  "settings.team.error.team_db_error": "o banco da equipe recusou um comando.",
  "settings.team.save": "Salvar para a próxima abertura",
  "settings.team.forget": "Usar só este computador",
  "settings.team.savedRestart": "Salvo. Reinicie o Skillcase para abrir a caixa da equipe.",
  "settings.team.forgotRestart": "Salvo. Reinicie o Skillcase para voltar à caixa deste computador.",
  "settings.team.problem": "O banco da equipe não pôde ser aberto quando o Skillcase iniciou, então a caixa deste computador está aberta: {error}",
  "settings.team.restart": "Reiniciar agora",
};
