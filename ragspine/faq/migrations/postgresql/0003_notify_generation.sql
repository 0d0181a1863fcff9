-- Every change of the FAQ's generation is announced on the channel ragspine_generations,
-- delivered at commit to each service worker that LISTENs (storage.generation_listener), so a
-- worker holds the generations in memory instead of reading them at every request. The payload
-- is "SCHEMA.TABLE GENERATION": the counter and the value this transaction gave it.
CREATE FUNCTION ragspine_faq.notify_faq_state() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('ragspine_generations', TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME || ' '
        || NEW.generation);
    RETURN NULL;
END
$$;

CREATE TRIGGER faq_state_notify AFTER INSERT OR UPDATE ON faq_state
    FOR EACH ROW EXECUTE FUNCTION ragspine_faq.notify_faq_state();
