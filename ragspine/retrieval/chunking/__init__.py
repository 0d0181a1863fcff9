"""Turning documents into chunks with stable locators, and storing them."""
