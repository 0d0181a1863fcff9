"""The FAQ short-circuit: vetted answers served before the engine is asked."""
