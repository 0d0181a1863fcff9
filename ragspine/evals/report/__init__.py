"""A run rendered for people and CI: report.md, report.html, junit.xml, and shared wording."""
