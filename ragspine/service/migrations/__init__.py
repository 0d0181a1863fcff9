"""The API keys' schema: PostgreSQL only (``postgresql/``); on SQLite keys live in keys.yaml."""
