-- wrk: every request opens a case for a conversation of its own (a new case each time), with
-- the bearer token and Host the local API requires. The token comes from $SKILLCASE_TOKEN.
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
    '{"conversation_id":"wrk-%d-%d-%d","title":"Refund above the agent\'s limit",' ..
    '"summary":"The lead asks for a refund of R$ 900 for order 5521.","lead":{"name":"Ana","channel":"whatsapp"}}',
    id, requests, os.time())
  return wrk.format("POST", "/v1/cases", {
    ["Content-Type"] = "application/json",
    ["Authorization"] = "Bearer " .. token,
  }, body)
end

function response(status, headers, body)
  if status ~= 201 and status ~= 200 then
    io.stderr:write("unexpected status " .. status .. ": " .. body .. "\n")
  end
end
