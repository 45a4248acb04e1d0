-- One rate-limit lease as one statement (adapters/ratelimit/postgres.ts, docs/decisions/0030-rate-limit-lease-one-statement.md):
-- under the key's advisory lock, give back the unused tokens of older slots, count the key's slots p_slot - p_slots
-- … p_slot and add what is granted to p_slot. Each statement of a VOLATILE PL/pgSQL function reads with a snapshot
-- of its own, so the count is read after the lock is held; the commit does not wait for the WAL to reach the disk.
-- The locks are two-int advisory locks in their own space (7346110), which never meet the storage's one-bigint ones.
CREATE OR REPLACE FUNCTION svc_rate_limit_lease(p_key text, p_slot bigint, p_slot_ms bigint, p_slots integer, p_give_back text, p_want bigint, p_limit bigint)
RETURNS TABLE (used bigint, oldest bigint, granted bigint)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_used bigint;
  v_oldest bigint;
  v_granted bigint;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  PERFORM pg_advisory_xact_lock(7346110, hashtext(p_key));
  UPDATE rate_limits AS r SET count = greatest(0, r.count - g.tokens)
    FROM json_to_recordset(p_give_back::json) AS g(slot bigint, tokens integer)
    WHERE r.key = p_key || '#' || g.slot;
  SELECT coalesce(sum(r.count), 0)::int8, min(r.window_start) INTO v_used, v_oldest
    FROM rate_limits AS r
    WHERE r.key IN (SELECT p_key || '#' || s FROM generate_series(p_slot - p_slots, p_slot) AS s) AND r.count > 0;
  v_granted := least(p_want, greatest(0, p_limit - v_used));
  IF v_granted > 0 THEN
    INSERT INTO rate_limits AS r (key, window_start, count) VALUES (p_key || '#' || p_slot, p_slot * p_slot_ms, v_granted)
      ON CONFLICT (key) DO UPDATE SET count = r.count + excluded.count;
  END IF;
  RETURN QUERY SELECT v_used, v_oldest, v_granted;
END
$$;
