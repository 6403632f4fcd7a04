"""Reporters turn results into text or JSON; they never decide anything."""
