"""Shipped base profiles: the vocabulary a whole class of companies shares (``cas.yaml``: the
statements of a company reporting under Chinese Accounting Standards), which a company's profile
extends with ``extends: cas`` and only its own names (see ``ragspine.profile.extends``)."""
