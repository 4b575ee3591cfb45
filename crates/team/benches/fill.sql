-- The team bench's database: 1,000,000 cases numbered 1001.. without gaps (the closed tab's count
-- relies on it), opened one every 30 seconds over the last 347 days, with their timelines and the
-- deliveries of every reply. Run in one session on a migrated, empty database whose secondary
-- indexes the bench has dropped (it builds them again afterwards, faster than keeping them up row
-- by row). `session_replication_role = replica` turns the triggers off: the search text they would
-- keep is written here with the same folding, the announcements would only fill the notify queue.
--
-- The mix, drawn from a fixed seed so every fill is the same:
-- - the last 40,000 cases (two weeks): 55 % waiting on the person, 25 % on the customer, the rest
--   closed; older ones: 0.4 % still waiting on the person, 0.2 % on the customer. Closed: 85 %
--   resolved, 10 % escalated, 5 % cancelled. About 26,000 wait on you, 12,000 on the customer.
-- - reasons weighted as agents hand over (3 % by the guardrail), 80 % assigned to one of ten people.
-- - timelines: every case opened; 40 % of the closed ones asked the customer something first and
--   got the answer (or were closed by the quiet job); 15 % carry an internal note; 6 % of those
--   waiting on you owe a promise (most already overdue); every reply has its delivery.
-- - response-time targets of one hour to the first reply and a day to the resolution on every case.
SET session_replication_role = replica;
SET temp_buffers = '512MB';
SET work_mem = '256MB';
SELECT setseed(0.27);

-- A time written the way the domain's clock writes it.
CREATE FUNCTION pg_temp.stamp(t timestamp) RETURNS text STABLE LANGUAGE sql AS $$
    SELECT to_char(t, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;

-- What the cases are about, with the words said on them.
CREATE TEMP TABLE topics (topic, title, summary, blocker, message, question, answer, closing, escalation, note) AS
VALUES
    (1, 'Refund for a double charge',
     'The customer was charged twice for order {o} and wants one charge refunded.',
     'Refunds need a person''s approval.', 'I was charged twice for my order!',
     'Which card was charged, and can you send the last four digits?', 'The Visa ending 4242, both on Monday.',
     'Refunded the second charge; it shows on the statement in 3 to 5 days.',
     'Passing this to billing, who refund double charges.', 'Gerente aprovou a exceção nº {n}.'),
    (2, 'Delivery late',
     'Order {o} was due three days ago and the tracking has not moved since.',
     'The carrier''s status needs a person to check.', 'Where is my order? It should have arrived on Monday.',
     'Can you confirm the delivery address on the order?', 'Rua das Flores 120, apartamento 31, São Paulo.',
     'The carrier found the parcel; it arrives tomorrow before noon.',
     'Escalating to logistics to open a claim with the carrier.', 'Transportadora confirmou atraso no centro de distribuição.'),
    (3, 'Change the delivery address',
     'The customer moved and wants order {o} sent to the new address.',
     'Address changes after dispatch need the warehouse.', 'Can you send it to my new address instead?',
     'What is the new address, with the postcode?', 'Avenida Paulista 1000, 01310-100.',
     'The warehouse changed the address before the parcel left.',
     'The parcel already left; escalating to the carrier team.', 'Endereço novo conferido com o CEP.'),
    (4, 'Discount not applied',
     'The coupon for order {o} was accepted at checkout but the total did not change.',
     NULL, 'My coupon did not work, the price is the same.',
     'Which coupon code did you use?', 'It was BLACKFRIDAY20.',
     'Refunded the 20 % the coupon should have taken off.',
     'Marketing owns this campaign; escalating so they check the coupon.', 'Cupom válido até o fim do mês.'),
    (5, 'Cancel a subscription',
     'The customer wants to cancel the monthly plan and asks about the last invoice.',
     'Cancellations with an open invoice need billing.', 'I want to cancel my subscription, please.',
     'Do you want to cancel now or at the end of the billing period?', 'At the end of the period is fine.',
     'Cancelled at the end of the period; no further invoices.',
     'Billing must settle the open invoice first; escalating.', 'Cliente antigo, oferecer desconto de retenção.'),
    (6, 'Product arrived damaged',
     'The item of order {o} arrived broken; the customer sent photos and wants a replacement.',
     'Replacements need stock confirmation.', 'The box was crushed and the glass is broken.',
     'Could you send a photo of the label on the box?', 'Sent the photo just now.',
     'A replacement ships today; no need to return the broken one.',
     'Out of stock here; escalating to the supplier.', 'Fotos anexadas mostram a caixa amassada.'),
    (7, 'Invoice with the wrong tax number',
     'The invoice for order {o} shows the wrong company tax number; the customer needs it reissued.',
     'Only finance can reissue an invoice.', 'A nota fiscal veio com o CNPJ errado.',
     'Qual é o CNPJ correto da empresa?', '12.345.678/0001-90.',
     'Nota fiscal reemitida com o CNPJ correto.',
     'Encaminhando ao financeiro para reemitir a nota.', 'Financeiro reemite notas em até 48 horas.'),
    (8, 'Question about the warranty',
     'The customer asks whether the warranty covers a fault after 14 months.',
     NULL, 'Does the warranty cover this? It stopped working.',
     'When did you buy it, and do you have the receipt?', 'In September last year, I have the receipt.',
     'The extended warranty covers it; a technician will call you.',
     'Warranty claims past a year go to the manufacturer; escalating.', 'Garantia estendida de 24 meses confirmada.');

-- Each case's draws and the times that follow from them.
CREATE TEMP TABLE fill AS
WITH drawn AS (
    SELECT i, 999999 - i AS age, now() AT TIME ZONE 'UTC' AS now_utc,
           random() AS r_status, random() AS r_closed, random() AS r_topic, random() AS r_reason,
           random() AS r_assignee, random() AS r_reply, random() AS r_answer, random() AS r_read,
           random() AS r_promise, random() AS r_shape
    FROM generate_series(0::bigint, 999999) AS i
), statused AS (
    SELECT *,
           coalesce(
               CASE WHEN age < 40000 THEN
                        CASE WHEN r_status < 0.55 THEN 'awaiting_human' WHEN r_status < 0.8 THEN 'awaiting_lead' END
                    WHEN r_status < 0.004 THEN 'awaiting_human'
                    WHEN r_status < 0.006 THEN 'awaiting_lead' END,
               CASE WHEN r_closed < 0.85 THEN 'resolved' WHEN r_closed < 0.95 THEN 'escalated' ELSE 'cancelled' END
           ) AS status,
           now_utc - age * interval '30 seconds' AS opened
    FROM drawn
), shaped AS (
    SELECT *,
           status IN ('awaiting_human', 'awaiting_lead') AS open,
           CASE status WHEN 'awaiting_lead' THEN true WHEN 'awaiting_human' THEN r_shape < 0.35 ELSE r_shape < 0.4 END
               AS asked,
           (2 + r_reply * 180) * interval '1 minute' AS reply_gap,
           (5 + r_answer * 600) * interval '1 minute' AS answer_gap
    FROM statused
), timed AS (
    SELECT *,
           least(opened + reply_gap, now_utc) AS first_at,
           CASE WHEN asked AND status NOT IN ('awaiting_lead', 'cancelled')
                THEN least(opened + reply_gap + answer_gap, now_utc) END AS provided_at,
           -- One conversation per open case (one open case per conversation); the closed ones
           -- share 300,000 customers, who come back.
           CASE WHEN open THEN 300000 + i ELSE (i * 7919) % 300000 END AS customer
    FROM shaped
), closed AS (
    SELECT *,
           CASE WHEN status IN ('resolved', 'escalated') AND asked THEN least(provided_at + reply_gap, now_utc)
                WHEN status IN ('resolved', 'escalated') THEN first_at
                WHEN status = 'cancelled' AND asked THEN least(first_at + interval '3 days', now_utc)
                WHEN status = 'cancelled' THEN first_at END AS closed_at
    FROM timed
)
SELECT i, 1001 + i AS number, md5('case ' || i)::uuid::text AS id, status, open, asked,
       r_shape > 0.85 AS noted, now_utc, opened, first_at, provided_at, closed_at,
       1 + floor(r_topic * 8)::int AS topic,
       CASE WHEN asked OR status IN ('resolved', 'escalated') THEN first_at END AS first_reply_at,
       CASE status WHEN 'awaiting_human' THEN coalesce(provided_at, opened) WHEN 'awaiting_lead' THEN first_at END
           AS waiting_since,
       status = 'awaiting_human' AND r_promise < 0.06 AS promised,
       r_read < 0.6 AS read,
       'wa-' || (5511900000000 + customer) AS conversation_id,
       'lead-' || customer AS lead_id,
       (ARRAY['Maria', 'João', 'Ana', 'Pedro', 'Juliana', 'Lucas', 'Fernanda', 'Rafael', 'Camila', 'Gustavo',
              'Beatriz', 'Thiago'])[1 + customer % 12] || ' ' ||
           (ARRAY['Souza', 'Silva', 'Santos', 'Oliveira', 'Pereira', 'Lima', 'Costa', 'Almeida', 'Ribeiro',
                  'Carvalho'])[1 + (customer / 12) % 10] AS lead_name,
       (ARRAY['whatsapp', 'whatsapp', 'whatsapp', 'instagram', 'email'])[1 + customer % 5] AS lead_channel,
       '+55 11 9' || lpad((customer * 3701 % 100000000)::text, 8, '0') AS lead_contact,
       (ARRAY['support-bot', 'sales-bot', 'billing-bot'])[1 + i % 3] AS agent_id,
       CASE WHEN r_reason < 0.03 THEN 'guardrail_autofallback' ELSE 'agent' END AS source,
       CASE WHEN r_reason < 0.03 THEN 'guardrail_autofallback' WHEN r_reason < 0.25 THEN 'customer_request'
            WHEN r_reason < 0.45 THEN 'missing_knowledge' WHEN r_reason < 0.55 THEN 'unsupported_request'
            WHEN r_reason < 0.70 THEN 'policy_restriction' WHEN r_reason < 0.78 THEN 'tool_failure'
            WHEN r_reason < 0.90 THEN 'pending_clarification' ELSE 'not_stated' END AS reason,
       CASE WHEN r_assignee >= 0.2 THEN
           (ARRAY['Ana', 'Bruno', 'Carla', 'Diego', 'Elisa', 'Fábio', 'Gabriela', 'Hugo', 'Iara', 'Júlio'])
               [1 + floor((r_assignee - 0.2) / 0.08)::int] END AS assignee,
       100000 + (i * 31) % 900000 AS order_number
FROM closed;

-- The topics' words folded once: `skillcase_fold` works character by character, so the folded
-- text of a case is its parts folded, and folding a million whole texts would take minutes. The
-- bench checks a sample against what the triggers write.
CREATE TEMP TABLE folded AS
SELECT topic, skillcase_fold(title) AS title, skillcase_fold(summary) AS summary,
       skillcase_fold(blocker) AS blocker, skillcase_fold(message) AS message,
       skillcase_fold(question) AS question, skillcase_fold(answer) AS answer, skillcase_fold(note) AS note,
       skillcase_fold(closing) AS closing, skillcase_fold(escalation) AS escalation
FROM topics;

-- Every case with the words said on it, as both the cases and their timelines write them, and
-- the search text the triggers would keep from them.
CREATE TEMP VIEW story AS
SELECT f.*, t.title, replace(t.summary, '{o}', f.order_number::text) AS summary, t.blocker, t.message,
       t.question, t.answer, replace(t.note, '{n}', f.number::text) AS note,
       CASE f.status WHEN 'resolved' THEN t.closing WHEN 'escalated' THEN t.escalation END AS closing,
       coalesce(f.assignee, 'Ana') AS human,
       concat_ws(' ', d.title, replace(d.summary, '{o}', f.order_number::text), d.blocker,
                 skillcase_fold(f.lead_name), f.lead_contact, f.lead_id, f.conversation_id, d.message)
           AS search_fields,
       concat(CASE WHEN f.noted THEN ' ' || replace(d.note, '{n}', f.number::text) END,
              CASE WHEN f.asked THEN ' ' || d.question END,
              CASE WHEN f.provided_at IS NOT NULL THEN ' ' || d.answer END,
              CASE f.status WHEN 'resolved' THEN ' ' || d.closing WHEN 'escalated' THEN ' ' || d.escalation END)
           AS search_talk
FROM fill f JOIN topics t USING (topic) JOIN folded d USING (topic);

INSERT INTO cases (id, number, conversation_id, lead_id, lead_name, lead_channel, lead_contact, agent_id,
                   status, title, summary, blocker, context, source, reason, waiting_since, opened_at,
                   updated_at, closed_at, read_at, first_reply_at, promise_quote, promise_due_at,
                   first_reply_target, first_reply_due_at, resolution_target, resolution_due_at, sla_paused_at,
                   sla_due_at, first_reply_overdue_told, resolution_overdue_told, assignee, search_fields,
                   search_talk)
SELECT id, number, conversation_id, lead_id, lead_name, lead_channel, lead_contact, agent_id, status, title,
       summary, blocker,
       json_build_array(json_build_object('role', 'lead', 'text', message,
                                          'at', pg_temp.stamp(opened - interval '1 minute')))::text,
       source, reason, pg_temp.stamp(waiting_since), pg_temp.stamp(opened),
       pg_temp.stamp(greatest(opened, first_reply_at, waiting_since, closed_at)), pg_temp.stamp(closed_at),
       pg_temp.stamp(CASE status WHEN 'awaiting_human' THEN CASE WHEN read THEN least(waiting_since + interval '3 minutes', now_utc) END
                                 WHEN 'awaiting_lead' THEN first_at ELSE closed_at END),
       pg_temp.stamp(first_reply_at),
       CASE WHEN promised THEN 'We will check with our billing team and get back to you by tomorrow.' END,
       pg_temp.stamp(CASE WHEN promised THEN waiting_since + interval '1 day' END),
       60, pg_temp.stamp(opened + interval '1 hour'), 1440, pg_temp.stamp(opened + interval '1 day'),
       pg_temp.stamp(CASE WHEN status = 'awaiting_lead' THEN waiting_since END),
       pg_temp.stamp(CASE WHEN NOT open OR status = 'awaiting_lead' THEN NULL
                          WHEN first_reply_at IS NOT NULL THEN opened + interval '1 day'
                          ELSE opened + interval '1 hour' END),
       coalesce(first_reply_at, now_utc) > opened + interval '1 hour',
       coalesce(closed_at, now_utc) > opened + interval '1 day',
       assignee, search_fields, search_talk
FROM story;

-- Each case's events in slots of eight sequence numbers, so a closing event can name its reply.
-- The payloads are built only for the steps a case took (building every step's costs minutes).
INSERT INTO case_events (seq, case_id, kind, actor, actor_name, at, payload) OVERRIDING SYSTEM VALUE
SELECT 8 * s.i + e.slot, s.id, e.kind, e.actor, e.actor_name, pg_temp.stamp(e.at),
       CASE e.step
           WHEN 'opened' THEN json_build_object('source', s.source, 'reason', s.reason)
           WHEN 'note' THEN json_build_object('text', s.note)
           WHEN 'asked' THEN
               json_build_object('action', 'need_lead_info', 'text', s.question, 'status', 'awaiting_lead')
           WHEN 'provided' THEN json_build_object('info', s.answer)
           WHEN 'promised' THEN
               json_build_object('quote', 'We will check with our billing team and get back to you by tomorrow.',
                                 'actor', 'our billing team', 'action', 'get back to you',
                                 'due_text', 'by tomorrow', 'due_at', pg_temp.stamp(s.waiting_since + interval '1 day'),
                                 'turn_id', 'turn-' || s.i, 'spans', json_build_array())
           WHEN 'closing_reply' THEN
               json_build_object('action', CASE s.status WHEN 'resolved' THEN 'resolved' ELSE 'escalate' END,
                                 'text', s.closing, 'status', s.status)
           WHEN 'closed' THEN json_build_object('reply_seq', 8 * s.i + 6)
           WHEN 'quiet' THEN json_build_object('auto_closed', true, 'waiting_since', pg_temp.stamp(s.first_at))
           WHEN 'quiet_closed' THEN json_build_object('lead_unresponsive_seq', 8 * s.i + 6)
           WHEN 'cancelled' THEN json_build_object('reason', 'The customer sorted it out on their own.')
       END::text
FROM story s
CROSS JOIN LATERAL (VALUES
    (1, 'opened', true, 'opened', CASE s.source WHEN 'agent' THEN 'agent' ELSE 'system' END, s.agent_id, s.opened),
    (2, 'note', s.noted, 'internal_note', 'human', s.human, least(s.opened + interval '1 minute', s.now_utc)),
    (3, 'asked', s.asked, 'human_replied', 'human', s.human, s.first_at),
    (4, 'provided', s.provided_at IS NOT NULL, 'lead_provided', 'agent', s.agent_id, s.provided_at),
    (5, 'promised', s.promised, 'promise_made', 'agent', s.agent_id,
     least(s.waiting_since + interval '1 minute', s.now_utc)),
    (6, 'closing_reply', s.closing IS NOT NULL, 'human_replied', 'human', s.human, s.closed_at),
    (7, 'closed', s.closing IS NOT NULL, s.status, 'human', s.human, s.closed_at),
    (6, 'quiet', s.status = 'cancelled' AND s.asked, 'lead_unresponsive', 'system', NULL, s.closed_at),
    (7, 'quiet_closed', s.status = 'cancelled' AND s.asked, 'cancelled', 'system', NULL, s.closed_at),
    (7, 'cancelled', s.status = 'cancelled' AND NOT s.asked, 'cancelled', 'agent', s.agent_id, s.closed_at)
) AS e (slot, step, present, kind, actor, actor_name, at)
WHERE e.present;

-- The delivery of every reply, long delivered.
INSERT INTO deliveries (id, case_id, event_seq, action, body, state, attempts, created_at, updated_at,
                        delivered_at, last_status)
SELECT d.id, e.case_id, e.seq, e.payload::json ->> 'action',
       json_build_object('type', 'case.replied', 'id', d.id, 'created_at', e.at,
                         'case', json_build_object('id', s.id, 'number', s.number,
                                                   'conversation_id', s.conversation_id, 'title', s.title,
                                                   'summary', s.summary, 'status', e.payload::json ->> 'status'),
                         'action', e.payload::json ->> 'action', 'text', e.payload::json ->> 'text',
                         'instruction', 'Send the person''s reply to the customer in your own words.',
                         'promises', json_build_array())::text,
       'delivered', 1, e.at, e.at, e.at, 200
FROM case_events e
JOIN story s ON s.id = e.case_id
CROSS JOIN LATERAL (SELECT md5('delivery ' || e.seq)::uuid::text AS id) d
WHERE e.kind = 'human_replied';

-- Each person's closed total, as the closing steps keep it (the Closed tab of Mine and
-- Unassigned reads it).
INSERT INTO closed_totals (assignee, n)
SELECT coalesce(assignee, ''), count(*) FROM cases WHERE closed_at IS NOT NULL GROUP BY 1;

UPDATE case_counter SET next = 1001 + 1000000;
SELECT setval(pg_get_serial_sequence('case_events', 'seq'), (SELECT max(seq) FROM case_events));
RESET session_replication_role;
