"""The independent audit of the anti-fabrication guard: its own number reader, its own check of
an answer against its sources, and the adversarial pack of hostile providers it is proven on."""
