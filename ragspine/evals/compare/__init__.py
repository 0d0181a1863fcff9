"""Two runs side by side: diff (what changed per case), paired statistics, and the CI gate."""
