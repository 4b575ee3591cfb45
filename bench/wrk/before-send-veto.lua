-- wrk: every request asks the guardrail about a promising message in a conversation of its own
-- with no open case, so each is the veto path (the detector, then one veto recorded).
local counter = 0
local token = os.getenv("SKILLCASE_TOKEN")

function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
end

function init(args)
  requests = 0
end

function request()
  requests = requests + 1
  local body = string.format(
    '{"conversation_id":"wrk-guard-%d-%d-%d","turn_id":"t1",' ..
    '"message":"Obrigado pela paciência! Vou verificar com a equipe financeira e te retorno ainda hoje."}',
    id, requests, os.time())
  return wrk.format("POST", "/v1/guard/before-send", {
    ["Content-Type"] = "application/json",
    ["Authorization"] = "Bearer " .. token,
  }, body)
end

function response(status, headers, body)
  if status ~= 200 or not string.find(body, '"verdict":"veto"', 1, true) then
    io.stderr:write("unexpected answer " .. status .. ": " .. body .. "\n")
  end
end
