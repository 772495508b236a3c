ALTER TABLE `turns` ADD `failure_reason` text;--> statement-breakpoint
ALTER TABLE `turns` ADD `error_id` text;--> statement-breakpoint
-- Failed turns used to keep the provider's own message, which may quote the GM-only prompt back.
-- Keep only its class (read from the old wording) and drop the text, from the turns and the event log.
UPDATE `turns` SET `failure_reason` = CASE
	WHEN `error` LIKE 'The LLM call failed (rate\_limit)%' ESCAPE '\' THEN 'rate_limited'
	WHEN `error` LIKE 'The LLM call failed (server)%' ESCAPE '\' THEN 'provider_unavailable'
	WHEN `error` LIKE 'The LLM call failed (network)%' ESCAPE '\' THEN 'provider_unavailable'
	WHEN `error` LIKE 'The LLM call failed (timeout)%' ESCAPE '\' THEN 'timed_out'
	WHEN `error` LIKE 'The LLM call failed (bad\_request)%' ESCAPE '\' THEN 'refused'
	WHEN `error` LIKE 'The LLM call failed (auth)%' ESCAPE '\' THEN 'misconfigured'
	WHEN `error` LIKE 'The LLM call failed (config)%' ESCAPE '\' THEN 'misconfigured'
	WHEN `error` LIKE 'The LLM call failed (protocol)%' ESCAPE '\' THEN 'protocol_error'
	ELSE 'internal'
END, `error_id` = 'legacy', `error` = NULL WHERE `status` = 'failed';--> statement-breakpoint
UPDATE `events` SET `data` = json_object(
	'type', 'turn.failed',
	'turnId', json_extract(`data`, '$.turnId'),
	'reason', CASE
	WHEN json_extract(`data`, '$.error') LIKE 'The LLM call failed (rate\_limit)%' ESCAPE '\' THEN 'rate_limited'
	WHEN json_extract(`data`, '$.error') LIKE 'The LLM call failed (server)%' ESCAPE '\' THEN 'provider_unavailable'
	WHEN json_extract(`data`, '$.error') LIKE 'The LLM call failed (network)%' ESCAPE '\' THEN 'provider_unavailable'
	WHEN json_extract(`data`, '$.error') LIKE 'The LLM call failed (timeout)%' ESCAPE '\' THEN 'timed_out'
	WHEN json_extract(`data`, '$.error') LIKE 'The LLM call failed (bad\_request)%' ESCAPE '\' THEN 'refused'
	WHEN json_extract(`data`, '$.error') LIKE 'The LLM call failed (auth)%' ESCAPE '\' THEN 'misconfigured'
	WHEN json_extract(`data`, '$.error') LIKE 'The LLM call failed (config)%' ESCAPE '\' THEN 'misconfigured'
	WHEN json_extract(`data`, '$.error') LIKE 'The LLM call failed (protocol)%' ESCAPE '\' THEN 'protocol_error'
	ELSE 'internal'
END,
	'errorId', 'legacy',
	'retryable', json(CASE WHEN json_extract(`data`, '$.retryable') THEN 'true' ELSE 'false' END)
) WHERE `type` = 'turn.failed' AND json_extract(`data`, '$.error') IS NOT NULL;
