"""Reads any profiler table and derives its bottleneck class with the evidence for it."""

from grader.analyzer.classify import CLASSES, Analysis, analyze

__all__ = ["CLASSES", "Analysis", "analyze"]
