"""Files in, facts and chunks out: the readers' tables mapped through the profile."""
