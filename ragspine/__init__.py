"""RAGSpine: answers about a company's numbers and documents that never invent a number."""

__version__ = "0.1.0"
