"""The FAQ route: vetted answers the engine serves before the agent is asked (every door:
`ragspine ask --faq`, `eval run --faq`, the HTTP service)."""
